import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageHit } from './index.js';
import { searchMessages, searchThreads } from './index.js';
import { openTestArchive, type TestArchive } from './test-helpers.js';

let archive: TestArchive;
beforeAll(async () => {
  archive = await openTestArchive();
});
afterAll(() => archive.close());

const ids = (q: string, extra: Record<string, unknown> = {}): string[] =>
  searchMessages(archive.db, { q, ...extra }).messages.map((m) => m.messageId);
const hit = (q: string, messageId: string, extra: Record<string, unknown> = {}): MessageHit => {
  const found = searchMessages(archive.db, { q, explain: true, ...extra }).messages.find(
    (m) => m.messageId === messageId,
  );
  if (!found) throw new Error(`${messageId} not found for ${q}`);
  return found;
};

describe('identifier fields', () => {
  it('match by prefix from two characters, across address punctuation', () => {
    expect(ids('stripe.com')).toEqual(
      expect.arrayContaining(['stripe-4471@mail.stripe.com', 'stripe-4472@mail.stripe.com']),
    );
    expect(ids('noreply@github')).toEqual(['pr-812@github.com']);
    expect(ids('Logist')).toEqual(['ship-0320@acme.io']);
    expect(ids('kl')).toContain('de-0305@beispiel.de');
  });

  it('match any stretch of one address, the last run by prefix, never runs apart', () => {
    expect(ids('bianchi@esempio')).toEqual(['it-0307@esempio.it']);
    expect(hit('bianchi@esempio', 'it-0307@esempio.it').highlights.from).toEqual([
      'Giulia Bianchi <giulia.**bianchi@esempio**.it>',
    ]);
    expect(ids('giulia.bianchi@esempio.it')).toEqual(['it-0307@esempio.it']);
    // "Lena Fischer <lena.fischer@…>": fischer and lena are adjacent words, not one identifier.
    expect(ids('fischer.lena')).toEqual([]);
    expect(ids('lena.fischer').sort()).toEqual(['ship-0320@acme.io', 'ship-0321@acme.io']);
  });

  it('do not make bodies prefix-searchable', () => {
    // "warehouse" appears only in bodies; a prefix of it finds nothing.
    expect(ids('wareh')).toEqual([]);
    expect(ids('warehouse').sort()).toEqual(['ledger-0412@acme.io', 'ship-0320@acme.io']);
  });

  it('fold accents and case only', () => {
    expect(ids('jose')).toEqual(['es-0301@ejemplo.es']);
    expect(ids('JOSÉ MARTÍNEZ')).toEqual(['es-0301@ejemplo.es']);
  });

  it('are never stemmed: "shipped" finds the body that says shipping, not the subject', () => {
    expect(ids('shipped')).toEqual(['ship-0320@acme.io']);
  });
});

describe('text fields', () => {
  it('require every query token', () => {
    expect(ids('stripe 4472')).toEqual(['stripe-4472@mail.stripe.com']);
    expect(ids('budget travel').sort()).toEqual(['budget-1@acme.io', 'budget-2@acme.io']);
    expect(ids('budget pallets')).toEqual([]);
  });

  it('match stems in the language of each message', () => {
    expect(ids('factura')).toEqual(['es-0301@ejemplo.es']);
    expect(ids('Rechnung')).toEqual(['de-0305@beispiel.de']);
    expect(ids('fattura')).toEqual(['it-0307@esempio.it']);
  });

  it('rank exact words above stems', () => {
    const exact = hit('shipping', 'ship-0321@acme.io');
    expect(exact.highlights.subject).toEqual(['**Shipping** schedule']);
  });

  it('match compound identifiers whole: INV-4471 is not INV-4472, nor INV and 4471 apart', () => {
    const found = ids('INV-4471');
    expect(found[0]).toBe('stripe-4471@mail.stripe.com');
    expect(found).not.toContain('stripe-4472@mail.stripe.com');
    expect(found).not.toContain('ledger-0412@acme.io');
    expect(ids('inv 4471')).toContain('ledger-0412@acme.io');
  });

  it('match any stretch of an identifier written in them', () => {
    // reply-0403 quotes "Stripe <billing@stripe.com> wrote:"; its own fields are acme.io's.
    expect(hit('stripe.com', 'reply-0403@acme.io').highlights.quoted?.[0]).toContain(
      'billing@**stripe.com**',
    );
    expect(hit('billing@stripe', 'reply-0403@acme.io').highlights.quoted?.[0]).toContain(
      '**billing@stripe.com**',
    );
    expect(ids('lling@stripe')).not.toContain('reply-0403@acme.io');
  });

  it('treat quotes and syntax characters as plain text', () => {
    expect(ids('"INV-4471" AND (NOT')).toEqual([]);
    expect(ids('"INV-4471"')[0]).toBe('stripe-4471@mail.stripe.com');
    expect(ids('*:^{}')).toEqual([]);
  });
});

describe('fuzzy fill', () => {
  it('fills a short page with typo matches, after the exact ones', () => {
    const result = searchMessages(archive.db, { q: 'received', explain: true });
    expect(result.messages.map((m) => [m.messageId, m.explain?.match])).toEqual([
      ['contract-1@acme.io', 'exact'],
      ['contract-2@partner.example', 'fuzzy'],
    ]);
    expect(result.messages[1]?.highlights.text?.[0]).toContain('**recieved**');
  });

  it('is not used when exact matching fills the page', () => {
    const result = searchMessages(archive.db, { q: 'received', limit: 1, explain: true });
    expect(result.messages.map((m) => m.explain?.match)).toEqual(['exact']);
  });

  it('pages through typo matches without repeating one', () => {
    const seen: string[] = [];
    let pageToken: string | undefined;
    do {
      const page = searchMessages(archive.db, {
        q: 'kestral',
        limit: 1,
        explain: true,
        ...(pageToken ? { pageToken } : {}),
      });
      for (const m of page.messages) {
        expect(m.explain?.match).toBe('fuzzy');
        seen.push(m.messageId);
      }
      pageToken = page.nextPageToken ?? undefined;
    } while (pageToken);
    expect(seen).toEqual(ids('kestral', { limit: 10 }));
    expect(new Set(seen).size).toBe(3);
  });

  it('fills a short page of threads, leaving out the messages the exact phase showed', () => {
    const threads = searchThreads(archive.db, { q: 'received' }).threads;
    expect(threads.map((t) => t.lastMessageId).sort()).toEqual([
      'contract-1@acme.io',
      'contract-2@partner.example',
    ]);
  });

  it('never applies to short words or identifiers', () => {
    expect(ids('kestral')).toHaveLength(3);
    expect(ids('mil')).toEqual([]);
    expect(ids('INV-4417')).toEqual([]);
    // "noreply" is only in an address: identifier fields get no typo tolerance.
    expect(ids('noreplly')).toEqual([]);
  });
});

describe('ranking', () => {
  it('multiplies bm25 by a recency factor within [1, M]', () => {
    for (const maxBoost of [1, 1.5, 2]) {
      const result = searchMessages(archive.db, {
        q: 'maria',
        explain: true,
        limit: 100,
        recency: { maxBoost },
      });
      expect(result.messages.length).toBeGreaterThan(10);
      for (const m of result.messages) {
        expect(m.explain?.recency).toBeGreaterThanOrEqual(1);
        expect(m.explain?.recency).toBeLessThanOrEqual(maxBoost);
        expect(m.score).toBeCloseTo((m.explain?.bm25 ?? 0) * (m.explain?.recency ?? 0), 9);
      }
      const scores = result.messages.map((m) => m.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
    }
  });

  it('lets a fresh message overtake a more relevant old one by at most M', () => {
    const flat = searchMessages(archive.db, {
      q: 'maria',
      explain: true,
      limit: 100,
      recency: { maxBoost: 1 },
    }).messages;
    const boosted = searchMessages(archive.db, {
      q: 'maria',
      explain: true,
      limit: 100,
      recency: { maxBoost: 2, halfLifeDays: 36_500 },
    }).messages;
    const bm25 = new Map(flat.map((m) => [m.messageId, m.score]));
    for (let i = 0; i < boosted.length; i++) {
      for (let j = i + 1; j < boosted.length; j++) {
        const above = bm25.get((boosted[i] as MessageHit).messageId) as number;
        const below = bm25.get((boosted[j] as MessageHit).messageId) as number;
        expect(above * 2).toBeGreaterThanOrEqual(below);
      }
    }
  });

  it('breaks ties by date, then by row, the same way every time', () => {
    const order = ids('kestrel', { recency: { maxBoost: 1 } });
    expect(order[0]).toBe('tie-c@birds.example');
    const [a, b] = [archive.rowidOf('tie-a@birds.example'), archive.rowidOf('tie-b@birds.example')];
    expect(order.slice(1)).toEqual(
      a > b ? ['tie-a@birds.example', 'tie-b@birds.example'] : ['tie-b@birds.example', 'tie-a@birds.example'],
    );
    expect(ids('kestrel', { recency: { maxBoost: 1 } })).toEqual(order);
  });

  it('explains per-field contributions', () => {
    const h = hit('stripe', 'stripe-4471@mail.stripe.com');
    expect(Object.keys(h.explain?.fields ?? {})).toEqual(
      expect.arrayContaining(['ident_from', 'text_authored']),
    );
    expect(h.explain?.fields.ident_from).toBeGreaterThan(0);
  });
});

describe('highlights', () => {
  it('wrap matches from the original text, one key per matched field', () => {
    const h = hit('stripe.com', 'stripe-4471@mail.stripe.com');
    expect(h.highlights).toEqual({ from: ['Stripe <billing@**stripe.com**>'] });
    const compound = hit('INV-4471', 'stripe-4471@mail.stripe.com');
    expect(Object.keys(compound.highlights)).toEqual(['text']);
    expect(compound.highlights.text?.[0]).toContain('Invoice **INV-4471** for the April');
  });

  it('mark stemmed and accented matches as written', () => {
    expect(hit('facturas', 'es-0301@ejemplo.es').highlights.text?.[0]).toContain('**facturas**');
    expect(hit('maria', 'es-0301@ejemplo.es').highlights).toMatchObject({
      recipients: ['**Maria** Rossi <**maria**.rossi@acme.io>'],
      text: [expect.stringContaining('Hola **María**')],
    });
  });

  it('attribute quoted history and attachment names', () => {
    expect(hit('INV-4471', 'reply-0403@acme.io').highlights).toEqual({
      quoted: [expect.stringContaining('Invoice **INV-4471** for the April')],
    });
    expect(hit('statement', 'statement-0331@acme.io').highlights.attachments).toEqual([
      'card-**statement**-march-2024.pdf',
    ]);
    // Words only in an attachment's extracted text.
    const terms = hit('indemnification', 'contract-terms@northwind.example');
    expect(terms.highlights).toEqual({
      attachments: [expect.stringContaining('the **indemnification** cap')],
    });
  });
});

describe('exclusions', () => {
  it('never return spam, trash or unauthenticated mail', () => {
    const found = ids('invoice', { limit: 100 });
    expect(found).toContain('stripe-4471@mail.stripe.com');
    expect(found).not.toContain('spam-1@promo.example');
    expect(found).not.toContain('phish-1@stripe-billing.example');
    expect(ids('superseded')).toEqual([]);
  });
});

describe('thread mode', () => {
  it('returns each thread once, scored by its best message', () => {
    const result = searchThreads(archive.db, { q: 'budget review' });
    expect(result.threads).toHaveLength(1);
    const thread = result.threads[0];
    expect(thread).toMatchObject({
      subject: 'Budget review for Q3',
      messageCount: 2,
      lastMessageId: 'budget-2@acme.io',
      senders: ['Maria Rossi <maria.rossi@acme.io>', 'Tom Baker <tom.baker@acme.io>'],
    });
    expect(thread?.highlights.subject?.[0]).toContain('**Budget** **review**');
    const best = Math.max(...searchMessages(archive.db, { q: 'budget review' }).messages.map((m) => m.score));
    expect(thread?.score).toBe(best);
  });
});

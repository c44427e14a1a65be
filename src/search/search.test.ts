// What only the SQLite backend does: the typo-tolerant fill, `explain`, recency as explained,
// ties broken by row. What every backend promises (matching, highlights, exclusions, thread
// mode, lists) is the search contract: test/contract/search-contract.ts.

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

  it('finds a word its stem leaves apart: Rechnung finds "Rechnungen"', () => {
    const result = searchMessages(archive.db, { q: 'Rechnung', explain: true });
    expect(result.messages.map((m) => [m.messageId, m.explain?.match])).toEqual([
      ['de-0305@beispiel.de', 'fuzzy'],
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

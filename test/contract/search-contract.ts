// The search contract: what agent search and filtered lists promise whichever backend
// answers, asserted over the fixtures of test/fixtures/search (inbox work, and a copy of one
// message in inbox tenant-b). It runs on the SQLite archive in the normal suite
// (search-contract.test.ts) and on a real OpenSearch cluster
// (src/backend/opensearch/opensearch.test.ts).
//
// Only what must hold on both is here: which messages match (every token required; prefixes
// of identifiers, never of body words; stems in each message's language), clear winners
// first, highlights, filters, exclusions, tenancy and stable pages. Scores differ between the
// backends (OpenSearch's per-field BM25 constants, ties broken on an id hash rather than the
// row), so near-ties are compared as sets. SQLite-only behaviour (the typo-tolerant fill,
// `explain`, ties by row) stays in src/search/search.test.ts and list.test.ts.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ListResult,
  MessageHit,
  MessageSearchResult,
  ThreadSearchResult,
} from '../../src/search/index.js';
import { openTestArchive, type TestArchive } from '../../src/search/test-helpers.js';

export type Params = Record<string, unknown>;

/** One backend's answers to the three calls the contract covers. */
export interface SearchBackend {
  searchMessages(params: Params): Promise<MessageSearchResult>;
  searchThreads(params: Params): Promise<ThreadSearchResult>;
  listMessages(params: Params): Promise<ListResult>;
  /** Frees what the backend holds (not the archive). */
  close?(): Promise<void>;
}

/** The message ids of every page, in order: `page` is given the previous page's token. */
async function everyPage(
  page: (token: {
    pageToken?: string;
  }) => Promise<{ messages: ReadonlyArray<{ messageId: string }>; nextPageToken: string | null }>,
): Promise<string[]> {
  const ids: string[] = [];
  let token: string | null = null;
  do {
    const result = await page(token === null ? {} : { pageToken: token });
    ids.push(...result.messages.map((m) => m.messageId));
    token = result.nextPageToken;
  } while (token !== null);
  return ids;
}

/** The inbox every assertion but tenancy's searches. */
const INBOX = 'work';
/** A second tenant holding a copy of one message of `work`. */
const TENANT = 'tenant-b';

/** The contract's archive: every search fixture in `work`, the GitHub notification also in `tenant-b`. */
export async function openContractArchive(): Promise<TestArchive> {
  const archive = await openTestArchive();
  await archive.add(['github-pr'], TENANT);
  return archive;
}

/**
 * Runs the contract against the backend `open` makes from the contract's archive (built
 * once for the suite, by openContractArchive).
 */
export function describeSearchContract(
  name: string,
  open: (archive: TestArchive) => Promise<SearchBackend>,
): void {
  describe(`search contract: ${name}`, () => {
    let archive: TestArchive;
    let backend: SearchBackend;
    beforeAll(async () => {
      archive = await openContractArchive();
      backend = await open(archive);
    }, 120_000);
    afterAll(async () => {
      await backend?.close?.();
      archive?.close();
    });

    const search = (q: string, extra: Params = {}) => backend.searchMessages({ q, inbox: INBOX, ...extra });
    const ids = async (q: string, extra: Params = {}): Promise<string[]> =>
      (await search(q, extra)).messages.map((m) => m.messageId);
    const sorted = async (q: string, extra: Params = {}): Promise<string[]> => (await ids(q, extra)).sort();
    const hit = async (q: string, messageId: string): Promise<MessageHit> => {
      const found = (await search(q, { limit: 100 })).messages.find((m) => m.messageId === messageId);
      if (!found) throw new Error(`${messageId} not found for ${q}`);
      return found;
    };
    const listed = async (params: Params): Promise<string[]> =>
      (await backend.listMessages({ inbox: INBOX, limit: 100, ...params })).messages.map((m) => m.messageId);

    describe('identifier fields', () => {
      it('match by prefix from two characters, across address punctuation', async () => {
        expect(await ids('stripe.com')).toEqual(
          expect.arrayContaining(['stripe-4471@mail.stripe.com', 'stripe-4472@mail.stripe.com']),
        );
        expect(await ids('noreply@github')).toEqual(['pr-812@github.com']);
        expect(await ids('Logist')).toEqual(['ship-0320@acme.io']);
        expect(await ids('kl')).toContain('de-0305@beispiel.de');
      });

      it('match any stretch of one address, the last run by prefix, never runs apart', async () => {
        expect(await ids('bianchi@esempio')).toEqual(['it-0307@esempio.it']);
        expect((await hit('bianchi@esempio', 'it-0307@esempio.it')).highlights.from).toEqual([
          'Giulia Bianchi <giulia.**bianchi@esempio**.it>',
        ]);
        expect(await ids('giulia.bianchi@esempio.it')).toEqual(['it-0307@esempio.it']);
        // "Lena Fischer <lena.fischer@…>": fischer and lena are adjacent words, not one identifier.
        expect(await ids('fischer.lena')).toEqual([]);
        expect(await sorted('lena.fischer')).toEqual(['ship-0320@acme.io', 'ship-0321@acme.io']);
      });

      it('do not make bodies prefix-searchable', async () => {
        expect(await ids('wareh')).toEqual([]);
        expect(await sorted('warehouse')).toEqual(['ledger-0412@acme.io', 'ship-0320@acme.io']);
      });

      it('fold accents and case only, and are never stemmed', async () => {
        expect(await ids('jose')).toEqual(['es-0301@ejemplo.es']);
        expect(await ids('JOSÉ MARTÍNEZ')).toEqual(['es-0301@ejemplo.es']);
        expect(await ids('shipped')).toEqual(['ship-0320@acme.io']);
      });
    });

    describe('text fields', () => {
      it('require every query token', async () => {
        expect(await ids('stripe 4472')).toEqual(['stripe-4472@mail.stripe.com']);
        expect(await sorted('budget travel')).toEqual(['budget-1@acme.io', 'budget-2@acme.io']);
        expect(await ids('budget pallets')).toEqual([]);
      });

      it('match stems in the language of each message', async () => {
        // "facturas", "fatture": found by their stems. (Rechnung finds "Rechnungen" on SQLite
        // by its typo fill only: search.test.ts.)
        expect(await ids('factura')).toEqual(['es-0301@ejemplo.es']);
        expect(await ids('fattura')).toEqual(['it-0307@esempio.it']);
      });

      it('match compound identifiers whole and rank the clear winner first', async () => {
        const found = await ids('INV-4471');
        expect(found[0]).toBe('stripe-4471@mail.stripe.com');
        expect(found).not.toContain('stripe-4472@mail.stripe.com');
        expect(found).not.toContain('ledger-0412@acme.io');
        expect(await ids('inv 4471')).toContain('ledger-0412@acme.io');
      });

      it('match any stretch of an identifier written in them', async () => {
        expect((await hit('stripe.com', 'reply-0403@acme.io')).highlights.quoted?.[0]).toContain(
          'billing@**stripe.com**',
        );
        expect((await hit('billing@stripe', 'reply-0403@acme.io')).highlights.quoted?.[0]).toContain(
          '**billing@stripe.com**',
        );
        expect(await ids('lling@stripe')).not.toContain('reply-0403@acme.io');
      });

      it('treat quotes and syntax characters as plain text', async () => {
        expect(await ids('"INV-4471" AND (NOT')).toEqual([]);
        expect((await ids('"INV-4471"'))[0]).toBe('stripe-4471@mail.stripe.com');
        expect(await ids('*:^{}')).toEqual([]);
      });
    });

    describe('scores and highlights', () => {
      it('order results by score, the same way every time', async () => {
        const first = await search('maria', { limit: 100 });
        expect(first.messages.length).toBeGreaterThan(10);
        const scores = first.messages.map((m) => m.score);
        expect(scores).toEqual([...scores].sort((a, b) => b - a));
        expect(await ids('maria', { limit: 100 })).toEqual(first.messages.map((m) => m.messageId));
      });

      it('wrap matches from the original text, one key per matched field', async () => {
        expect((await hit('stripe.com', 'stripe-4471@mail.stripe.com')).highlights).toEqual({
          from: ['Stripe <billing@**stripe.com**>'],
        });
        const compound = await hit('INV-4471', 'stripe-4471@mail.stripe.com');
        expect(Object.keys(compound.highlights)).toEqual(['text']);
        expect(compound.highlights.text?.[0]).toContain('Invoice **INV-4471** for the April');
        expect((await hit('shipping', 'ship-0321@acme.io')).highlights.subject).toEqual([
          '**Shipping** schedule',
        ]);
      });

      it('mark stemmed and accented matches as written', async () => {
        expect((await hit('facturas', 'es-0301@ejemplo.es')).highlights.text?.[0]).toContain('**facturas**');
        expect((await hit('maria', 'es-0301@ejemplo.es')).highlights).toMatchObject({
          recipients: ['**Maria** Rossi <**maria**.rossi@acme.io>'],
          text: [expect.stringContaining('Hola **María**')],
        });
      });

      it('attribute quoted history, attachment names and attachment text', async () => {
        expect((await hit('INV-4471', 'reply-0403@acme.io')).highlights).toEqual({
          quoted: [expect.stringContaining('Invoice **INV-4471** for the April')],
        });
        expect((await hit('statement', 'statement-0331@acme.io')).highlights.attachments).toEqual([
          'card-**statement**-march-2024.pdf',
        ]);
        expect((await hit('indemnification', 'contract-terms@northwind.example')).highlights).toEqual({
          attachments: [expect.stringContaining('the **indemnification** cap')],
        });
      });
    });

    describe('exclusions and tenancy', () => {
      it('never return spam, trash or unauthenticated mail', async () => {
        const found = await ids('invoice', { limit: 100 });
        expect(found).toContain('stripe-4471@mail.stripe.com');
        expect(found).not.toContain('spam-1@promo.example');
        expect(found).not.toContain('phish-1@stripe-billing.example');
        expect(await ids('superseded')).toEqual([]);
      });

      it("answer from the inbox asked for, never another tenant's", async () => {
        const inboxes = async (params: Params) =>
          (await backend.searchMessages({ q: 'noreply@github', ...params })).messages
            .map((m) => m.inboxId)
            .sort();
        expect(await inboxes({ inbox: TENANT })).toEqual([TENANT]);
        expect(await inboxes({ inbox: INBOX })).toEqual([INBOX]);
        expect(await inboxes({})).toEqual([TENANT, INBOX].sort());
        expect((await backend.searchMessages({ q: 'invoice', inbox: TENANT })).messages).toEqual([]);
        expect(
          (await backend.listMessages({ inbox: TENANT, limit: 100 })).messages.map((m) => m.messageId),
        ).toEqual(['pr-812@github.com']);
      });
    });

    describe('thread mode', () => {
      it('returns each thread once, scored by its best message', async () => {
        const result = await backend.searchThreads({ q: 'budget review', inbox: INBOX });
        expect(result.threads).toHaveLength(1);
        const thread = result.threads[0];
        expect(thread).toMatchObject({
          subject: 'Budget review for Q3',
          messageCount: 2,
          lastMessageId: 'budget-2@acme.io',
        });
        expect([...(thread?.senders ?? [])].sort()).toEqual([
          'Maria Rossi <maria.rossi@acme.io>',
          'Tom Baker <tom.baker@acme.io>',
        ]);
        expect(thread?.highlights.subject?.[0]).toContain('**Budget** **review**');
        const best = Math.max(...(await search('budget review')).messages.map((m) => m.score));
        expect(thread?.score).toBeCloseTo(best, 6);
      });
    });

    describe('filtered lists', () => {
      it('match identifier filters by prefix, every filter required', async () => {
        expect(await listed({ from: 'stripe.com' })).toEqual([
          'stripe-4472@mail.stripe.com',
          'phish-1@stripe-billing.example',
          'stripe-4471@mail.stripe.com',
        ]);
        expect(await listed({ from: 'noreply@github' })).toEqual(['pr-812@github.com']);
        expect(await listed({ from: 'tom', to: 'maria', subject: 'bud' })).toEqual(['budget-2@acme.io']);
        expect(await listed({ subject: 'jose' })).toEqual([]);
        expect(await listed({ from: 'jose' })).toEqual(['es-0301@ejemplo.es']);
      });

      it('are chronological, newest first unless ascending, never scored', async () => {
        const newest = (await backend.listMessages({ inbox: INBOX, limit: 100 })).messages;
        const times = newest.map((m) => m.timestamp);
        expect(times).toEqual([...times].sort().reverse());
        const oldest = (await backend.listMessages({ inbox: INBOX, limit: 100, ascending: true })).messages;
        expect(oldest.map((m) => m.timestamp)).toEqual([...times].reverse());
        expect(newest[0]).not.toHaveProperty('score');
        expect(newest[0]).not.toHaveProperty('highlights');
      });

      it('hide spam and trash unless asked for, and never hide unauthenticated mail from explicit filters', async () => {
        expect(await listed({})).not.toContain('spam-1@promo.example');
        expect(await listed({})).not.toContain('trash-1@acme.io');
        expect(await listed({ includeSpam: true })).toContain('spam-1@promo.example');
        expect(await listed({ includeTrash: true })).toContain('trash-1@acme.io');
        expect(await listed({ labels: ['spam'] })).toEqual(['spam-1@promo.example']);
        expect(await listed({ labels: ['Trash'] })).toEqual(['trash-1@acme.io']);
        expect(await listed({ from: 'stripe.com' })).toContain('phish-1@stripe-billing.example');
      });

      it('filter by dates, attachments and thread', async () => {
        // Two messages share a date: their order is each backend's own (row, or id hash).
        const window = await listed({ after: '2024-05-01', before: '2024-05-12' });
        expect(window.slice(0, 2).sort()).toEqual(['tie-a@birds.example', 'tie-b@birds.example']);
        expect(window.slice(2)).toEqual(['stripe-4472@mail.stripe.com']);
        expect(await listed({ hasAttachment: true })).toEqual([
          'contract-terms@northwind.example',
          'statement-0331@acme.io',
        ]);
        expect(await listed({ hasAttachment: false })).not.toContain('statement-0331@acme.io');
        const [budget] = (await backend.listMessages({ inbox: INBOX, from: 'tom', subject: 'budget review' }))
          .messages;
        expect(await listed({ threadId: budget?.threadId, ascending: true })).toEqual([
          'budget-1@acme.io',
          'budget-2@acme.io',
        ]);
      });

      it('page without repeats or gaps, bound to the filters', async () => {
        const all = await listed({ to: 'maria' });
        expect(all.length).toBeGreaterThan(3);
        const paged = await everyPage((pageToken) =>
          backend.listMessages({ inbox: INBOX, to: 'maria', limit: 3, ...pageToken }),
        );
        expect(paged).toEqual(all);
        const first = (await backend.listMessages({ inbox: INBOX, to: 'maria', limit: 3 })).nextPageToken;
        await expect(
          backend.listMessages({ inbox: INBOX, to: 'tom', limit: 3, pageToken: first }),
        ).rejects.toMatchObject({
          code: 'invalid_page_token',
        });
      });

      it('page search results without repeats or gaps', async () => {
        const all = await ids('maria', { limit: 100 });
        const paged = await everyPage((pageToken) => search('maria', { limit: 4, ...pageToken }));
        expect(paged).toEqual(all);
      });
    });
  });
}

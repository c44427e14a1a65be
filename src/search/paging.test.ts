import { afterEach, describe, expect, it } from 'vitest';
import { MailsiftError } from '../core/errors.js';
import { clearRankCache, listMessages, searchMessages, searchThreads } from './index.js';
import { allFixtures, openTestArchive, type TestArchive } from './test-helpers.js';

let archive: TestArchive | undefined;
afterEach(() => archive?.close());

function codeOf(run: () => unknown): { code: string; param: string | undefined } {
  try {
    run();
  } catch (error) {
    if (error instanceof MailsiftError) return { code: error.code, param: error.param };
    throw error;
  }
  throw new Error('expected a MailsiftError');
}

async function pageThrough(mode: 'cached' | 'cold', writes: 'deletes' | 'inserts and deletes') {
  const fixtures = allFixtures();
  const first = fixtures.filter((_, i) => i % 2 === 0);
  const later = fixtures.filter((_, i) => i % 2 === 1);
  const a = await openTestArchive(first);
  archive = a;
  const existing = searchMessages(a.db, { q: 'maria', limit: 100 }).messages.map((m) => m.messageId);
  expect(existing.length).toBeGreaterThan(6);
  const seen: string[] = [];
  const deleted = new Set<string>();
  let token: string | null = null;
  let step = 0;
  do {
    if (mode === 'cold') clearRankCache(a.db);
    const page = searchMessages(a.db, { q: 'maria', limit: 2, ...(token ? { pageToken: token } : {}) });
    seen.push(...page.messages.map((m) => m.messageId));
    token = page.nextPageToken;
    // Between requests: new mail arrives (changing bm25 statistics), and a served and an unserved message go.
    const batch = later.splice(0, 2);
    if (writes === 'inserts and deletes' && batch.length > 0) await a.add(batch);
    if (step === 1) {
      for (const id of [seen[0] as string, existing[existing.length - 1] as string]) {
        a.deleteMessage(id);
        deleted.add(id);
      }
    }
    step++;
  } while (token !== null);
  expect(new Set(seen).size).toBe(seen.length);
  const expected = existing.filter((id) => !deleted.has(id) || seen.includes(id));
  expect([...seen].sort()).toEqual([...expected].sort());
}

describe('stable paging', () => {
  // 'cold' is a new process per page (the CLI): every page re-ranks with live statistics.
  it.each(['cached', 'cold'] as const)(
    'never repeats or skips a message while messages are deleted between pages (%s)',
    (mode) => pageThrough(mode, 'deletes'),
  );

  // Known gap: arrivals change bm25's corpus statistics (N, document frequencies) for every
  // row, not uniformly across messages that matched through different fields, so a message
  // near the page boundary can cross it. The watermark keeps new arrivals off the pages, and
  // the anchor's live score keeps uniform shifts harmless; an exact fix needs frozen ranking
  // (a snapshot of page 1's order). This test fails until then.
  it.fails('never skips a message while mail also arrives between pages (cold)', () =>
    pageThrough('cold', 'inserts and deletes'));

  it('pages threads and lists to the end with every item once', async () => {
    const a = await openTestArchive();
    archive = a;
    const threadIds: string[] = [];
    let token: string | null = null;
    do {
      clearRankCache(a.db);
      const page = searchThreads(a.db, { q: 'maria', limit: 3, ...(token ? { pageToken: token } : {}) });
      threadIds.push(...page.threads.map((t) => t.threadId));
      token = page.nextPageToken;
    } while (token !== null);
    expect(new Set(threadIds).size).toBe(threadIds.length);
    expect(threadIds.length).toBe(searchThreads(a.db, { q: 'maria', limit: 100 }).threads.length);

    const listed: string[] = [];
    do {
      const page = listMessages(a.db, { limit: 4, ...(token ? { pageToken: token } : {}) });
      listed.push(...page.messages.map((m) => m.messageId));
      token = page.nextPageToken;
    } while (token !== null);
    expect(listed).toEqual(listMessages(a.db, { limit: 100 }).messages.map((m) => m.messageId));
  });
});

describe('tenancy', () => {
  it('filters by inbox and rejects a token replayed on another inbox or query', async () => {
    const a = await openTestArchive(['budget-start', 'budget-reply', 'stripe-receipt', 'stripe-4472']);
    archive = a;
    await a.add(['budget-start', 'reconciliation'], 'home');
    expect(
      searchMessages(a.db, { q: 'budget', inbox: 'home' }).messages.map((m) => [m.inboxId, m.messageId]),
    ).toEqual([['home', 'budget-1@acme.io']]);
    expect(searchMessages(a.db, { q: 'stripe', inbox: 'home' }).messages).toEqual([]);
    const page = searchMessages(a.db, { q: 'maria', inbox: 'work', limit: 1 });
    expect(page.nextPageToken).not.toBeNull();
    const token = page.nextPageToken as string;
    expect(
      codeOf(() => searchMessages(a.db, { q: 'maria', inbox: 'home', limit: 1, pageToken: token })),
    ).toEqual({
      code: 'invalid_page_token',
      param: 'pageToken',
    });
    expect(codeOf(() => searchMessages(a.db, { q: 'budget', inbox: 'work', pageToken: token })).code).toBe(
      'invalid_page_token',
    );
    expect(codeOf(() => searchThreads(a.db, { q: 'maria', inbox: 'work', pageToken: token })).code).toBe(
      'invalid_page_token',
    );
    expect(codeOf(() => listMessages(a.db, { inbox: 'work', pageToken: token })).code).toBe(
      'invalid_page_token',
    );
    expect(codeOf(() => searchMessages(a.db, { q: 'maria', inbox: 'nowhere' }))).toEqual({
      code: 'no_such_item',
      param: 'inbox',
    });
  });
});

describe('validation', () => {
  it('names the parameter and the reason for every bad input', async () => {
    const a = await openTestArchive(['budget-start']);
    archive = a;
    const search = (params: Record<string, unknown>) => codeOf(() => searchMessages(a.db, params));
    expect(search({ q: 'x', sort: 'date' })).toEqual({ code: 'unknown_parameter', param: 'sort' });
    expect(search({ q: 'x', limit: 0 })).toEqual({ code: 'invalid_argument', param: 'limit' });
    expect(search({ q: 'x', limit: 101 })).toEqual({ code: 'invalid_argument', param: 'limit' });
    expect(search({ q: 'x', limit: 2.5 })).toEqual({ code: 'invalid_argument', param: 'limit' });
    expect(search({ q: 'x', before: 'yesterday' })).toEqual({ code: 'invalid_argument', param: 'before' });
    expect(search({ q: 'x', after: '2024-13-45' })).toEqual({ code: 'invalid_argument', param: 'after' });
    expect(search({ q: 'x', after: '2024-05-01', before: '2024-05-01' })).toEqual({
      code: 'invalid_argument',
      param: 'before',
    });
    expect(search({ q: 'x'.repeat(1001) })).toEqual({ code: 'invalid_argument', param: 'q' });
    expect(search({ q: '   ' })).toEqual({ code: 'invalid_argument', param: 'q' });
    expect(search({ q: 42 })).toEqual({ code: 'invalid_argument', param: 'q' });
    expect(search({})).toEqual({ code: 'invalid_argument', param: 'q' });
    expect(search({ q: 'x', recency: { maxBoost: 3 } })).toEqual({
      code: 'invalid_argument',
      param: 'recency.maxBoost',
    });
    expect(search({ q: 'x', pageToken: 'garbage' })).toEqual({
      code: 'invalid_page_token',
      param: 'pageToken',
    });
    const list = (params: Record<string, unknown>) => codeOf(() => listMessages(a.db, params));
    expect(list({ label: 'inbox' })).toEqual({ code: 'unknown_parameter', param: 'label' });
    expect(list({ limit: 500 })).toEqual({ code: 'invalid_argument', param: 'limit' });
    expect(list({ hasAttachment: 'yes' })).toEqual({ code: 'invalid_argument', param: 'hasAttachment' });
  });

  it('rejects a tampered token', async () => {
    const a = await openTestArchive(['budget-start', 'budget-reply']);
    archive = a;
    const token = searchMessages(a.db, { q: 'budget', limit: 1 }).nextPageToken as string;
    const [body, mac] = token.split('.') as [string, string];
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString()) as unknown[];
    payload[8] = 999;
    const forged = `${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${mac}`;
    expect(codeOf(() => searchMessages(a.db, { q: 'budget', limit: 1, pageToken: forged })).code).toBe(
      'invalid_page_token',
    );
    expect(searchMessages(a.db, { q: 'budget', limit: 1, pageToken: token }).messages).toHaveLength(1);
  });
});

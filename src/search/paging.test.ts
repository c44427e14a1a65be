import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MailsiftError } from '../core/errors.js';
import { openArchive } from '../store/index.js';
import { clearRankCache, listMessages, searchMessages, searchThreads } from './index.js';
import { saveSnapshot } from './snapshot.js';
import { allFixtures, openTestArchive, openWriter, type TestArchive } from './test-helpers.js';

let archive: TestArchive | undefined;
let writer: { close(): void } | undefined;
afterEach(() => {
  writer?.close();
  writer = undefined;
  archive?.close();
});

function codeOf(run: () => unknown): { code: string; param: string | undefined } {
  try {
    run();
  } catch (error) {
    if (error instanceof MailsiftError) return { code: error.code, param: error.param };
    throw error;
  }
  throw new Error('expected a MailsiftError');
}

async function pageThrough(mode: 'cached' | 'cold') {
  const a = await openTestArchive(allFixtures().filter((_, i) => i % 2 === 0));
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

/** Half the fixtures stored; the other half arrive, two at a time, while paging. */
async function busyArchive() {
  const fixtures = allFixtures();
  const a = await openTestArchive(fixtures.filter((_, i) => i % 2 === 0));
  archive = a;
  const other = openWriter(a);
  writer = other;
  return { a, other, later: fixtures.filter((_, i) => i % 2 === 1) };
}

describe('stable paging', () => {
  // 'cold' is a new process per page (the CLI): nothing of page 1 is left in memory.
  it.each(['cached', 'cold'] as const)(
    'never repeats or skips a message while messages are deleted between pages (%s)',
    (mode) => pageThrough(mode),
  );

  // Arrivals change bm25's corpus statistics for every row, unevenly across fields, so a
  // live re-ranking moves messages across page boundaries; later pages follow page 1's
  // frozen order instead.
  // At one message a page, page 1 freezes eleven rows and later pages extend the order.
  it.each([
    ['cached', 2],
    ['cold', 2],
    ['cold', 1],
  ] as const)(
    'messages: no repeats or skips while another connection inserts and deletes between every page (%s, limit %i)',
    async (mode, limit) => {
      const { a, other, later } = await busyArchive();
      const existing = searchMessages(a.db, { q: 'maria', limit: 100 }).messages.map((m) => m.messageId);
      expect(existing.length).toBeGreaterThan(6);
      const seen: string[] = [];
      const deleted = new Set<string>();
      let token: string | null = null;
      let pages = 0;
      do {
        if (mode === 'cold') clearRankCache(a.db);
        const page = searchMessages(a.db, { q: 'maria', limit, ...(token ? { pageToken: token } : {}) });
        expect(page.degraded).toBeUndefined();
        seen.push(...page.messages.map((m) => m.messageId));
        token = page.nextPageToken;
        pages++;
        // Between every page: two arrivals, and the earliest served message still stored
        // goes; after page 2 the last unserved one goes too. Ranking each page live skips a
        // message in this sequence (deleting more unserved ones could hide the one that crosses).
        const batch = later.splice(0, 2);
        if (batch.length > 0) await other.add(batch);
        const unserved = existing.filter((id) => !seen.includes(id) && !deleted.has(id));
        for (const id of [seen.find((s) => !deleted.has(s)), pages === 2 ? unserved.pop() : undefined]) {
          if (id === undefined) continue;
          other.deleteMessage(id);
          deleted.add(id);
        }
      } while (token !== null);
      expect(pages).toBeGreaterThan(2);
      expect(deleted.size).toBeGreaterThan(4);
      expect(new Set(seen).size).toBe(seen.length);
      const expected = existing.filter((id) => !deleted.has(id) || seen.includes(id));
      expect([...seen].sort()).toEqual([...expected].sort());
      // What arrived after page 1 stays off these pages, and is found by a new search.
      const fresh = searchMessages(a.db, { q: 'maria', limit: 100 }).messages.map((m) => m.messageId);
      expect(fresh.filter((id) => !existing.includes(id)).length).toBeGreaterThan(0);
    },
  );

  it.each([2, 1])(
    'threads: no repeats or skips while another connection inserts and deletes between every page (limit %i)',
    async (limit) => {
      const { a, other, later } = await busyArchive();
      const matching = searchMessages(a.db, { q: 'maria', limit: 100 }).messages;
      const existing = searchThreads(a.db, { q: 'maria', limit: 100 }).threads.map((t) => t.threadId);
      expect(existing.length).toBeGreaterThan(4);
      const seen: string[] = [];
      const gone = new Set<string>();
      const kept = new Set<string>();
      let token: string | null = null;
      let step = 0;
      do {
        clearRankCache(a.db);
        const page = searchThreads(a.db, { q: 'maria', limit, ...(token ? { pageToken: token } : {}) });
        expect(page.degraded).toBeUndefined();
        seen.push(...page.threads.map((t) => t.threadId));
        token = page.nextPageToken;
        const batch = later.splice(0, 2);
        if (batch.length > 0) await other.add(batch);
        // An unserved thread loses its best match (it keeps its place if another message
        // still matches) or, when that was its only match, disappears.
        const target = existing.filter((id) => !seen.includes(id) && !gone.has(id) && !kept.has(id)).pop();
        const members = matching.filter((m) => m.threadId === target);
        if (target !== undefined && members[0]) {
          other.deleteMessage(members[0].messageId);
          (members.length > 1 ? kept : gone).add(target);
        }
        step++;
      } while (token !== null);
      expect(step).toBeGreaterThan(2);
      expect(gone.size + kept.size).toBeGreaterThan(2);
      expect(new Set(seen).size).toBe(seen.length);
      expect([...seen].sort()).toEqual(existing.filter((id) => !gone.has(id)).sort());
    },
  );

  it('rejects a token whose frozen order expired or was pruned, and pages live when it cannot write', async () => {
    const a = await openTestArchive();
    archive = a;
    const first = searchMessages(a.db, { q: 'maria', limit: 2 });
    expect(searchMessages(a.db, { q: 'maria', limit: 2 }).nextPageToken).toBe(first.nextPageToken);
    expect(a.db.prepare('SELECT count(*) FROM scratch.search_snapshots').pluck().get()).toBe(1);
    const token = first.nextPageToken as string;
    a.db.prepare('UPDATE scratch.search_snapshots SET created_at = 0').run();
    clearRankCache(a.db);
    const expired = (() => {
      try {
        searchMessages(a.db, { q: 'maria', limit: 2, pageToken: token });
      } catch (error) {
        return error;
      }
    })();
    expect(expired).toBeInstanceOf(MailsiftError);
    expect((expired as MailsiftError).message).toBe('page token expired: run the search again');
    expect(codeOf(() => searchMessages(a.db, { q: 'maria', limit: 2, pageToken: token }))).toEqual({
      code: 'invalid_page_token',
      param: 'pageToken',
    });

    const all = searchMessages(a.db, { q: 'maria', limit: 100 }).messages.map((m) => m.messageId);
    const readOnly = openArchive(join(a.root, 'archive.db'), { readonly: true });
    try {
      const seen: string[] = [];
      let next: string | null = null;
      do {
        const page = searchMessages(readOnly.db, {
          q: 'maria',
          limit: 3,
          ...(next ? { pageToken: next } : {}),
        });
        if (next === null) expect(page.degraded).toEqual(['stable_paging']);
        seen.push(...page.messages.map((m) => m.messageId));
        next = page.nextPageToken;
      } while (next !== null);
      expect(seen).toEqual(all);
    } finally {
      readOnly.db.close();
    }
  });

  it('writes a repeated first page once a minute, not on every request', async () => {
    const a = await openTestArchive([]);
    archive = a;
    const draft = {
      inboxId: 0,
      kind: 'messages:exact',
      fingerprint: 'f',
      rows: [],
      threads: null,
      complete: true,
    };
    const stored = () =>
      a.db.prepare("SELECT created_at FROM scratch.search_snapshots WHERE id = 's'").pluck().get();
    const at = Date.UTC(2026, 0, 1);
    expect(saveSnapshot(a.db, 's', draft, at)).toBe(true);
    expect(saveSnapshot(a.db, 's', draft, at + 30_000)).toBe(true);
    expect(stored()).toBe(at);
    expect(saveSnapshot(a.db, 's', draft, at + 61_000)).toBe(true);
    expect(stored()).toBe(at + 61_000);
  });

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

describe('extending a frozen order', () => {
  // At one result a page, page 1 freezes eleven rows; 'maria' matches more, so later
  // pages reach the end of the frozen order and extend it from the live ranking.
  it.each(['messages', 'threads'] as const)(
    'goes past the rows page 1 froze without repeats or skips while mail arrives and goes (%s)',
    async (mode) => {
      const fixtures = allFixtures();
      const later = fixtures.slice(-4);
      const a = await openTestArchive(fixtures.slice(0, -4));
      archive = a;
      const other = openWriter(a);
      writer = other;
      const search = (params: Record<string, unknown>) =>
        mode === 'messages'
          ? searchMessages(a.db, { q: 'maria', ...params }).messages.map((m) => [m.messageId, m.threadId])
          : searchThreads(a.db, { q: 'maria', ...params }).threads.map((t) => [t.lastMessageId, t.threadId]);
      const idOf = (entry: string[]) => (mode === 'messages' ? entry[0] : entry[1]) as string;
      const existing = search({ limit: 100 });
      expect(existing.length).toBeGreaterThan(13);
      const seen: string[] = [];
      const gone = new Set<string>();
      let token: string | null = null;
      let pages = 0;
      do {
        clearRankCache(a.db);
        const page: { messages?: unknown[]; nextPageToken: string | null; degraded?: string[] } =
          mode === 'messages'
            ? searchMessages(a.db, { q: 'maria', limit: 1, ...(token ? { pageToken: token } : {}) })
            : searchThreads(a.db, { q: 'maria', limit: 1, ...(token ? { pageToken: token } : {}) });
        expect(page.degraded).toBeUndefined();
        seen.push(
          ...('messages' in page
            ? (page.messages as Array<{ messageId: string }>).map((m) => m.messageId)
            : (page as unknown as { threads: Array<{ threadId: string }> }).threads.map((t) => t.threadId)),
        );
        token = page.nextPageToken;
        pages++;
        const batch = later.splice(0, 1);
        if (batch.length > 0) await other.add(batch);
        // Every third page, the last unserved single-message match goes.
        if (pages % 3 === 0 && mode === 'messages') {
          const target = existing
            .map(idOf)
            .filter((id) => !seen.includes(id) && !gone.has(id))
            .pop();
          if (target !== undefined) {
            other.deleteMessage(target);
            gone.add(target);
          }
        }
      } while (token !== null);
      expect(pages).toBeGreaterThan(12);
      expect(new Set(seen).size).toBe(seen.length);
      expect([...seen].sort()).toEqual(
        existing
          .map(idOf)
          .filter((id) => !gone.has(id))
          .sort(),
      );
    },
  );
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

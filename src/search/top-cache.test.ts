import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reindex } from '../index/index.js';
import type { TopRows } from './ranked-query.js';
import { searchMessages, searchThreads } from './search.js';
import { openTestArchive, type TestArchive } from './test-helpers.js';
import { cachedTop } from './top-cache.js';

let archive: TestArchive;
beforeAll(async () => {
  archive = await openTestArchive();
});
afterAll(() => archive.close());

const ids = (q: string): string[] => searchMessages(archive.db, { q }).messages.map((m) => m.messageId);

describe('ranked heads kept between requests', () => {
  it('serve a repeated query the same page', () => {
    const first = searchMessages(archive.db, { q: 'invoice' });
    expect(first.messages.length).toBeGreaterThan(1);
    expect(searchMessages(archive.db, { q: 'invoice' })).toEqual(first);
  });

  it('are not served after the index is rebuilt, which may number its segments the same', () => {
    const before = ids('invoice');
    const other = archive.db
      .prepare('SELECT message_id FROM messages ORDER BY id')
      .pluck()
      .all()
      .find((id) => !before.includes(id as string)) as string;
    // Changed under the index, as only a rebuild would see.
    archive.db
      .prepare("UPDATE messages SET subject = 'Invoice INV-9901 attached' WHERE message_id = ?")
      .run(other);
    reindex(archive.db);
    expect(ids('invoice')).toContain(other);
  });

  it('are not served once a label hides a message they hold', () => {
    const [top, ...rest] = ids('invoice');
    const rowid = archive.rowidOf(top as string);
    archive.db.prepare("INSERT INTO message_labels (message_rowid, label) VALUES (?, 'trash')").run(rowid);
    expect(ids('invoice')).toEqual(rest);
    archive.db.prepare("DELETE FROM message_labels WHERE message_rowid = ? AND label = 'trash'").run(rowid);
    expect(ids('invoice')).toEqual([top, ...rest]);
  });

  it('are not served once a message they hold is deleted', () => {
    const [top, ...rest] = ids('invoice');
    archive.deleteMessage(top as string);
    expect(ids('invoice')).toEqual(rest);
  });

  it('are not served in thread mode once a message moves to another thread', () => {
    const threads = () => searchThreads(archive.db, { q: 're' }).threads.map((t) => t.threadId);
    const before = threads();
    expect(before.length).toBeGreaterThan(1);
    const [first, second] = before as [string, string];
    // The store moves every message of a merged thread; the keyword index follows by trigger.
    archive.db.prepare('UPDATE messages SET thread_id = ? WHERE thread_id = ?').run(first, second);
    // A kept head would still group the moved messages apart: the merged thread twice.
    const after = threads();
    expect(after).not.toContain(second);
    expect(new Set(after).size).toBe(after.length);
    expect(after).toHaveLength(before.length - 1);
  });
});

describe('the kept heads budget', () => {
  const ctx = {
    inboxId: 0,
    after: null,
    before: null,
    origin: 0,
    watermark: 1e9,
    maxBoost: 1.5,
    halfLifeDays: 30,
  };
  const head = (rows: number): TopRows => ({
    rows: Array.from({ length: rows }, (_, i) => ({ rowid: i + 1, date: 0, score: 1 })),
    more: true,
  });
  const ranked = (what: string[], rows: number): number => {
    let ranks = 0;
    for (const w of what)
      cachedTop(archive.db, w, ctx, rows, () => {
        ranks++;
        return head(rows);
      });
    return ranks;
  };

  it('keeps a working set of hundreds of distinct first pages', () => {
    const queries = Array.from({ length: 700 }, (_, i) => `messages q${i}`);
    expect(ranked(queries, 101)).toBe(700);
    expect(ranked(queries, 101)).toBe(0);
  });

  it('lets the least recently served heads go when their rows exceed it', () => {
    expect(ranked(['deep a', 'deep b'], 100_000)).toBe(2);
    expect(ranked(['deep a'], 100_000)).toBe(0);
    // A third deep head is past the budget: b, served longest ago, goes; a stays.
    expect(ranked(['deep c'], 100_000)).toBe(1);
    expect(ranked(['deep a', 'deep c'], 100_000)).toBe(0);
    expect(ranked(['deep b'], 100_000)).toBe(1);
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../store/index.js';
import { clearRankCache } from './rank-cache.js';
import type { TopRows } from './ranked-query.js';
import { searchMessages } from './search.js';
import { shareRankedHeads } from './shared-heads.js';
import { openTestArchive, openWriter, type TestArchive } from './test-helpers.js';

let archive: TestArchive;
let other: ReturnType<typeof openWriter>;
beforeAll(async () => {
  archive = await openTestArchive();
  // A second connection to the same file: another worker of the same server.
  other = openWriter(archive);
});
afterAll(() => {
  other.close();
  archive.close();
});
afterEach(() => {
  shareRankedHeads(false);
  archive.db.exec('DELETE FROM scratch.search_heads');
  clearRankCache(archive.db);
  clearRankCache(other.db);
});

const ids = (db: Db, q: string): string[] => searchMessages(db, { q }).messages.map((m) => m.messageId);
const storedHeads = (): Array<{ key: string; head: string }> =>
  archive.db.prepare('SELECT key, head FROM scratch.search_heads').all() as Array<{
    key: string;
    head: string;
  }>;

describe('ranked heads shared between the workers of a server', () => {
  it('are not written by a process that did not turn sharing on (a CLI search)', () => {
    expect(ids(archive.db, 'invoice').length).toBeGreaterThan(1);
    expect(storedHeads()).toEqual([]);
  });

  it('are not written when ranking was cheaper than writing them', () => {
    shareRankedHeads(true, 60_000);
    expect(ids(archive.db, 'invoice').length).toBeGreaterThan(1);
    expect(storedHeads()).toEqual([]);
  });

  it('let a second worker serve a query the first one ranked, without ranking it again', () => {
    // Every head is worth sharing here: the fixture archive ranks in well under a millisecond.
    shareRankedHeads(true, 0);
    const first = ids(archive.db, 'invoice');
    const [stored] = storedHeads();
    expect(stored).toBeDefined();
    // Reverse the stored order: the second worker can only answer so by reading it.
    const head = JSON.parse(stored?.head as string) as TopRows;
    const reversed: TopRows = { ...head, rows: [...head.rows].reverse() };
    archive.db
      .prepare('UPDATE scratch.search_heads SET head = ? WHERE key = ?')
      .run(JSON.stringify(reversed), stored?.key);
    expect(ids(other.db, 'invoice')).toEqual([...first].reverse());
  });

  it('are not read once the index has changed since they were ranked', () => {
    shareRankedHeads(true, 0);
    const [top, ...rest] = ids(archive.db, 'invoice');
    expect(storedHeads()).toHaveLength(1);
    archive.deleteMessage(top as string);
    expect(ids(other.db, 'invoice')).toEqual(rest);
  });
});

import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostings } from '../index/index.js';
import { FIXTURES, openTestArchive, openWriter, type TestArchive } from './test-helpers.js';

// The thread runs the built script (a worker cannot load TypeScript): these tests use the
// built search module, which `npm test` compiles before running them.
type Search = typeof import('./index.js');
const built = (await import(
  pathToFileURL(join(import.meta.dirname, '../../dist/src/search/index.js')).href
)) as Search;

let archive: TestArchive;
beforeAll(async () => {
  archive = await openTestArchive();
  await archive.engine.ingest([`${FIXTURES}-ranking`], { inbox: 'work', workers: 0 });
});
afterAll(async () => {
  await built.stopRankThread(archive.db);
  archive.close();
});

// Queries' counts in the thread's segments are read by the caller from mask counts (a
// segment with tombstones has them asked of the thread: the second test); `stripe.com` and
// `kick-off` are compounds, whole or by prefix.
const QUERIES = [
  'budget',
  'invoice',
  'q3 budget decision',
  'acme',
  'stripe.com',
  'kick-off',
  'received',
  'maria',
];

/** Every message id and score of `q`'s first page of 100, ranked cold. */
function ranked(q: string, threads = false): string[] {
  built.clearRankCache(archive.db);
  if (threads) {
    return built.searchThreads(archive.db, { q, limit: 100 }).threads.map((t) => `${t.threadId} ${t.score}`);
  }
  return built.searchMessages(archive.db, { q, limit: 100 }).messages.map((m) => `${m.messageId} ${m.score}`);
}

describe('rank thread', () => {
  it('ranks exactly as one thread does, sharing the segments', async () => {
    expect(openPostings(archive.db).segments.length).toBeGreaterThanOrEqual(2);
    const alone = QUERIES.map((q) => [ranked(q), ranked(q, true)]);
    expect(alone.flat(2).length).toBeGreaterThan(20);
    await built.startRankThread(archive.db, 1);
    const shared = QUERIES.map((q) => [ranked(q), ranked(q, true)]);
    expect(shared).toEqual(alone);
    // A ranking a search, but `received`'s typo fill ranks twice more in each mode: the
    // messages its exact phase showed (to leave them out), then the fill.
    expect(built.rankThreadUse(archive.db)).toEqual({ shared: QUERIES.length * 2 + 4, declined: 0 });
  });

  it('gives its part back when its snapshot differs from the caller’s', async () => {
    await built.startRankThread(archive.db, 1);
    const before = ranked('invoice');
    const deleted = before[0]?.split(' ')[0] as string;
    // The caller's read transaction starts before another connection deletes a hit; the
    // thread, reading after, sees a tombstone the caller does not.
    archive.db.exec('BEGIN');
    archive.db.prepare('SELECT count(*) FROM keyword_segments').get();
    const writer = openWriter(archive);
    writer.deleteMessage(deleted);
    writer.close();
    const declined = built.rankThreadUse(archive.db)?.declined ?? 0;
    try {
      expect(ranked('invoice')).toEqual(before);
    } finally {
      archive.db.exec('COMMIT');
    }
    expect(built.rankThreadUse(archive.db)?.declined).toBe(declined + 1);
    expect(ranked('invoice').map((hit) => hit.split(' ')[0])).not.toContain(deleted);
  });
});

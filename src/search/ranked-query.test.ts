import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLanguage, parseQuery } from '../analysis/index.js';
import { indexedLanguages } from '../index/index.js';
import { exactMatch, type Match } from './match.js';
import { type RankContext, rankMessages, rankThreads, topMessages, topThreads } from './ranked-query.js';
import { rankContext as context, FIXTURES, openTestArchive, type TestArchive } from './test-helpers.js';

let archive: TestArchive;
beforeAll(async () => {
  archive = await openTestArchive();
  // Mailing-list mail, whose bm25 counts half: the best rows of each kind are kept apart.
  await archive.engine.ingest([`${FIXTURES}-ranking`], { inbox: 'work', workers: 0 });
});
afterAll(() => archive.close());

/** The query on the postings index, or (`fts`) on FTS5's bm25. */
let engine: 'postings' | 'fts' = 'postings';
const match = (q: string): Match => {
  const planned = exactMatch(parseQuery(q, { languages: indexedLanguages(archive.db).filter(isLanguage) }));
  return engine === 'fts' ? { ...planned, groups: null } : planned;
};

// The fixtures are dated 2024. The contexts rank them from now (every message old), from
// early 2025 with a short half-life (recency reorders near ties), without recency (ties
// break on date and rowid), and with a century-long half-life (every message boosted).
const contexts: Array<[string, Partial<RankContext>]> = [
  ['stale archive', {}],
  ['recent mail', { origin: Date.UTC(2025, 0, 15), halfLifeDays: 2, maxBoost: 1.02 }],
  ['ties, no recency', { maxBoost: 1 }],
  ['every message boosted', { origin: Date.UTC(2025, 0, 1), halfLifeDays: 36_500, maxBoost: 2 }],
];

const key = (row: { rowid: number; score: number; thread?: string }) => [row.rowid, row.score, row.thread];

describe.each(['postings', 'fts'] as const)('top-k ranking (%s)', (scorer) => {
  beforeAll(() => {
    engine = scorer;
  });

  it.each(contexts)('returns exactly the head of the full message ranking (%s)', (_, overrides) => {
    const ctx = context(overrides);
    for (const q of ['maria', 'to', 'the', 'kestrel', 're', 'com', 'budget', 'q3']) {
      const full = rankMessages(archive.db, ctx, match(q), null, 1000);
      expect(full.length).toBeGreaterThan(0);
      for (let need = 1; need <= full.length + 1; need++) {
        const top = topMessages(archive.db, ctx, match(q), need);
        expect(top.rows.map(key)).toEqual(full.slice(0, need).map(key));
        expect(top.more).toBe(full.length > need);
      }
    }
  });

  it.each(contexts)('returns exactly the head of the full thread ranking (%s)', (_, overrides) => {
    const ctx = context(overrides);
    for (const q of ['maria', 'to', 'com', 'budget']) {
      const full = rankThreads(archive.db, ctx, match(q), null, 1000);
      for (let need = 1; need <= full.length + 1; need++) {
        const top = topThreads(archive.db, ctx, match(q), need);
        expect(top.rows.map((r) => [r.thread, r.score])).toEqual(
          full.slice(0, need).map((r) => [r.thread, r.score]),
        );
        expect(top.more).toBe(full.length > need);
      }
    }
  });

  it('leaves out what the context filters, on every plan', () => {
    const dates = archive.db.prepare('SELECT date FROM keyword_docs ORDER BY date').pluck().all() as number[];
    const middle = dates[Math.floor(dates.length / 2)] as number;
    for (const [, overrides] of contexts) {
      const ctx = context({ ...overrides, after: middle });
      const full = rankMessages(archive.db, ctx, match('maria'), null, 50);
      expect(full.length).toBeGreaterThan(3);
      expect(full.every((row) => row.date >= middle)).toBe(true);
      for (let need = 1; need <= full.length; need++)
        expect(topMessages(archive.db, ctx, match('maria'), need).rows.map(key)).toEqual(
          full.slice(0, need).map(key),
        );
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COLUMNS,
  type Column,
  EXACT_TEXT_COLUMNS,
  IDENTIFIER_COLUMNS,
  openPostings,
  reindex,
  type Segment,
} from '../index/index.js';
import type { Match, PostingsPhrase } from './match.js';
import { maskCount, type PhraseSource, phraseSource } from './phrase-hits.js';
import { rankMessages } from './ranked-query.js';
import { FIXTURES, openTestArchive, rankContext, type TestArchive } from './test-helpers.js';
import { COLUMN_WEIGHTS } from './weights.js';

let archive: TestArchive;
let segment: Segment;
beforeAll(async () => {
  archive = await openTestArchive([]);
  await archive.engine.ingest([`${FIXTURES}-phrases`], { inbox: 'work', workers: 0 });
  reindex(archive.db);
  const [only] = openPostings(archive.db).segments;
  if (!only) throw new Error('no postings segment');
  segment = only;
});
afterAll(() => archive.close());

const weights = COLUMNS.map((c) => COLUMN_WEIGHTS[c]);

/** The phrase ranked on postings and on FTS5, which must agree. */
function bothWays(phrase: PostingsPhrase) {
  const expression = `{${phrase.columns.join(' ')}} : ("${phrase.term}"${phrase.prefix ? '*' : ''})`;
  const rank = (match: Match) => rankMessages(archive.db, rankContext({}), match, null, 100);
  return { mine: rank({ expression, groups: [[phrase]] }), theirs: rank({ expression, groups: null }) };
}

function expectSameRanking(phrase: PostingsPhrase): void {
  const { mine, theirs } = bothWays(phrase);
  expect(mine.length, phrase.term).toBeGreaterThan(0);
  expect(mine.map((r) => r.rowid)).toEqual(theirs.map((r) => r.rowid));
  mine.forEach((row, i) => {
    const score = theirs[i]?.score ?? 0;
    expect(Math.abs(row.score - score)).toBeLessThanOrEqual(1e-12 * score);
  });
}

const phrase = (term: string, prefix: boolean, columns: readonly Column[]): PostingsPhrase => ({
  term,
  prefix,
  columns,
});

/** A source's weighted frequencies, decoded or not. */
const hitsOf = (source: PhraseSource): number[] => ('hits' in source ? Array.from(source.hits.freqs) : []);

describe('phrase hits', () => {
  it('adds up a prefix over all its expansions in a document, as FTS5 does', () => {
    // One message holds traders, trade, tradesmen and trader in its own words; the reply's
    // "trade lane" and "Traders" add a second document.
    const trade = phrase('trade', true, EXACT_TEXT_COLUMNS);
    expectSameRanking(trade);
    const source = phraseSource(archive.db, segment, trade, weights);
    expect(hitsOf(source)).toContain(4 * COLUMN_WEIGHTS.text_authored);
    // Expansions may share documents: their count needs the postings, not the mask counts.
    expect(maskCount(archive.db, segment, trade, weights)).toBeNull();
  });

  it('reads a one-term phrase from its blob, its matches counted from the mask counts', () => {
    for (const columns of [EXACT_TEXT_COLUMNS, IDENTIFIER_COLUMNS])
      expectSameRanking(phrase('pallet', false, columns));
    // Both messages say "pallet" in their text; only one has it in its subject.
    const text = phraseSource(archive.db, segment, phrase('pallet', false, EXACT_TEXT_COLUMNS), weights);
    expect('postings' in text && text.matches).toBe(2);
    expect(maskCount(archive.db, segment, phrase('pallet', false, EXACT_TEXT_COLUMNS), weights)).toBe(2);
    expect(maskCount(archive.db, segment, phrase('pallet', false, IDENTIFIER_COLUMNS), weights)).toBe(1);
    // A term no document holds: no row, no match.
    expect(maskCount(archive.db, segment, phrase('forklift', false, EXACT_TEXT_COLUMNS), weights)).toBe(0);
    expect(
      hitsOf(phraseSource(archive.db, segment, phrase('forklift', false, EXACT_TEXT_COLUMNS), weights)),
    ).toEqual([]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLUMNS, EXACT_TEXT_COLUMNS, IDENTIFIER_COLUMNS, openPostings, reindex } from '../index/index.js';
import type { Match, PostingsPhrase } from './match.js';
import { phraseHits } from './phrase-hits.js';
import { rankMessages } from './ranked-query.js';
import { FIXTURES, openTestArchive, rankContext, type TestArchive } from './test-helpers.js';
import { COLUMN_WEIGHTS } from './weights.js';

let archive: TestArchive;
beforeAll(async () => {
  archive = await openTestArchive([]);
  await archive.engine.ingest([`${FIXTURES}-phrases`], { inbox: 'work', workers: 0 });
  reindex(archive.db);
});
afterAll(() => archive.close());

const quote = (term: string): string => `"${term}"`;

/** The phrase ranked on postings and on FTS5, which must agree. */
function bothWays(phrase: PostingsPhrase) {
  const terms = phrase.terms.map(quote).join(' + ');
  const expression = `{${phrase.columns.join(' ')}} : (${terms}${phrase.prefix ? '*' : ''})`;
  const rank = (match: Match) => rankMessages(archive.db, rankContext({}), match, null, 100);
  return { mine: rank({ expression, groups: [[phrase]] }), theirs: rank({ expression, groups: null }) };
}

describe('phrase hits', () => {
  it('counts a phrase ending in a prefix over all its expansions, interleaved in text order', () => {
    // `harbour trade*` occurs as traders, trade, tradesmen and trader, in that order: the
    // expansions' positions arrive term by term and must be merged before adjacency.
    const phrase = { terms: ['harbour', 'trade'], prefix: true, columns: EXACT_TEXT_COLUMNS };
    const { mine, theirs } = bothWays(phrase);
    expect(mine).toHaveLength(1);
    expect(mine.map((r) => r.rowid)).toEqual(theirs.map((r) => r.rowid));
    expect(Math.abs((mine[0]?.score ?? 0) - (theirs[0]?.score ?? 0))).toBeLessThanOrEqual(
      1e-12 * (theirs[0]?.score ?? 0),
    );
    const weights = COLUMNS.map((c) => COLUMN_WEIGHTS[c]);
    const [segment] = openPostings(archive.db).segments;
    if (!segment) throw new Error('no postings segment');
    const hits = phraseHits(archive.db, segment, phrase, weights);
    // Four occurrences, all in the authored text.
    expect(Array.from(hits.freqs)).toEqual([4 * COLUMN_WEIGHTS.text_authored]);
  });

  it('finds whole-word phrases only where the parts are adjacent, in the columns asked for', () => {
    for (const terms of [
      ['le', 'havre'],
      ['the', 'quay'],
      ['quay', 'slot'],
      ['lane', 'manager'],
      ['pallet', 'counts'],
    ]) {
      const { mine, theirs } = bothWays({ terms, prefix: false, columns: EXACT_TEXT_COLUMNS });
      expect(
        mine.map((r) => r.rowid),
        terms.join(' '),
      ).toEqual(theirs.map((r) => r.rowid));
    }
    // A reply holds `pallet counts` in its own words and in the quoted message: one
    // occurrence in each column, weighted by each.
    const weights = COLUMNS.map((c) => COLUMN_WEIGHTS[c]);
    const [segment] = openPostings(archive.db).segments;
    if (!segment) throw new Error('no postings segment');
    const text = phraseHits(
      archive.db,
      segment,
      { terms: ['pallet', 'counts'], prefix: false, columns: EXACT_TEXT_COLUMNS },
      weights,
    );
    expect(Array.from(text.freqs).sort()).toEqual(
      [COLUMN_WEIGHTS.text_authored, COLUMN_WEIGHTS.text_authored + COLUMN_WEIGHTS.text_quoted].sort(),
    );
    // `pallet counts` is in both a subject and a body: the identifier columns hold it in one message.
    const { mine, theirs } = bothWays({
      terms: ['pallet', 'counts'],
      prefix: false,
      columns: IDENTIFIER_COLUMNS,
    });
    expect(mine.map((r) => r.rowid)).toEqual(theirs.map((r) => r.rowid));
  });
});

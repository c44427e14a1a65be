// The matches of one query phrase in one postings segment: the documents whose filtered
// columns hold its term (or a prefix's expansions), with the column-weighted count of its
// occurrences (bm25's term frequency).

import {
  COLUMNS,
  type ColumnWeights,
  countInColumns,
  FAMILIES,
  type Family,
  familyOf,
  liveCount,
  type PrefixHits,
  readMaskCounts,
  readPostingRows,
  type Segment,
  sumExpansions,
} from '../index/index.js';
import type { Db } from '../store/index.js';
import { cachedHits } from './hits-cache.js';
import type { PostingsPhrase } from './match.js';

/**
 * One phrase's matches in one segment: document ordinals and weighted frequencies, in runs
 * of ascending ordinals (a prefix's expansions, one run each): `runs` holds where each
 * starts, then the length.
 */
export type PhraseHits = PrefixHits;

/** A phrase's column filter within its family: which columns match, with what weight. */
interface ColumnFilter extends ColumnWeights {
  readonly family: number;
  /** The filter's columns as a bit mask. */
  readonly mask: number;
}

function columnFilter(phrase: PostingsPhrase, weights: readonly number[]): ColumnFilter {
  const places = phrase.columns.map((column) => familyOf(column) as { family: number; index: number });
  const family = places[0]?.family ?? 0;
  const width = (FAMILIES[family] as Family).columns.length;
  const inFilter = new Uint8Array(width);
  const columnWeights = new Float64Array(width);
  let mask = 0;
  phrase.columns.forEach((column, i) => {
    const index = (places[i] as { index: number }).index;
    columnWeights[index] = weights[COLUMNS.indexOf(column)] as number;
    inFilter[index] = 1;
    mask |= 1 << index;
  });
  return { family, width, inFilter, weights: columnWeights, mask };
}

/**
 * One phrase in one segment as ranking reads it: its matches decoded (a prefix's
 * expansions added up), or the postings blob of its one term with the count of its
 * matches (read from the term's mask counts), to be scored as it is decoded
 * (segment-scores.ts).
 */
export type PhraseSource =
  | { readonly hits: PhraseHits }
  | { readonly postings: Uint8Array; readonly columns: ColumnWeights; readonly matches: number };

/**
 * A phrase's source in a segment: a phrase of one term there is read as its blob, and its
 * matches counted from the term's mask counts (in a segment with tombstones, which those
 * still count, by a pass over the blob); a prefix's several expansions are decoded.
 */
export function phraseSource(
  db: Db,
  segment: Segment,
  phrase: PostingsPhrase,
  weights: readonly number[],
): PhraseSource {
  const filter = columnFilter(phrase, weights);
  const rows = readPostingRows(db, segment.id, filter.family, phrase.term, phrase.prefix);
  const [only] = rows;
  if (only === undefined || rows.length !== 1)
    return {
      hits: cachedHits(segment.table, hitsKey(phrase, weights), () =>
        sumExpansions(
          rows.map((row) => row.postings),
          filter,
          segment.table.length,
        ),
      ),
    };
  const matches =
    segment.dead === null
      ? countInColumns(only.masks, filter.mask)
      : liveCount(only.postings, filter.width, filter.mask, segment.dead);
  return { postings: only.postings, columns: filter, matches };
}

/**
 * A phrase's live matches in a segment from its term's mask counts alone, without reading
 * its postings: null unless the phrase is one row there (a prefix's expansions may share
 * documents: its count then needs them, phraseSource) and the segment has no tombstones.
 */
export function maskCount(
  db: Db,
  segment: Segment,
  phrase: PostingsPhrase,
  weights: readonly number[],
): number | null {
  if (segment.dead !== null) return null;
  const filter = columnFilter(phrase, weights);
  const rows = readMaskCounts(db, segment.id, filter.family, phrase.term, phrase.prefix);
  if (rows.length > 1) return null;
  const [only] = rows;
  return only === undefined ? 0 : countInColumns(only, filter.mask);
}

/** What names a phrase's hits in the hits cache, within a segment. */
const hitsKey = (phrase: PostingsPhrase, weights: readonly number[]) => (): string =>
  [phrase.prefix ? '*' : '', phrase.columns.join(','), weights.join(','), phrase.term].join('\u0000');

// The matches of one query phrase in one postings segment: the documents whose filtered
// columns hold it, with the column-weighted count of its occurrences (bm25's phrase
// frequency). One-term phrases read counts; longer ones count adjacent positions.

import {
  COLUMNS,
  type ColumnWeights,
  countInColumns,
  type DocPositions,
  decodeDocPositions,
  decodePostings,
  decodeWeighted,
  FAMILIES,
  type Family,
  familyOf,
  liveCount,
  type PostingRow,
  type Postings,
  postingsLength,
  readMaskCounts,
  readPostingRows,
  type Segment,
} from '../index/index.js';
import type { Db } from '../store/index.js';
import { cachedHits } from './hits-cache.js';
import type { PostingsPhrase } from './match.js';

/** One phrase's matches in one segment: document ordinals and weighted frequencies. */
export interface PhraseHits {
  readonly ords: Int32Array;
  readonly freqs: Float64Array;
}

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

const NO_HITS: PhraseHits = { ords: new Int32Array(0), freqs: new Float64Array(0) };

/**
 * One phrase in one segment as ranking reads it: its matches decoded, or the postings blob
 * of a one-term phrase with the count of its matches (read from the term's mask counts),
 * to be scored as it is decoded (segment-scores.ts).
 */
export type PhraseSource =
  | { readonly hits: PhraseHits }
  | { readonly postings: Uint8Array; readonly columns: ColumnWeights; readonly matches: number };

/**
 * A phrase's source in a segment: a one-term phrase of one term is read as its blob, and
 * its matches counted from the term's mask counts (in a segment with tombstones, which
 * those still count, by a pass over the blob); any other phrase is decoded (phraseHits).
 */
export function phraseSource(
  db: Db,
  segment: Segment,
  phrase: PostingsPhrase,
  weights: readonly number[],
): PhraseSource {
  if (phrase.terms.length !== 1) return { hits: phraseHits(db, segment, phrase, weights) };
  const filter = columnFilter(phrase, weights);
  const rows = readPostingRows(db, segment.id, filter.family, phrase.terms[0] as string, {
    prefix: phrase.prefix,
    withPositions: false,
  });
  const [only] = rows;
  if (rows.length !== 1 || only?.masks === undefined)
    return { hits: cachedHits(segment.table, hitsKey(phrase, weights), () => decodedHits(rows, filter)) };
  const matches =
    segment.dead === null
      ? countInColumns(only.masks, filter.mask)
      : liveCount(only.postings, filter.width, filter.mask, segment.dead);
  return { postings: only.postings, columns: filter, matches };
}

/**
 * A phrase's live matches in a segment from its term's mask counts alone, without reading
 * its postings: null unless the phrase is one term of one row there (its count then needs
 * its documents: phraseSource) and the segment has no tombstones.
 */
export function maskCount(
  db: Db,
  segment: Segment,
  phrase: PostingsPhrase,
  weights: readonly number[],
): number | null {
  if (phrase.terms.length !== 1 || segment.dead !== null) return null;
  const filter = columnFilter(phrase, weights);
  const rows = readMaskCounts(db, segment.id, filter.family, phrase.terms[0] as string, phrase.prefix);
  if (rows.length > 1) return null;
  const [only] = rows;
  return only === undefined ? 0 : countInColumns(only, filter.mask);
}

/** What names a phrase's hits in the hits cache, within a segment. */
const hitsKey = (phrase: PostingsPhrase, weights: readonly number[]) => (): string =>
  [phrase.prefix ? '*' : '', phrase.columns.join(','), weights.join(','), ...phrase.terms].join('\u0000');

/**
 * The matches of a phrase of several terms in one segment: the documents whose filtered
 * columns hold its terms at adjacent positions, with the weighted count of those
 * occurrences there. (A one-term phrase is read by phraseSource.)
 */
export function phraseHits(
  db: Db,
  segment: Segment,
  phrase: PostingsPhrase,
  weights: readonly number[],
): PhraseHits {
  return cachedHits(segment.table, hitsKey(phrase, weights), () => decodeHits(db, segment, phrase, weights));
}

function decodeHits(
  db: Db,
  segment: Segment,
  phrase: PostingsPhrase,
  weights: readonly number[],
): PhraseHits {
  const filter = columnFilter(phrase, weights);
  const last = phrase.terms.length - 1;
  const rows = phrase.terms.map((term, i) =>
    readPostingRows(db, segment.id, filter.family, term, {
      prefix: phrase.prefix && i === last,
      withPositions: true,
    }),
  );
  // A part absent from the segment: no occurrence, and nothing to decode (text phrases of
  // an address, `kevin lewis acm`, usually end here).
  if (rows.some((part) => part.length === 0)) return NO_HITS;
  return adjacentHits(rows, filter);
}

/** A one-term phrase's hits from its rows (a prefix's expansions added up). */
function decodedHits(rows: readonly PostingRow[], filter: ColumnFilter): PhraseHits {
  return combine(rows.map((row) => decodeWeighted(row.postings, filter)));
}

/** The ordinals any of `lists` holds, ascending, once each (a document can hold two expansions of a prefix). */
function unionOrds(lists: readonly Postings[]): Int32Array {
  if (lists.length === 1) return (lists[0] as Postings).ords;
  let total = 0;
  for (const list of lists) total += list.length;
  const all = new Int32Array(total);
  let n = 0;
  for (const list of lists) {
    all.set(list.ords, n);
    n += list.length;
  }
  all.sort();
  let unique = 0;
  for (let k = 0; k < total; k++)
    if (unique === 0 || all[unique - 1] !== all[k]) all[unique++] = all[k] as number;
  return all.subarray(0, unique);
}

/** Each of `docs`' entry in `list`, -1 where it has none (both ascending). */
function entriesOf(list: Postings, docs: Int32Array): Int32Array {
  const entries = new Int32Array(docs.length);
  let e = 0;
  for (let j = 0; j < docs.length; j++) {
    const ord = docs[j] as number;
    while (e < list.length && (list.ords[e] as number) < ord) e++;
    entries[j] = e < list.length && list.ords[e] === ord ? e : -1;
  }
  return entries;
}

/** ORs into `held[j]` the columns where entry `entries[j]` of `postings` occurs. */
function columnMasks(postings: Postings, entries: Int32Array, held: Int32Array): void {
  for (let j = 0; j < entries.length; j++) {
    const e = entries[j] as number;
    if (e >= 0) held[j] = (held[j] as number) | (postings.masks[e] as number);
  }
}

/** One phrase part over the shared documents: a list per term (a prefix has one per expansion). */
interface Part {
  readonly lists: readonly Postings[];
  /** Per list, shared document j's entry in it, -1 where it has none. */
  readonly entries: readonly Int32Array[];
}

/** The part's occurrences in shared document j, column c. */
function countIn(part: Part, j: number, c: number): number {
  let n = 0;
  for (let l = 0; l < part.lists.length; l++) {
    const e = (part.entries[l] as Int32Array)[j] as number;
    if (e < 0) continue;
    const list = part.lists[l] as Postings;
    n += list.counts[e * list.columns + c] as number;
  }
  return n;
}

/**
 * A part's positions in the shared documents' columns of `masks`: its expansions' merged,
 * column by column, each column ascending (a document may hold two expansions in one).
 */
function partPositions(part: Part, blobs: readonly Uint8Array[], masks: Int32Array): DocPositions {
  const decoded = part.lists.map((list, l) =>
    decodeDocPositions(blobs[l] as Uint8Array, list, part.entries[l] as Int32Array, masks),
  );
  if (decoded.length === 1) return decoded[0] as DocPositions;
  const positions = new Uint32Array(decoded.reduce((sum, d) => sum + d.positions.length, 0));
  const starts = new Int32Array(masks.length + 1);
  const read = decoded.map(() => 0);
  let stored = 0;
  for (let j = 0; j < masks.length; j++) {
    starts[j] = stored;
    decoded.forEach((d, l) => {
      read[l] = d.starts[j] as number;
    });
    for (let rest = masks[j] as number; rest !== 0; rest &= rest - 1) {
      const c = 31 - Math.clz32(rest & -rest);
      const from = stored;
      part.lists.forEach((list, l) => {
        const e = (part.entries[l] as Int32Array)[j] as number;
        if (e < 0) return;
        const source = decoded[l] as DocPositions;
        for (let left = list.counts[e * list.columns + c] as number; left > 0; left--)
          positions[stored++] = source.positions[(read[l] as number)++] as number;
      });
      if (stored - from > 1) positions.subarray(from, stored).sort();
    }
  }
  starts[masks.length] = stored;
  return { positions, starts };
}

/**
 * Occurrences of the phrase in one column of the document in hand, part r's positions
 * there being `from[r]` up to `to[r]` in `parts[r]`: positions p of the first part with part
 * r at p + r. Positions ascend within a column, so each part is walked once.
 */
function adjacentCount(parts: readonly DocPositions[], from: Int32Array, to: Int32Array): number {
  const first = (parts[0] as DocPositions).positions;
  let count = 0;
  for (let i = from[0] as number; i < (to[0] as number); i++) {
    const p = first[i] as number;
    let adjacent = true;
    for (let r = 1; r < parts.length && adjacent; r++) {
      const positions = (parts[r] as DocPositions).positions;
      const end = to[r] as number;
      let at = from[r] as number;
      while (at < end && (positions[at] as number) < p + r) at++;
      from[r] = at;
      adjacent = at < end && positions[at] === p + r;
    }
    if (adjacent) count++;
  }
  return count;
}

/**
 * Phrase occurrences: positions p of the first part with part i at p + i, per filtered
 * column. The documents holding every part are found rarest part first, each next part
 * decoded for those documents only; then each part's positions are decoded in one pass,
 * only in the filtered columns every part occurs in.
 */
function adjacentHits(rows: ReadonlyArray<readonly PostingRow[]>, filter: ColumnFilter): PhraseHits {
  const { width, inFilter, weights } = filter;
  const sizes = rows.map((part) => part.reduce((sum, row) => sum + postingsLength(row.postings), 0));
  const decoded: Postings[][] = new Array(rows.length);
  let docs: Int32Array | null = null;
  for (const i of sizes.map((_, i) => i).sort((a, b) => (sizes[a] as number) - (sizes[b] as number))) {
    const lists = (rows[i] as readonly PostingRow[]).map((row) => decodePostings(row.postings, width, docs));
    decoded[i] = lists;
    docs = unionOrds(lists);
    if (docs.length === 0) return NO_HITS;
  }
  const shared = docs as Int32Array;
  const parts: Part[] = decoded.map((lists) => ({
    lists,
    entries: lists.map((list) => entriesOf(list, shared)),
  }));
  let columns = 0;
  for (let c = 0; c < width; c++) if (inFilter[c] !== 0) columns |= 1 << c;
  // The filtered columns each document holds every part in: the only ones worth positions.
  const masks = new Int32Array(shared.length).fill(columns);
  for (const { lists, entries } of parts) {
    const held = new Int32Array(shared.length);
    lists.forEach((list, l) => {
      columnMasks(list, entries[l] as Int32Array, held);
    });
    for (let j = 0; j < shared.length; j++) masks[j] = (masks[j] as number) & (held[j] as number);
  }
  const positions = parts.map((part, i) =>
    partPositions(
      part,
      (rows[i] as readonly PostingRow[]).map((row) => row.positions as Uint8Array),
      masks,
    ),
  );
  const from = new Int32Array(parts.length);
  const to = new Int32Array(parts.length);
  const ords = new Int32Array(shared.length);
  const freqs = new Float64Array(shared.length);
  let n = 0;
  for (let j = 0; j < shared.length; j++) {
    const mask = masks[j] as number;
    if (mask === 0) continue;
    let f = 0;
    let hit = false;
    // One column (nearly always): each part's positions in the document; else each part's
    // count in each column says where its positions there end.
    const single = (mask & (mask - 1)) === 0;
    for (let r = 0; r < parts.length; r++) to[r] = (positions[r] as DocPositions).starts[j] as number;
    for (let rest = mask; rest !== 0; rest &= rest - 1) {
      const c = 31 - Math.clz32(rest & -rest);
      for (let r = 0; r < parts.length; r++) {
        from[r] = to[r] as number;
        to[r] = single
          ? ((positions[r] as DocPositions).starts[j + 1] as number)
          : (to[r] as number) + countIn(parts[r] as Part, j, c);
      }
      const count = adjacentCount(positions, from, to);
      if (count === 0) continue;
      // A zero weight (explain's one-column passes) still matches.
      hit = true;
      f += (weights[c] as number) * count;
    }
    if (!hit) continue;
    ords[n] = shared[j] as number;
    freqs[n++] = f;
  }
  return { ords: ords.subarray(0, n), freqs: freqs.subarray(0, n) };
}

/** Two ordinal-sorted hit lists as one, adding the frequencies of a document in both. */
function mergeHits(a: PhraseHits, b: PhraseHits): PhraseHits {
  const ords = new Int32Array(a.ords.length + b.ords.length);
  const freqs = new Float64Array(ords.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.ords.length || j < b.ords.length) {
    const x = i < a.ords.length ? (a.ords[i] as number) : Number.MAX_SAFE_INTEGER;
    const y = j < b.ords.length ? (b.ords[j] as number) : Number.MAX_SAFE_INTEGER;
    ords[n] = Math.min(x, y);
    // Weights are binary fractions and counts integers: these sums are exact in any order.
    freqs[n++] = (x <= y ? (a.freqs[i++] as number) : 0) + (y <= x ? (b.freqs[j++] as number) : 0);
  }
  return { ords: ords.subarray(0, n), freqs: freqs.subarray(0, n) };
}

/**
 * A prefix's expansions' hits (each sorted by ordinal) as one list: the two shortest are
 * merged until one is left, so a prefix with one common expansion and a few rare ones
 * costs about one pass over the common one.
 */
function combine(lists: readonly PhraseHits[]): PhraseHits {
  const queue = [...lists];
  while (queue.length > 1) {
    queue.sort((x, y) => x.ords.length - y.ords.length);
    const [a, b] = queue.splice(0, 2) as [PhraseHits, PhraseHits];
    queue.push(mergeHits(a, b));
  }
  return queue[0] ?? NO_HITS;
}

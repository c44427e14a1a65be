// The matches of one query phrase in one postings segment: the documents whose filtered
// columns hold it, with the column-weighted count of its occurrences (bm25's phrase
// frequency). One-term phrases read counts; longer ones count adjacent positions.

import {
  COLUMNS,
  type ColumnWeights,
  countInColumns,
  decodePostings,
  decodeWeighted,
  FAMILIES,
  type Family,
  familyOf,
  liveCount,
  type PositionsReader,
  type PostingRow,
  type Postings,
  positionsReader,
  postingsLength,
  readMaskCounts,
  readPositions,
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

/** One term list of a phrase part (a prefix has one per expansion) over the shared documents. */
interface PartList {
  readonly reader: PositionsReader;
  /** Shared document j's entry in the list, -1 where it has none. */
  readonly entries: Int32Array;
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

/**
 * One phrase part over the shared documents; `read` leaves a document's positions column
 * after column: column c's from `start[c]` to `end[c]` in `positions`, ascending
 * (expansions of a prefix interleaved).
 */
class PartPositions {
  positions = new Uint32Array(64);
  readonly start: Int32Array;
  readonly end: Int32Array;

  constructor(
    readonly lists: readonly PartList[],
    readonly width: number,
  ) {
    this.start = new Int32Array(width);
    this.end = new Int32Array(width);
  }

  /** Clears in `masks[j]` the columns where shared document j lacks this part. */
  narrow(masks: Int32Array): void {
    const held = new Int32Array(masks.length);
    for (const { reader, entries } of this.lists) columnMasks(reader.postings, entries, held);
    for (let j = 0; j < masks.length; j++) masks[j] = (masks[j] as number) & (held[j] as number);
  }

  /** Decodes shared document j's positions in the columns of `mask`. */
  read(j: number, mask: number): void {
    const { width, lists, start, end } = this;
    let total = 0;
    for (let c = 0; c < width; c++) {
      start[c] = total;
      end[c] = total;
      if (((mask >>> c) & 1) === 0) continue;
      for (const { reader, entries } of lists) {
        const e = entries[j] as number;
        if (e >= 0) total += reader.postings.counts[e * width + c] as number;
      }
    }
    if (this.positions.length < total)
      this.positions = new Uint32Array(Math.max(total, this.positions.length * 2));
    for (const { reader, entries } of lists) {
      const e = entries[j] as number;
      if (e >= 0) readPositions(reader, e, mask, this.positions, end);
    }
    if (lists.length > 1)
      for (let c = 0; c < width; c++)
        if ((end[c] as number) - (start[c] as number) > 1) this.positions.subarray(start[c], end[c]).sort();
  }
}

/** ORs into `held[j]` the columns where entry `entries[j]` of `postings` occurs. */
function columnMasks(postings: Postings, entries: Int32Array, held: Int32Array): void {
  for (let j = 0; j < entries.length; j++) {
    const e = entries[j] as number;
    if (e >= 0) held[j] = (held[j] as number) | (postings.masks[e] as number);
  }
}

/**
 * Occurrences of the phrase in column c of the document in hand: positions p of the first
 * part with part r at p + r. Positions ascend within a column, so each part is walked once.
 */
function adjacentCount(parts: readonly PartPositions[], c: number, cursors: Int32Array): number {
  for (let r = 1; r < parts.length; r++) cursors[r] = (parts[r] as PartPositions).start[c] as number;
  const first = parts[0] as PartPositions;
  let count = 0;
  for (let i = first.start[c] as number; i < (first.end[c] as number); i++) {
    const p = first.positions[i] as number;
    let adjacent = true;
    for (let r = 1; r < parts.length && adjacent; r++) {
      const part = parts[r] as PartPositions;
      const end = part.end[c] as number;
      let at = cursors[r] as number;
      while (at < end && (part.positions[at] as number) < p + r) at++;
      cursors[r] = at;
      adjacent = at < end && part.positions[at] === p + r;
    }
    if (adjacent) count++;
  }
  return count;
}

/**
 * Phrase occurrences: positions p of the first part with part i at p + i, per filtered
 * column. The documents holding every part are found rarest part first, each next part
 * decoded for those documents only; then, document by document, positions are decoded
 * only in the filtered columns every part occurs in, into a buffer per part.
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
  const parts = decoded.map((lists, i) => {
    const blobs = (rows[i] as readonly PostingRow[]).map((row) => row.positions as Uint8Array);
    const partLists = lists.map((list, l) => ({
      reader: positionsReader(blobs[l] as Uint8Array, list),
      entries: entriesOf(list, shared),
    }));
    return new PartPositions(partLists, width);
  });
  let columns = 0;
  for (let c = 0; c < width; c++) if (inFilter[c] !== 0) columns |= 1 << c;
  // The filtered columns each document holds every part in: the only ones worth positions.
  const masks = new Int32Array(shared.length).fill(columns);
  for (const part of parts) part.narrow(masks);
  const cursors = new Int32Array(parts.length);
  const ords = new Int32Array(shared.length);
  const freqs = new Float64Array(shared.length);
  let n = 0;
  for (let j = 0; j < shared.length; j++) {
    const mask = masks[j] as number;
    if (mask === 0) continue;
    for (const part of parts) part.read(j, mask);
    let f = 0;
    let hit = false;
    for (let c = 0; c < width; c++) {
      if (((mask >>> c) & 1) === 0) continue;
      const count = adjacentCount(parts, c, cursors);
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

// The matches of one query phrase in one postings segment: the documents whose filtered
// columns hold it, with the column-weighted count of its occurrences (bm25's phrase
// frequency). One-term phrases read counts; longer ones count adjacent positions.

import {
  COLUMNS,
  decodePositions,
  decodePostings,
  decodeWeighted,
  FAMILIES,
  type Family,
  familyOf,
  type Positions,
  type PostingRow,
  type Postings,
  postingsLength,
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
interface ColumnFilter {
  readonly family: number;
  readonly width: number;
  readonly inFilter: Uint8Array;
  readonly weights: Float64Array;
}

function columnFilter(phrase: PostingsPhrase, weights: readonly number[]): ColumnFilter {
  const places = phrase.columns.map((column) => familyOf(column) as { family: number; index: number });
  const family = places[0]?.family ?? 0;
  const width = (FAMILIES[family] as Family).columns.length;
  const filter = { family, width, inFilter: new Uint8Array(width), weights: new Float64Array(width) };
  phrase.columns.forEach((column, i) => {
    const index = (places[i] as { index: number }).index;
    filter.weights[index] = weights[COLUMNS.indexOf(column)] as number;
    filter.inFilter[index] = 1;
  });
  return filter;
}

const NO_HITS: PhraseHits = { ords: new Int32Array(0), freqs: new Float64Array(0) };

/**
 * The matches of one phrase in one segment: the documents whose filtered columns hold
 * it, with the weighted count of its occurrences there. A one-term phrase reads counts
 * (a prefix adds up every term starting with it); a longer one counts adjacent positions.
 */
export function phraseHits(
  db: Db,
  segment: Segment,
  phrase: PostingsPhrase,
  weights: readonly number[],
): PhraseHits {
  return cachedHits(
    segment.table,
    () =>
      [phrase.prefix ? '*' : '', phrase.columns.join(','), weights.join(','), ...phrase.terms].join('\u0000'),
    () => decodeHits(db, segment, phrase, weights),
  );
}

function decodeHits(
  db: Db,
  segment: Segment,
  phrase: PostingsPhrase,
  weights: readonly number[],
): PhraseHits {
  const filter = columnFilter(phrase, weights);
  const last = phrase.terms.length - 1;
  if (last === 0) {
    const rows = readPostingRows(db, segment.id, filter.family, phrase.terms[0] as string, {
      prefix: phrase.prefix,
      withPositions: false,
    });
    return countHits(
      rows.map((row) => row.postings),
      filter,
    );
  }
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

function countHits(blobs: readonly Uint8Array[], filter: ColumnFilter): PhraseHits {
  return combine(blobs.map((blob) => decodeWeighted(blob, filter.width, filter.inFilter, filter.weights)));
}

/** A phrase part over the documents every part holds: shared document j is entry `entry[j]` (j when null). */
interface Part {
  readonly list: Postings;
  readonly where: Positions;
  readonly entry: Int32Array | null;
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
  const entries = new Int32Array(docs.length).fill(-1);
  let e = 0;
  for (let j = 0; j < docs.length; j++) {
    const ord = docs[j] as number;
    while (e < list.length && (list.ords[e] as number) < ord) e++;
    if (list.ords[e] === ord) entries[j] = e;
  }
  return entries;
}

/** Positions of the entries `entries` names, skipping the rest of the list's. */
function positionsOf(list: Postings, blob: Uint8Array, entries: Int32Array): Positions {
  if (list.length === entries.length) return decodePositions(blob, list, null);
  const chosen = new Uint8Array(list.length);
  for (const e of entries) if (e >= 0) chosen[e] = 1;
  return decodePositions(blob, list, chosen);
}

/**
 * One part over `docs` (which its lists hold between them). One list is read in place;
 * the expansions of a prefix become one list, their counts added and their positions
 * interleaved per column.
 */
function partOver(lists: readonly Postings[], blobs: readonly Uint8Array[], docs: Int32Array): Part {
  const entries = lists.map((list) => entriesOf(list, docs));
  const where = lists.map((list, l) => positionsOf(list, blobs[l] as Uint8Array, entries[l] as Int32Array));
  if (lists.length === 1) {
    const list = lists[0] as Postings;
    return {
      list,
      where: where[0] as Positions,
      entry: list.length === docs.length ? null : (entries[0] as Int32Array),
    };
  }
  const width = (lists[0] as Postings).columns;
  const counts = new Uint32Array(docs.length * width);
  let total = 0;
  lists.forEach((list, l) => {
    const own = entries[l] as Int32Array;
    for (let j = 0; j < docs.length; j++) {
      const e = own[j] as number;
      if (e < 0) continue;
      for (let c = 0; c < width; c++) {
        const n = list.counts[e * width + c] as number;
        counts[j * width + c] = (counts[j * width + c] as number) + n;
        total += n;
      }
    }
  });
  const positions = new Uint32Array(total);
  const starts = new Int32Array(docs.length);
  let at = 0;
  for (let j = 0; j < docs.length; j++) {
    starts[j] = at;
    for (let c = 0; c < width; c++) {
      const begin = at;
      lists.forEach((list, l) => {
        const e = (entries[l] as Int32Array)[j] as number;
        if (e < 0) return;
        const own = (where[l] as Positions).positions;
        const from = columnStart(list, where[l] as Positions, e, c);
        for (let i = from; i < from + (list.counts[e * width + c] as number); i++)
          positions[at++] = own[i] as number;
      });
      if (at - begin > 1) positions.subarray(begin, at).sort();
    }
  }
  return {
    list: { length: docs.length, ords: docs, counts, columns: width, skips: null },
    where: { positions, starts },
    entry: null,
  };
}

/** Where entry e's positions in column c start. */
function columnStart(list: Postings, where: Positions, e: number, c: number): number {
  let start = where.starts[e] as number;
  for (let before = 0; before < c; before++) start += list.counts[e * list.columns + before] as number;
  return start;
}

/**
 * Occurrences of the phrase in column c of shared document j: positions p of the first
 * part with part r at p + r. Positions ascend within a column, so each part is walked once.
 */
function adjacentCount(
  parts: readonly Part[],
  j: number,
  c: number,
  cursors: Int32Array,
  ends: Int32Array,
): number {
  for (let r = 0; r < parts.length; r++) {
    const { list, where, entry } = parts[r] as Part;
    const e = entry ? (entry[j] as number) : j;
    const n = list.counts[e * list.columns + c] as number;
    if (n === 0) return 0;
    cursors[r] = columnStart(list, where, e, c);
    ends[r] = (cursors[r] as number) + n;
  }
  const first = (parts[0] as Part).where.positions;
  let count = 0;
  for (let i = cursors[0] as number; i < (ends[0] as number); i++) {
    const p = first[i] as number;
    let adjacent = true;
    for (let r = 1; r < parts.length && adjacent; r++) {
      const positions = (parts[r] as Part).where.positions;
      let at = cursors[r] as number;
      while (at < (ends[r] as number) && (positions[at] as number) < p + r) at++;
      cursors[r] = at;
      adjacent = at < (ends[r] as number) && positions[at] === p + r;
    }
    if (adjacent) count++;
  }
  return count;
}

/**
 * Phrase occurrences: positions p of the first part with part i at p + i, per filtered
 * column. The documents holding every part are found rarest part first, each next part
 * decoded for those documents only; positions are decoded for the survivors alone.
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
  const parts = decoded.map((lists, i) =>
    partOver(
      lists,
      (rows[i] as readonly PostingRow[]).map((row) => row.positions as Uint8Array),
      shared,
    ),
  );
  const cursors = new Int32Array(parts.length);
  const ends = new Int32Array(parts.length);
  const ords = new Int32Array(shared.length);
  const freqs = new Float64Array(shared.length);
  let n = 0;
  for (let j = 0; j < shared.length; j++) {
    let f = 0;
    let hit = false;
    for (let c = 0; c < width; c++) {
      if (inFilter[c] === 0) continue;
      const count = adjacentCount(parts, j, c, cursors, ends);
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

// The matches of one query phrase in one postings segment: the documents whose filtered
// columns hold it, with the column-weighted count of its occurrences (bm25's phrase
// frequency). One-term phrases read counts; longer ones count adjacent positions.

import {
  COLUMNS,
  decodePostingRows,
  decodeWeighted,
  FAMILIES,
  type Family,
  familyOf,
  type Positions,
  readPostingRows,
  type Segment,
  type TermPostings,
} from '../index/index.js';
import type { Db } from '../store/index.js';
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
  return adjacentHits(
    rows.map((part) => decodePostingRows(part, filter.family)),
    filter,
  );
}

function countHits(blobs: readonly Uint8Array[], filter: ColumnFilter): PhraseHits {
  const lists = blobs.map((blob) => decodeWeighted(blob, filter.width, filter.inFilter, filter.weights));
  if (lists.length === 1) return lists[0] as PhraseHits;
  let total = 0;
  for (const list of lists) total += list.ords.length;
  const ords = new Int32Array(total);
  const freqs = new Float64Array(total);
  let n = 0;
  for (const list of lists) {
    ords.set(list.ords, n);
    freqs.set(list.freqs, n);
    n += list.ords.length;
  }
  return combine(ords, freqs);
}

/** A phrase part's entries in ordinal order, over all its lists (several for a prefix). */
interface PartEntries {
  readonly length: number;
  readonly ords: Int32Array;
  readonly lists: readonly TermPostings[];
  /** Entry k is entry `entries[k]` of list `listOf[k]`. */
  readonly listOf: Int32Array;
  readonly entries: Int32Array;
}

function partEntries(lists: readonly TermPostings[]): PartEntries {
  let total = 0;
  for (const list of lists) total += list.length;
  const ords = new Int32Array(total);
  const listOf = new Int32Array(total);
  const entries = new Int32Array(total);
  let n = 0;
  lists.forEach((list, l) => {
    for (let i = 0; i < list.length; i++) {
      ords[n] = list.ords[i] as number;
      listOf[n] = l;
      entries[n++] = i;
    }
  });
  if (lists.length < 2) return { length: n, ords, lists, listOf, entries };
  const order = orderByOrd(ords);
  return {
    length: n,
    ords: Int32Array.from(order, (k) => ords[k] as number),
    lists,
    listOf: Int32Array.from(order, (k) => listOf[k] as number),
    entries: Int32Array.from(order, (k) => entries[k] as number),
  };
}

/**
 * Walks the documents every part holds, in ordinal order: `visit` gets the first part's
 * entry and, per other part, the range of its entries for that document.
 */
function eachSharedDocument(
  parts: readonly PartEntries[],
  visit: (ord: number, first: number, ranges: Int32Array) => void,
): void {
  const [first, ...rest] = parts;
  if (!first) return;
  const at = new Int32Array(rest.length);
  const ranges = new Int32Array(rest.length * 2);
  for (let k = 0; k < first.length; k++) {
    const ord = first.ords[k] as number;
    let shared = true;
    for (let r = 0; r < rest.length && shared; r++) {
      const part = rest[r] as PartEntries;
      let i = at[r] as number;
      while (i < part.length && (part.ords[i] as number) < ord) i++;
      at[r] = i;
      let end = i;
      while (end < part.length && part.ords[end] === ord) end++;
      shared = end > i;
      ranges[2 * r] = i;
      ranges[2 * r + 1] = end;
    }
    if (shared) visit(ord, k, ranges);
  }
}

/** Part entry k has a token at `position` in column c. */
function hasPosition(part: PartEntries, k: number, c: number, position: number): boolean {
  const list = part.lists[part.listOf[k] as number] as TermPostings;
  const where = list.where as Positions;
  const slot = (part.entries[k] as number) * list.columns + c;
  const start = where.offsets[slot] as number;
  const end = start + (list.counts[slot] as number);
  for (let i = start; i < end; i++) if (where.positions[i] === position) return true;
  return false;
}

/** Phrase occurrences: positions p of the first part with part i at p + i, per filtered column. */
function adjacentHits(lists: ReadonlyArray<readonly TermPostings[]>, filter: ColumnFilter): PhraseHits {
  const { width, inFilter, weights } = filter;
  const parts = lists.map(partEntries);
  const [first, ...rest] = parts as [PartEntries, ...PartEntries[]];
  const ords: number[] = [];
  const freqs: number[] = [];
  eachSharedDocument(parts, (ord, k, ranges) => {
    const list = first.lists[first.listOf[k] as number] as TermPostings;
    const where = list.where as Positions;
    const entry = first.entries[k] as number;
    let f = 0;
    let hit = false;
    for (let c = 0; c < width; c++) {
      if (inFilter[c] === 0) continue;
      const slot = entry * list.columns + c;
      const start = where.offsets[slot] as number;
      const end = start + (list.counts[slot] as number);
      let count = 0;
      for (let i = start; i < end; i++) {
        const p = where.positions[i] as number;
        let adjacent = true;
        for (let r = 0; r < rest.length && adjacent; r++) {
          adjacent = false;
          for (let e = ranges[2 * r] as number; e < (ranges[2 * r + 1] as number) && !adjacent; e++)
            adjacent = hasPosition(rest[r] as PartEntries, e, c, p + r + 1);
        }
        if (adjacent) count++;
      }
      if (count === 0) continue;
      hit = true;
      f += (weights[c] as number) * count;
    }
    if (!hit) return;
    ords.push(ord);
    freqs.push(f);
  });
  return { ords: Int32Array.from(ords), freqs: Float64Array.from(freqs) };
}

/** Positions 0..n-1 ordered by `ords` (stable): a native numeric sort of ord·2^20 + index when it fits. */
function orderByOrd(ords: Int32Array): Int32Array {
  const n = ords.length;
  if (n >= INDEX_SPAN)
    return Int32Array.from(Array.from(ords.keys()).sort((a, b) => (ords[a] as number) - (ords[b] as number)));
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) keys[i] = (ords[i] as number) * INDEX_SPAN + i;
  keys.sort();
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = (keys[i] as number) % INDEX_SPAN;
  return order;
}

const INDEX_SPAN = 2 ** 20;

/** Sorts prefix expansions' hits by ordinal, adding the frequencies of one document. */
function combine(ords: Int32Array, freqs: Float64Array): PhraseHits {
  const order = orderByOrd(ords);
  const outOrds = new Int32Array(order.length);
  const outFreqs = new Float64Array(order.length);
  let n = -1;
  for (const i of order) {
    const ord = ords[i] as number;
    if (n >= 0 && outOrds[n] === ord) outFreqs[n] = (outFreqs[n] as number) + (freqs[i] as number);
    else {
      outOrds[++n] = ord;
      outFreqs[n] = freqs[i] as number;
    }
  }
  return { ords: outOrds.subarray(0, n + 1), freqs: outFreqs.subarray(0, n + 1) };
}

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
  return adjacentHits(rows, filter);
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
  readonly lists: readonly Postings[];
  /** Entry k is entry `entries[k]` of list `listOf[k]`. */
  readonly listOf: Int32Array;
  readonly entries: Int32Array;
}

function partEntries(lists: readonly Postings[]): PartEntries {
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

/** A part's ordinals without repeats (a document holding two expansions of a prefix appears twice). */
function uniqueOrds(part: PartEntries): Int32Array {
  const out = new Int32Array(part.length);
  let n = 0;
  for (let k = 0; k < part.length; k++) {
    const ord = part.ords[k] as number;
    if (n === 0 || out[n - 1] !== ord) out[n++] = ord;
  }
  return out.subarray(0, n);
}

/**
 * A part's occurrences in each shared document, flattened: document j's entries are
 * [from[j], to[j]); entry x's positions in column c are `count[x·width + c]` values
 * of `positions` from `start[x·width + c]`.
 */
interface PartSpans {
  readonly from: Int32Array;
  readonly to: Int32Array;
  readonly start: Int32Array;
  readonly count: Uint32Array;
  readonly positions: Uint32Array;
}

function partSpans(part: PartEntries, docs: Int32Array, blobs: readonly Uint8Array[]): PartSpans {
  const { ords, listOf, entries, lists } = part;
  const from = new Int32Array(docs.length);
  const to = new Int32Array(docs.length);
  const chosen = lists.map((list) => new Uint8Array(list.length));
  const picked = new Int32Array(part.length);
  let m = 0;
  let k = 0;
  for (let j = 0; j < docs.length; j++) {
    const ord = docs[j] as number;
    while ((ords[k] as number) < ord) k++;
    from[j] = m;
    for (; k < part.length && ords[k] === ord; k++) {
      (chosen[listOf[k] as number] as Uint8Array)[entries[k] as number] = 1;
      picked[m++] = k;
    }
    to[j] = m;
  }
  // Every entry chosen (a phrase found in most documents): nothing to skip.
  const where = lists.map((list, l) =>
    decodePositions(blobs[l] as Uint8Array, list, m === part.length ? null : (chosen[l] as Uint8Array)),
  );
  // One list (no prefix expansions) is the common case: its positions are used in place.
  const base = new Int32Array(where.length);
  for (let l = 1; l < where.length; l++)
    base[l] = (base[l - 1] as number) + (where[l - 1] as Positions).positions.length;
  let positions = (where[0] as Positions).positions;
  if (where.length > 1) {
    positions = new Uint32Array((base.at(-1) as number) + (where.at(-1) as Positions).positions.length);
    where.forEach((w, l) => positions.set(w.positions, base[l] as number));
  }
  const width = lists[0]?.columns ?? 0;
  const start = new Int32Array(m * width);
  const count = new Uint32Array(m * width);
  for (let x = 0; x < m; x++) {
    const k = picked[x] as number;
    const l = listOf[k] as number;
    const entry = entries[k] as number;
    const counts = (lists[l] as Postings).counts;
    let at = ((where[l] as Positions).starts[entry] as number) + (base[l] as number);
    for (let c = 0; c < width; c++) {
      const n = counts[entry * width + c] as number;
      start[x * width + c] = at;
      count[x * width + c] = n;
      at += n;
    }
  }
  return { from, to, start, count, positions };
}

/** Part entries of document j hold a token at `position` in column c. */
function holds(part: PartSpans, j: number, width: number, c: number, position: number): boolean {
  for (let x = part.from[j] as number; x < (part.to[j] as number); x++) {
    const start = part.start[x * width + c] as number;
    const end = start + (part.count[x * width + c] as number);
    for (let i = start; i < end; i++) if (part.positions[i] === position) return true;
  }
  return false;
}

/**
 * Phrase occurrences: positions p of the first part with part i at p + i, per filtered
 * column. The documents holding every part are found rarest part first, each next part
 * decoded for those documents only; positions are decoded for the survivors alone.
 */
function adjacentHits(rows: ReadonlyArray<readonly PostingRow[]>, filter: ColumnFilter): PhraseHits {
  const { width, inFilter, weights } = filter;
  const sizes = rows.map((part) => part.reduce((sum, row) => sum + postingsLength(row.postings), 0));
  const decoded: PartEntries[] = new Array(rows.length);
  let docs: Int32Array | null = null;
  for (const i of sizes.map((_, i) => i).sort((a, b) => (sizes[a] as number) - (sizes[b] as number))) {
    const part = partEntries(
      (rows[i] as readonly PostingRow[]).map((row) => decodePostings(row.postings, width, docs)),
    );
    decoded[i] = part;
    docs = uniqueOrds(part);
    if (docs.length === 0) return NO_HITS;
  }
  const shared = docs as Int32Array;
  const spans = decoded.map((part, i) =>
    partSpans(
      part,
      shared,
      (rows[i] as readonly PostingRow[]).map((row) => row.positions as Uint8Array),
    ),
  );
  const [first, ...rest] = spans as [PartSpans, ...PartSpans[]];
  const ords = new Int32Array(shared.length);
  const freqs = new Float64Array(shared.length);
  let n = 0;
  for (let j = 0; j < shared.length; j++) {
    let f = 0;
    let hit = false;
    for (let c = 0; c < width; c++) {
      if (inFilter[c] === 0) continue;
      let count = 0;
      for (let x = first.from[j] as number; x < (first.to[j] as number); x++) {
        const start = first.start[x * width + c] as number;
        const end = start + (first.count[x * width + c] as number);
        for (let i = start; i < end; i++) {
          const p = first.positions[i] as number;
          let adjacent = true;
          for (let r = 0; r < rest.length && adjacent; r++)
            adjacent = holds(rest[r] as PartSpans, j, width, c, p + r + 1);
          if (adjacent) count++;
        }
      }
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

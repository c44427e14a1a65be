// Byte layouts of the postings index: a segment's doc table (packed typed arrays) and one
// term's postings in a segment (varint doc ordinals with per-column hit counts).

import { MailsiftError } from '../core/errors.js';

/** Doc table flags. */
export const FLAG_BULK = 1;
export const FLAG_UNTRUSTED = 2;

/** One segment's documents, sorted by rowid; a posting names a document by its position here. */
export interface DocTable {
  readonly length: number;
  readonly rowids: Float64Array;
  readonly dates: Float64Array;
  /** Tokens in every column of the document: bm25's document length. */
  readonly tokens: Uint32Array;
  readonly inboxes: Uint32Array;
  readonly flags: Uint8Array;
}

export interface DocRow {
  readonly rowid: number;
  readonly date: number;
  readonly tokens: number;
  readonly inbox: number;
  readonly flags: number;
}

const DOC_TABLE_HEADER = 8;
const DOC_ROW_BYTES = 8 + 8 + 4 + 4 + 1;

export function encodeDocTable(rows: readonly DocRow[]): Uint8Array {
  const { table, blob } = newDocTable(rows.length);
  rows.forEach((row, i) => {
    table.rowids[i] = row.rowid;
    table.dates[i] = row.date;
    table.tokens[i] = row.tokens;
    table.inboxes[i] = row.inbox;
    table.flags[i] = row.flags;
  });
  return blob;
}

/** An empty doc table of `n` rows, to be filled in place: `blob` is its encoding. */
export function newDocTable(n: number): { table: DocTable; blob: Uint8Array } {
  const buffer = new ArrayBuffer(DOC_TABLE_HEADER + n * DOC_ROW_BYTES);
  new DataView(buffer).setUint32(0, n, true);
  return { table: docTableViews(buffer, n), blob: new Uint8Array(buffer) };
}

/** Views over a copy of `blob` (SQLite's buffers are not aligned for Float64Array). */
export function decodeDocTable(blob: Uint8Array): DocTable {
  const buffer = new ArrayBuffer(blob.byteLength);
  new Uint8Array(buffer).set(blob);
  const n = blob.byteLength >= DOC_TABLE_HEADER ? new DataView(buffer).getUint32(0, true) : -1;
  if (n < 0 || blob.byteLength !== DOC_TABLE_HEADER + n * DOC_ROW_BYTES) throw corruptSegment();
  return docTableViews(buffer, n);
}

/** What reading a postings segment that does not decode throws. */
export function corruptSegment(): MailsiftError {
  return new MailsiftError('index_unavailable', 'a postings segment is corrupt; run `mailsift reindex`', {
    param: 'index',
  });
}

function docTableViews(buffer: ArrayBuffer, n: number): DocTable {
  let at = DOC_TABLE_HEADER;
  const take = (bytes: number): number => {
    const start = at;
    at += n * bytes;
    return start;
  };
  return {
    length: n,
    dates: new Float64Array(buffer, take(8), n),
    rowids: new Float64Array(buffer, take(8), n),
    tokens: new Uint32Array(buffer, take(4), n),
    inboxes: new Uint32Array(buffer, take(4), n),
    flags: new Uint8Array(buffer, take(1), n),
  };
}

/**
 * One term's postings in one segment: for each document holding it, its ordinal (as a
 * gap from the previous one), a bit mask of the family's columns it occurs in and the
 * count in each of those columns. No positions: every query phrase the index answers is
 * one term (a run of words is one compound token), so adjacency is never asked.
 */
export interface TermList {
  ords: number[];
  /** counts[i * columns + c]: occurrences in document i, column c of the family. */
  counts: number[];
}

/** A growable byte buffer writing LEB128 varints; reused, since most terms' postings are a few bytes. */
class ByteWriter {
  private bytes = new Uint8Array(4096);
  private size = 0;

  reset(): this {
    this.size = 0;
    return this;
  }

  private reserve(bytes: number): void {
    if (this.size + bytes <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.size + bytes));
    grown.set(this.bytes.subarray(0, this.size));
    this.bytes = grown;
  }

  varint(value: number): void {
    this.reserve(5);
    let v = value;
    while (v >= 0x80) {
      this.bytes[this.size++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.bytes[this.size++] = v;
  }

  append(chunk: Uint8Array): void {
    this.reserve(chunk.length);
    this.bytes.set(chunk, this.size);
    this.size += chunk.length;
  }

  result(): Uint8Array {
    return this.bytes.slice(0, this.size);
  }
}

/** Reads LEB128 varints from a blob. */
interface ByteReader {
  varint(): number;
  /** Moves past `count` varints: each ends at a byte with the high bit clear. */
  skip(count: number): void;
  /** The offset of the next byte. */
  at(): number;
}

/**
 * A reader over `blob`. Its offset is a closure variable, not an object field: in the
 * decode loops (millions of entries per broad query) V8 then keeps it in a register
 * (measured, a weighted decode loop on 7.1M entries: 20 -> 12 ns per entry).
 */
function byteReader(blob: Uint8Array): ByteReader {
  let at = 0;
  return {
    varint(): number {
      // Most values fit one byte.
      const first = blob[at++];
      if ((first as number) < 0x80) return first as number;
      // Past the end (a truncated or corrupt blob) reads undefined, which would never end
      // a varint: checked here, off the one-byte path.
      if (first === undefined) throw corruptSegment();
      let value = first & 0x7f;
      let scale = 0x80;
      for (;;) {
        const byte = blob[at++];
        if (byte === undefined) throw corruptSegment();
        value += (byte & 0x7f) * scale;
        if (byte < 0x80) return value;
        scale *= 0x80;
      }
    },
    skip(count: number): void {
      let left = count;
      while (left > 0) {
        const byte = blob[at++];
        if (byte === undefined) throw corruptSegment();
        if (byte < 0x80) left--;
      }
    },
    at: () => at,
  };
}

// One buffer serves every call (result() copies out): a segment flush encodes ~10^5 terms,
// and fresh 4 KB buffers per term were gigabytes of short-lived off-heap memory for the
// collector to find (200k terms: 0.66–5.2 s CPU fresh, 0.19–0.23 s reused).
const postingsBytes = new ByteWriter();

export function encodePostings(
  list: { readonly [K in keyof TermList]: ArrayLike<number> },
  columns: number,
): EncodedPostings {
  const out = postingsBytes.reset();
  const { ords, counts } = list;
  const byMask = maskTally.reset(columns);
  out.varint(ords.length);
  let previous = -1;
  for (let i = 0; i < ords.length; i++) {
    const ord = ords[i] as number;
    out.varint(ord - previous - 1);
    previous = ord;
    let mask = 0;
    for (let c = 0; c < columns; c++) if ((counts[i * columns + c] as number) > 0) mask |= 1 << c;
    out.varint(mask);
    byMask.add(mask, 1);
    for (let c = 0; c < columns; c++) {
      const count = counts[i * columns + c] as number;
      if (count > 0) out.varint(count);
    }
  }
  return { postings: out.result(), masks: byMask.encode() };
}

/** One term's row in a segment as stored: its postings, and its documents per column mask. */
export interface EncodedPostings {
  readonly postings: Uint8Array;
  readonly masks: Uint8Array;
}

/**
 * A term's documents counted by the set of columns they hold it in (its entries' masks).
 * Stored beside the postings, so that bm25's count of a phrase within its columns is known
 * before the postings are read: one pass can then decode and score them
 * (segment-scores.ts). Encoded as (mask, count) varint pairs by ascending mask.
 */
class MaskTally {
  private counts = new Float64Array(1 << 7);
  private size = 0;

  reset(columns: number): this {
    this.size = 1 << columns;
    this.counts.fill(0, 0, this.size);
    return this;
  }

  add(mask: number, count: number): void {
    this.counts[mask] = (this.counts[mask] as number) + count;
  }

  /** Adds an encoded tally's counts. */
  addEncoded(encoded: Uint8Array): void {
    const read = byteReader(encoded);
    while (read.at() < encoded.length) {
      const mask = read.varint();
      if (!(mask < this.size)) throw corruptSegment();
      this.add(mask, read.varint());
    }
  }

  encode(): Uint8Array {
    const out = masksBytes.reset();
    for (let mask = 1; mask < this.size; mask++) {
      const count = this.counts[mask] as number;
      if (count === 0) continue;
      out.varint(mask);
      out.varint(count);
    }
    return out.result();
  }
}

const masksBytes = new ByteWriter();
const maskTally = new MaskTally();

/** The mask counts of a postings blob, read from its entries (an index written before they were stored). */
export function maskCountsOf(postings: Uint8Array, columns: number): Uint8Array {
  const read = byteReader(postings);
  const tally = maskTally.reset(columns);
  const n = read.varint();
  for (let i = 0; i < n; i++) {
    read.varint();
    const mask = read.varint();
    if (!(mask < 1 << columns)) throw corruptSegment();
    tally.add(mask, 1);
    for (let rest = mask; rest !== 0; rest &= rest - 1) read.skip(1);
  }
  return tally.encode();
}

/** The mask counts of postings joined from `parts` (each part's own), as concatPostings joins them. */
export function sumMaskCounts(parts: readonly Uint8Array[], columns: number): Uint8Array {
  const tally = maskTally.reset(columns);
  for (const part of parts) tally.addEncoded(part);
  return tally.encode();
}

/** Documents whose mask shares a column with `filter` (a mask): the term's count in those columns. */
export function countInColumns(masks: Uint8Array, filter: number): number {
  const read = byteReader(masks);
  let total = 0;
  while (read.at() < masks.length) {
    const mask = read.varint();
    const count = read.varint();
    if ((mask & filter) !== 0) total += count;
  }
  return total;
}

/** A postings blob whose ordinals move up by `base` when it is appended to others. */
export interface ShiftedPostings {
  readonly postings: Uint8Array;
  readonly base: number;
}

/**
 * The postings of `parts` as one blob, each part's ordinals moved up by its base: a merge
 * of segments without tombstones, whose documents keep their order, writes this. Parts
 * come by ascending base and their shifted ordinals must not overlap. Gaps within a part
 * do not change, so only its first gap is rewritten and the rest copied.
 */
export function concatPostings(parts: readonly ShiftedPostings[], columns: number): Uint8Array {
  const spans = parts.map((part) => postingsSpan(part.postings, columns));
  const out = postingsBytes.reset();
  out.varint(spans.reduce((sum, span) => sum + span.length, 0));
  let previous = -1;
  parts.forEach((part, p) => {
    const span = spans[p] as PostingsSpan;
    if (span.length === 0) return;
    out.varint(part.base + span.first - previous - 1);
    out.append(part.postings.subarray(span.rest));
    previous = part.base + span.last;
  });
  return out.result();
}

interface PostingsSpan {
  readonly length: number;
  readonly first: number;
  readonly last: number;
  /** Byte offset just past the first entry's gap. */
  readonly rest: number;
}

/** Walks a postings blob without decoding it into arrays. */
function postingsSpan(blob: Uint8Array, columns: number): PostingsSpan {
  const read = byteReader(blob);
  const length = read.varint();
  let ord = -1;
  let first = -1;
  let rest = read.at();
  for (let i = 0; i < length; i++) {
    ord += read.varint() + 1;
    if (i === 0) {
      first = ord;
      rest = read.at();
    }
    const mask = read.varint();
    let present = 0;
    for (let c = 0; c < columns; c++) if (mask & (1 << c)) present++;
    read.skip(present);
  }
  return { length, first, last: ord, rest };
}

/** Where appendRenumbered writes: growable runs of unsigned values. */
export interface TermSink {
  readonly ords: { push(value: number): void };
  readonly counts: { push(value: number): void };
}

/**
 * Appends the entries of one term's postings blob to `into` under the ordinals `remap`
 * gives them, dropping those it maps to -1 (tombstoned): a merge's
 * rewrite of a term, read straight from the blobs without decoding them into arrays first
 * (for the commonest terms of a 500k-document segment, tens of MB a term).
 */
export function appendRenumbered(
  postings: Uint8Array,
  columns: number,
  remap: Int32Array,
  into: TermSink,
): void {
  const entries = byteReader(postings);
  const counts = new Uint32Array(columns);
  const n = entries.varint();
  let ord = -1;
  for (let i = 0; i < n; i++) {
    ord += entries.varint() + 1;
    const mask = entries.varint();
    for (let c = 0; c < columns; c++) counts[c] = mask & (1 << c) ? entries.varint() : 0;
    const renumbered = remap[ord] as number;
    if (renumbered < 0) continue;
    into.ords.push(renumbered);
    for (let c = 0; c < columns; c++) into.counts.push(counts[c] as number);
  }
}

/** A phrase's columns within its family: which count (a bit mask), and with what weight each. */
export interface ColumnWeights {
  readonly width: number;
  readonly inFilter: Uint8Array;
  readonly weights: Float64Array;
}

/** By a column's bit (1 << c): its weight in the filter, 0 outside it; and the filter as a mask. */
export function weightsByBit({ width, inFilter, weights }: ColumnWeights): {
  weightOf: Float64Array;
  filter: number;
} {
  const weightOf = new Float64Array(1 << width);
  let filter = 0;
  for (let c = 0; c < width; c++) {
    if (inFilter[c] === 0) continue;
    filter |= 1 << c;
    weightOf[1 << c] = weights[c] as number;
  }
  return { weightOf, filter };
}

/**
 * Documents of a postings blob holding the term in a column of `filter` (a mask) that are
 * not dead (`dead[ord]` 1): a phrase's count in a segment with tombstones, where its mask
 * counts still count them. Counts are passed over, not read.
 */
export function liveCount(blob: Uint8Array, width: number, filter: number, dead: Uint8Array): number {
  const n = varintAt(blob, 0);
  let at = varintEnd;
  const masks = 1 << width;
  let live = 0;
  let ord = -1;
  for (let i = 0; i < n; i++) {
    ord += varintAt(blob, at) + 1;
    at = varintEnd;
    const mask = blob[at++] as number;
    if (!(mask < masks)) throw corruptSegment();
    // Past one varint per column the entry holds: each ends at a byte below 0x80.
    for (let rest = mask; rest !== 0; rest &= rest - 1) while ((blob[at++] as number) >= 0x80);
    if ((mask & filter) !== 0 && dead[ord] === 0) live++;
  }
  if (at > blob.length) throw corruptSegment();
  return live;
}

/** Where the varint varintAt read last ended. */
let varintEnd = 0;

/**
 * The varint at `at` in `blob`, its end left in varintEnd: for loops that keep their offset
 * in a local, where byteReader's call through a closure cost a decode loop 17 against 12 ns
 * an entry. Past the end it reads undefined bytes: callers check their offset.
 */
function varintAt(blob: Uint8Array, from: number): number {
  let at = from;
  let byte = blob[at++] as number;
  let value = byte;
  if (byte >= 0x80) {
    value = byte & 0x7f;
    for (let scale = 0x80; byte >= 0x80; scale *= 0x80) {
      byte = blob[at++] as number;
      value += (byte & 0x7f) * scale;
    }
  }
  varintEnd = at;
  return value;
}

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
  const n = rows.length;
  const buffer = new ArrayBuffer(DOC_TABLE_HEADER + n * DOC_ROW_BYTES);
  new DataView(buffer).setUint32(0, n, true);
  const table = docTableViews(buffer, n);
  rows.forEach((row, i) => {
    table.rowids[i] = row.rowid;
    table.dates[i] = row.date;
    table.tokens[i] = row.tokens;
    table.inboxes[i] = row.inbox;
    table.flags[i] = row.flags;
  });
  return new Uint8Array(buffer);
}

/** Views over a copy of `blob` (SQLite's buffers are not aligned for Float64Array). */
export function decodeDocTable(blob: Uint8Array): DocTable {
  const buffer = new ArrayBuffer(blob.byteLength);
  new Uint8Array(buffer).set(blob);
  const n = blob.byteLength >= DOC_TABLE_HEADER ? new DataView(buffer).getUint32(0, true) : -1;
  if (n < 0 || blob.byteLength !== DOC_TABLE_HEADER + n * DOC_ROW_BYTES)
    throw new MailsiftError('index_unavailable', 'a postings segment is corrupt; run `mailsift reindex`', {
      param: 'index',
    });
  return docTableViews(buffer, n);
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
 * gap from the previous one), a bit mask of the family's columns it occurs in, the count
 * in each of those columns and, in families that keep them, the token positions in each
 * (as gaps), which phrases need.
 */
export interface Postings {
  readonly length: number;
  readonly ords: Int32Array;
  /** counts[i * columns + c]: occurrences in document i, column c of the family. */
  readonly counts: Uint32Array;
  readonly columns: number;
  /** Positions of document i, column c: positions[offsets[i * columns + c]] onwards, counts[…] of them. */
  readonly positions: Uint32Array | null;
  readonly offsets: Uint32Array | null;
}

/** A term's postings being written: per document its ordinal, column counts and (when kept) positions. */
export interface TermList {
  ords: number[];
  counts: number[];
  /** positions[i]: document i's positions, column after column, ascending within a column. */
  positions: number[][] | null;
}

/** A growable byte buffer writing LEB128 varints. */
class ByteWriter {
  private bytes = new Uint8Array(256);
  private size = 0;

  varint(value: number): void {
    if (this.size + 5 > this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes);
      this.bytes = grown;
    }
    let v = value;
    while (v >= 0x80) {
      this.bytes[this.size++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.bytes[this.size++] = v;
  }

  result(): Uint8Array {
    return this.bytes.slice(0, this.size);
  }
}

export function encodePostings(list: TermList, columns: number): Uint8Array {
  const out = new ByteWriter();
  const { ords, counts, positions } = list;
  out.varint(ords.length);
  let previous = -1;
  for (let i = 0; i < ords.length; i++) {
    const ord = ords[i] as number;
    out.varint(ord - previous - 1);
    previous = ord;
    let mask = 0;
    for (let c = 0; c < columns; c++) if ((counts[i * columns + c] as number) > 0) mask |= 1 << c;
    out.varint(mask);
    for (let c = 0; c < columns; c++) {
      const count = counts[i * columns + c] as number;
      if (count > 0) out.varint(count);
    }
    const own = positions?.[i];
    if (!own) continue;
    let at = 0;
    for (let c = 0; c < columns; c++) {
      let last = 0;
      for (let k = counts[i * columns + c] as number; k > 0; k--) {
        const position = own[at++] as number;
        out.varint(position - last);
        last = position;
      }
    }
  }
  return out.result();
}

export function decodePostings(blob: Uint8Array, columns: number, withPositions: boolean): Postings {
  let at = 0;
  const varint = (): number => {
    let value = 0;
    let shift = 0;
    for (;;) {
      const byte = blob[at++] as number;
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
      shift += 7;
    }
  };
  const n = varint();
  const ords = new Int32Array(n);
  const counts = new Uint32Array(n * columns);
  // At most one position per remaining byte: a safe bound without a second pass.
  const positions = withPositions ? new Uint32Array(blob.length) : null;
  const offsets = withPositions ? new Uint32Array(n * columns) : null;
  let stored = 0;
  let ord = -1;
  for (let i = 0; i < n; i++) {
    ord += varint() + 1;
    ords[i] = ord;
    const mask = varint();
    for (let c = 0; c < columns; c++) if (mask & (1 << c)) counts[i * columns + c] = varint();
    if (!positions || !offsets) continue;
    for (let c = 0; c < columns; c++) {
      offsets[i * columns + c] = stored;
      let position = 0;
      for (let k = counts[i * columns + c] as number; k > 0; k--) {
        position += varint();
        positions[stored++] = position;
      }
    }
  }
  return { length: n, ords, counts, columns, positions, offsets };
}

import { describe, expect, it } from 'vitest';
import { MailsiftError } from '../core/errors.js';
import {
  appendRenumbered,
  concatPostings,
  countInColumns,
  decodeDocPositions,
  decodeDocTable,
  decodePostings,
  decodeWeighted,
  encodeDocTable,
  encodePostings,
  FLAG_BULK,
  FLAG_UNTRUSTED,
  liveCount,
  maskCountsOf,
  sumMaskCounts,
} from './postings-codec.js';

/**
 * Three columns; document 7 is absent from the middle one, document 300 has a long quoted
 * history (positions past 16,383 need three varint bytes).
 */
const THREE_COLUMNS = {
  ords: [0, 7, 300, 70_000],
  counts: [1, 0, 2, 3, 1, 0, 0, 0, 200, 1, 1, 1],
  positions: [4, 0, 9, 1, 5, 40, 2, ...Array.from({ length: 200 }, (_, i) => 16_000 + i * 3), 0, 0, 1],
};

/** Entries 0 to n - 1, each chosen. */
const every = (n: number): Int32Array => Int32Array.from({ length: n }, (_, e) => e);
/** The same columns asked of n documents. */
const columnsOf = (n: number, mask: number): Int32Array => new Int32Array(n).fill(mask);

describe('postings codec', () => {
  it('throws index_unavailable on a truncated blob rather than reading past its end', () => {
    const encoded = encodePostings(THREE_COLUMNS, 3);
    const truncated = encoded.postings.subarray(0, encoded.postings.length - 2);
    const expected = { code: 'index_unavailable', param: 'index' };
    expect(() => decodePostings(truncated, 3)).toThrow(expect.objectContaining(expected));
    const filter = new Uint8Array([1, 1, 1]);
    const weights = new Float64Array([1, 1, 1]);
    expect(() => decodeWeighted(truncated, { width: 3, inFilter: filter, weights })).toThrow(
      expect.objectContaining(expected),
    );
    // Read as a family of two columns, document 0's mask (columns 0 and 2) is corrupt.
    expect(() => decodeWeighted(encoded.postings, { width: 2, inFilter: filter, weights })).toThrow(
      expect.objectContaining(expected),
    );
    const postings = decodePostings(encoded.postings, 3);
    // Position 16,000 onwards take two bytes: cut inside document 300's run.
    const cut = encoded.positions.subarray(0, 20);
    expect(() => decodeDocPositions(cut, postings, every(4), columnsOf(4, 0b111))).toThrow(
      expect.objectContaining(expected),
    );
    const remap = new Int32Array(70_001).fill(-1);
    const sink = { ords: [] as number[], counts: [] as number[], positions: [] as number[] };
    expect(() =>
      appendRenumbered(encoded.postings, encoded.positions.subarray(0, 20), 3, remap, sink),
    ).toThrow(expect.objectContaining(expected));
    // Document 70,000 alone: the bytes to skip before it run past the cut.
    expect(() => decodeDocPositions(cut, postings, Int32Array.of(3), Int32Array.of(0b111))).toThrow(
      expect.objectContaining(expected),
    );
  });

  it("weighs each document's counts in the filtered columns, in one column or several", () => {
    const { postings } = encodePostings(THREE_COLUMNS, 3);
    const decode = (filter: number[], weights: number[]) => {
      const hits = decodeWeighted(postings, {
        width: 3,
        inFilter: new Uint8Array(filter),
        weights: new Float64Array(weights),
      });
      return { ords: Array.from(hits.ords), freqs: Array.from(hits.freqs) };
    };
    // Document 300 holds its 200 occurrences (a two-byte count) in the last column alone.
    expect(decode([1, 0, 1], [1, 0.5, 0.25])).toEqual({
      ords: [0, 7, 300, 70_000],
      freqs: [1.5, 3, 50, 1.25],
    });
    // Outside the filter, a document in one column or in several drops out.
    expect(decode([0, 1, 0], [1, 0.5, 0.25])).toEqual({ ords: [7, 70_000], freqs: [0.5, 0.5] });
    // Every decoded entry agrees with the full decode's counts.
    const full = decodePostings(postings, 3);
    const sums = Array.from(
      full.ords,
      (_, i) => (full.counts[i * 3] as number) + (full.counts[i * 3 + 2] as number),
    );
    expect(decode([1, 0, 1], [1, 0, 1]).freqs).toEqual(sums);
  });

  it('appends a term renumbered straight from its blobs, skipping the positions of dropped entries', () => {
    const encoded = encodePostings(THREE_COLUMNS, 3);
    const remap = new Int32Array(70_001).fill(-1);
    remap[0] = 5;
    remap[300] = 2;
    remap[70_000] = 9;
    const into = { ords: [] as number[], counts: [] as number[], positions: [] as number[] };
    appendRenumbered(encoded.postings, encoded.positions, 3, remap, into);
    // Document 7 is dropped; 300's long run of multi-byte positions comes through whole.
    expect(into.ords).toEqual([5, 2, 9]);
    expect(into.counts).toEqual([1, 0, 2, 0, 0, 200, 1, 1, 1]);
    expect(into.positions).toEqual([
      4,
      0,
      9,
      ...Array.from({ length: 200 }, (_, i) => 16_000 + i * 3),
      0,
      0,
      1,
    ]);
  });

  it('round-trips ordinals, column counts and positions, multi-byte values included', () => {
    const list = THREE_COLUMNS;
    const encoded = encodePostings(list, 3);
    const postings = decodePostings(encoded.postings, 3);
    expect(Array.from(postings.ords)).toEqual(list.ords);
    expect(Array.from(postings.counts)).toEqual(list.counts);
    const where = decodeDocPositions(encoded.positions, postings, every(4), columnsOf(4, 0b111));
    const of = (j: number, c: number, from = where, entry = j): number[] => {
      let start = from.starts[j] as number;
      for (let before = 0; before < c; before++) start += postings.counts[entry * 3 + before] as number;
      return Array.from(from.positions.subarray(start, start + (postings.counts[entry * 3 + c] as number)));
    };
    expect(of(0, 0)).toEqual([4]);
    expect(of(0, 2)).toEqual([0, 9]);
    expect(of(1, 0)).toEqual([1, 5, 40]);
    expect(of(1, 1)).toEqual([2]);
    expect(of(2, 2)).toEqual(list.positions.slice(7, 207));
    expect(of(3, 1)).toEqual([0]);
    expect(where.starts[4]).toBe(list.positions.length);
    // Only entries 1 and 3: the others' positions (multi-byte ones included) are skipped.
    const some = decodeDocPositions(encoded.positions, postings, Int32Array.of(1, 3), columnsOf(2, 0b111));
    expect(some.positions.length).toBe(4 + 3);
    expect(of(0, 0, some, 1)).toEqual([1, 5, 40]);
    expect(of(0, 1, some, 1)).toEqual([2]);
    expect(of(1, 0, some, 3)).toEqual([0]);
    expect(of(1, 2, some, 3)).toEqual([1]);
  });

  it('decodes only the documents asked for, skipping the positions of the others', () => {
    const list = {
      ords: [2, 9, 40, 41],
      counts: [1, 0, 0, 3, 2, 1, 1, 0],
      positions: [7, 300, 301, 20_000, 5, 6, 1, 0],
    };
    const encoded = encodePostings(list, 2);
    const some = decodePostings(encoded.postings, 2, Int32Array.from([9, 41, 50]));
    expect(Array.from(some.ords)).toEqual([9, 41]);
    expect(Array.from(some.counts)).toEqual([0, 3, 1, 0]);
    const where = decodeDocPositions(encoded.positions, some, every(2), columnsOf(2, 0b11));
    expect(Array.from(where.positions)).toEqual([300, 301, 20_000, 0]);
    expect(Array.from(where.starts)).toEqual([0, 3, 4]);
  });

  it('reads positions in the columns asked for per document, past skipped entries, documents and columns', () => {
    // Decoded for documents 7 and 70,000 only: entry 0's positions come after document 0's
    // and 300's (multi-byte ones) unread.
    const encoded = encodePostings(THREE_COLUMNS, 3);
    const some = decodePostings(encoded.postings, 3, Int32Array.from([7, 70_000]));
    // Columns 0 and 2 of document 7 (it has none in 2: column 1's position is skipped), and
    // every column of document 70,000, between two shared documents neither list holds.
    const read = decodeDocPositions(
      encoded.positions,
      some,
      Int32Array.of(0, -1, 1, -1),
      Int32Array.of(0b101, 0b111, 0b111, 0b111),
    );
    expect(Array.from(read.positions)).toEqual([1, 5, 40, 0, 0, 1]);
    expect(Array.from(read.starts)).toEqual([0, 3, 3, 6, 6]);
    // Document 70,000's column 2 alone, passing over document 7's entry.
    const one = decodeDocPositions(
      encoded.positions,
      some,
      Int32Array.of(-1, 1),
      Int32Array.of(0b111, 0b100),
    );
    expect(Array.from(one.positions)).toEqual([1]);
    expect(Array.from(one.starts)).toEqual([0, 0, 1]);
  });

  it('splices shifted postings into the blob a re-encoding of their union would be', () => {
    // Two columns. The second part starts right after the first part's documents (base 3),
    // the third far later (base 200), with a gap needing two varint bytes, as after a
    // segment whose other documents lack the term.
    const parts = [
      { ords: [0, 2], counts: [1, 0, 2, 1], positions: [5, 0, 7, 3] },
      { ords: [0], counts: [0, 4], positions: [1, 2, 3, 400] },
      { ords: [1, 150], counts: [1, 1, 0, 1], positions: [9, 9, 16_500] },
    ];
    const bases = [0, 3, 200];
    const encoded = parts.map((list) => encodePostings(list, 2));
    const spliced = concatPostings(
      encoded.map((e, i) => ({ postings: e.postings, base: bases[i] as number })),
      2,
    );
    const union = encodePostings(
      {
        ords: parts.flatMap((list, i) => list.ords.map((ord) => ord + (bases[i] as number))),
        counts: parts.flatMap((list) => list.counts),
        positions: parts.flatMap((list) => list.positions),
      },
      2,
    );
    expect(Array.from(spliced)).toEqual(Array.from(union.postings));
    expect(
      Array.from(
        sumMaskCounts(
          encoded.map((e) => e.masks),
          2,
        ),
      ),
    ).toEqual(Array.from(union.masks));
    expect(Array.from(Buffer.concat(encoded.map((e) => e.positions)))).toEqual(Array.from(union.positions));
    expect(Array.from(decodePostings(spliced, 2).ords)).toEqual([0, 2, 3, 201, 350]);
  });

  it('counts documents by the columns they hold the term in, for any set of columns', () => {
    const encoded = encodePostings(THREE_COLUMNS, 3);
    // Document 7 holds it in the first two columns, 300 in the last, 0 in the first and the
    // last, 70,000 in all three: masks 0b011, 0b100, 0b101, 0b111, once each.
    expect(Array.from(encoded.masks)).toEqual([0b011, 1, 0b100, 1, 0b101, 1, 0b111, 1]);
    expect(Array.from(maskCountsOf(encoded.postings, 3))).toEqual(Array.from(encoded.masks));
    expect(countInColumns(encoded.masks, 0b111)).toBe(4);
    expect(countInColumns(encoded.masks, 0b001)).toBe(3);
    expect(countInColumns(encoded.masks, 0b010)).toBe(2);
    expect(countInColumns(encoded.masks, 0b100)).toBe(3);
    expect(countInColumns(encodePostings({ ords: [], counts: [], positions: [] }, 3).masks, 0b111)).toBe(0);
    // A count past one byte, and tallies added up.
    const many = {
      ords: Array.from({ length: 300 }, (_, i) => i),
      counts: Array.from({ length: 300 }, () => [1, 0]).flat(),
      positions: Array.from({ length: 300 }, () => 0),
    };
    const tally = encodePostings(many, 2).masks;
    expect(countInColumns(tally, 0b01)).toBe(300);
    expect(countInColumns(sumMaskCounts([tally, tally], 2), 0b01)).toBe(600);
  });

  it('counts the live documents holding a term in some columns, passing over their counts', () => {
    const { postings } = encodePostings(THREE_COLUMNS, 3);
    const dead = new Uint8Array(70_001);
    expect(liveCount(postings, 3, 0b111, dead)).toBe(4);
    expect(liveCount(postings, 3, 0b100, dead)).toBe(3);
    dead[300] = 1;
    expect(liveCount(postings, 3, 0b100, dead)).toBe(2);
    expect(liveCount(postings, 3, 0b010, dead)).toBe(2);
    expect(() => liveCount(postings.subarray(0, postings.length - 2), 3, 0b111, dead)).toThrow(MailsiftError);
  });

  it('encodes an empty list', () => {
    const encoded = encodePostings({ ords: [], counts: [], positions: [] }, 5);
    expect(decodePostings(encoded.postings, 5).length).toBe(0);
  });

  it('round-trips a doc table and refuses a truncated one', () => {
    const rows = [
      { rowid: 3, date: Date.UTC(2024, 4, 2, 9, 30), tokens: 412, inbox: 1, flags: 0 },
      { rowid: 2 ** 40, date: -1, tokens: 0, inbox: 7, flags: FLAG_BULK | FLAG_UNTRUSTED },
    ];
    const blob = encodeDocTable(rows);
    // SQLite hands back unaligned buffers: decode must copy before viewing as Float64Array.
    const unaligned = new Uint8Array(blob.length + 1).subarray(1);
    unaligned.set(blob);
    const table = decodeDocTable(unaligned);
    expect(table.length).toBe(2);
    expect(Array.from(table.rowids)).toEqual([3, 2 ** 40]);
    expect(Array.from(table.dates)).toEqual([rows[0]?.date, -1]);
    expect(Array.from(table.tokens)).toEqual([412, 0]);
    expect(Array.from(table.inboxes)).toEqual([1, 7]);
    expect(Array.from(table.flags)).toEqual([0, FLAG_BULK | FLAG_UNTRUSTED]);
    expect(() => decodeDocTable(blob.subarray(0, blob.length - 1))).toThrow(MailsiftError);
  });
});

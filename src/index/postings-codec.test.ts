import { describe, expect, it } from 'vitest';
import { MailsiftError } from '../core/errors.js';
import {
  appendRenumbered,
  concatPostings,
  countInColumns,
  decodeDocTable,
  encodeDocTable,
  encodePostings,
  FLAG_BULK,
  FLAG_UNTRUSTED,
  liveCount,
  maskCountsOf,
  sumMaskCounts,
} from './postings-codec.js';
import { sumExpansions } from './prefix-sums.js';

/**
 * Three columns; document 7 is absent from the last one, document 300 has a long quoted
 * history (a count of 200 takes two varint bytes, as does the gap to 70,000).
 */
const THREE_COLUMNS = {
  ords: [0, 7, 300, 70_000],
  counts: [1, 0, 2, 3, 1, 0, 0, 0, 200, 1, 1, 1],
};

/** A blob's entries, every ordinal below `docs` kept as itself (a merge's renumbering, moving none). */
function entriesOf(blob: Uint8Array, columns: number, docs = 70_001): { ords: number[]; counts: number[] } {
  const into = { ords: [] as number[], counts: [] as number[] };
  appendRenumbered(
    blob,
    columns,
    Int32Array.from({ length: docs }, (_, i) => i),
    into,
  );
  return into;
}

describe('postings codec', () => {
  it('throws index_unavailable on a truncated blob rather than reading past its end', () => {
    const encoded = encodePostings(THREE_COLUMNS, 3);
    const truncated = encoded.postings.subarray(0, encoded.postings.length - 2);
    const expected = { code: 'index_unavailable', param: 'index' };
    expect(() => entriesOf(truncated, 3)).toThrow(expect.objectContaining(expected));
    const filter = new Uint8Array([1, 1, 1]);
    const weights = new Float64Array([1, 1, 1]);
    expect(() => sumExpansions([truncated], { width: 3, inFilter: filter, weights }, 70_001)).toThrow(
      expect.objectContaining(expected),
    );
    // Read as a family of two columns, document 0's mask (columns 0 and 2) is corrupt.
    expect(() => sumExpansions([encoded.postings], { width: 2, inFilter: filter, weights }, 70_001)).toThrow(
      expect.objectContaining(expected),
    );
    const remap = new Int32Array(70_001).fill(-1);
    const sink = { ords: [] as number[], counts: [] as number[] };
    expect(() => appendRenumbered(truncated, 3, remap, sink)).toThrow(expect.objectContaining(expected));
  });

  it("weighs each document's counts in the filtered columns, in one column or several", () => {
    const { postings } = encodePostings(THREE_COLUMNS, 3);
    const decode = (filter: number[], weights: number[]) => {
      const hits = sumExpansions(
        [postings],
        { width: 3, inFilter: new Uint8Array(filter), weights: new Float64Array(weights) },
        70_001,
      );
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
    const full = entriesOf(postings, 3);
    const sums = full.ords.map((_, i) => (full.counts[i * 3] as number) + (full.counts[i * 3 + 2] as number));
    expect(decode([1, 0, 1], [1, 0, 1]).freqs).toEqual(sums);
  });

  it("adds up a prefix's expansions by document, each document once, in ascending runs", () => {
    // `invoice` and `invoices` in one segment of 400 documents: 7 and 300 hold both.
    const invoice = encodePostings({ ords: [7, 12, 300], counts: [2, 0, 1, 1, 0, 3] }, 2).postings;
    const invoices = encodePostings({ ords: [3, 7, 300, 399], counts: [1, 0, 0, 1, 1, 1, 0, 4] }, 2).postings;
    const columns = { width: 2, inFilter: new Uint8Array([1, 1]), weights: new Float64Array([1, 0.5]) };
    const hits = sumExpansions([invoice, invoices], columns, 400);
    // invoice's documents, then those invoices adds: a run each.
    expect(Array.from(hits.ords)).toEqual([7, 12, 300, 3, 399]);
    expect(Array.from(hits.runs)).toEqual([0, 3, 5]);
    // 7: 2 + 0.5; 300: 3 × 0.5 + (1 + 0.5); 12 and 3 and 399 from one expansion alone.
    expect(Array.from(hits.freqs)).toEqual([2.5, 1.5, 3, 1, 2]);
    // An expansion adding no document adds no run.
    expect(Array.from(sumExpansions([invoice, invoice, invoices], columns, 400).runs)).toEqual([0, 3, 5]);
    // A sum started again forgets the last one's documents, after a larger segment's too.
    const far = encodePostings({ ords: [3, 99_999], counts: [5, 0, 1, 1] }, 2).postings;
    expect(Array.from(sumExpansions([far, invoices], columns, 100_000).freqs)).toEqual([6, 1.5, 0.5, 1.5, 2]);
    expect(Array.from(sumExpansions([invoices], columns, 400).freqs)).toEqual([1, 0.5, 1.5, 2]);
    // An ordinal past the segment is a corrupt blob's, not a write past the sums.
    expect(() => sumExpansions([invoices], columns, 399)).toThrow(
      expect.objectContaining({ code: 'index_unavailable' }),
    );
  });

  it('appends a term renumbered straight from its blob, dropping the entries mapped away', () => {
    const encoded = encodePostings(THREE_COLUMNS, 3);
    const remap = new Int32Array(70_001).fill(-1);
    remap[0] = 5;
    remap[300] = 2;
    remap[70_000] = 9;
    const into = { ords: [] as number[], counts: [] as number[] };
    appendRenumbered(encoded.postings, 3, remap, into);
    // Document 7 is dropped; 300's two-byte count comes through whole.
    expect(into.ords).toEqual([5, 2, 9]);
    expect(into.counts).toEqual([1, 0, 2, 0, 0, 200, 1, 1, 1]);
  });

  it('round-trips ordinals and column counts, multi-byte values included', () => {
    const encoded = encodePostings(THREE_COLUMNS, 3);
    expect(entriesOf(encoded.postings, 3)).toEqual(THREE_COLUMNS);
  });

  it('splices shifted postings into the blob a re-encoding of their union would be', () => {
    // Two columns. The second part starts right after the first part's documents (base 3),
    // the third far later (base 200), with a gap needing two varint bytes, as after a
    // segment whose other documents lack the term.
    const parts = [
      { ords: [0, 2], counts: [1, 0, 2, 1] },
      { ords: [0], counts: [0, 4] },
      { ords: [1, 150], counts: [1, 1, 0, 1] },
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
    expect(entriesOf(spliced, 2).ords).toEqual([0, 2, 3, 201, 350]);
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
    expect(countInColumns(encodePostings({ ords: [], counts: [] }, 3).masks, 0b111)).toBe(0);
    // A count past one byte, and tallies added up.
    const many = {
      ords: Array.from({ length: 300 }, (_, i) => i),
      counts: Array.from({ length: 300 }, () => [1, 0]).flat(),
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
    const encoded = encodePostings({ ords: [], counts: [] }, 5);
    expect(entriesOf(encoded.postings, 5)).toEqual({ ords: [], counts: [] });
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

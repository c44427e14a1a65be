import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import wabt from 'wabt';
import { type ColumnWeights, encodePostings, newDocTable } from './postings-codec.js';
import { sumExpansions } from './prefix-sums.js';
import { type BlobCursor, loadedBytes, type ScoreSink, scoreKernel } from './score-kernel.js';

/** Three columns; document 7 is absent from the middle one; document 300 counts 200 (two varint bytes). */
const THREE_COLUMNS = {
  ords: [0, 7, 300, 70_000],
  counts: [1, 0, 2, 3, 1, 0, 0, 0, 200, 1, 1, 1],
  positions: [4, 0, 9, 1, 5, 40, 2, ...Array.from({ length: 200 }, (_, i) => 16_000 + i * 3), 0, 0, 1],
};

/** Loads blobs alone: a cursor for each. */
function loadBlobs(blobs: ReadonlyArray<{ postings: Uint8Array; columns: ColumnWeights }>): BlobCursor[] {
  return scoreKernel()
    .load(blobs)
    .map((cursor) => {
      if ('runs' in cursor) throw new Error('a blob loaded as a list');
      return cursor;
    });
}

/** Loads `postings` alone and scores all of it in one window. */
function scoreWhole(
  postings: Uint8Array,
  columns: ColumnWeights,
  idf: number,
  first: boolean,
  sink: ScoreSink,
  docs: number,
  listed: number,
): number {
  const [cursor] = loadBlobs([{ postings, columns }]);
  if (cursor === undefined) throw new Error('nothing loaded');
  return scoreKernel().score(cursor, idf, first, sink, docs, docs, listed);
}

/** A doc table of `n` documents of varied lengths. */
function table(n: number) {
  const made = newDocTable(n).table;
  for (let ord = 0; ord < n; ord++) made.tokens[ord] = (ord * 37) % 900;
  return made;
}

describe('bm25 kernel', () => {
  it('is built from its source (run scripts/build-score-kernel.mjs after editing the .wat)', async () => {
    const read = (name: string): string => readFileSync(new URL(name, import.meta.url), 'utf8');
    const compiled = (await wabt())
      .parseWat('score-kernel.wat', read('./score-kernel.wat'))
      .toBinary({}).buffer;
    expect(read('./score-kernel-wasm.ts')).toContain(`'${Buffer.from(compiled).toString('base64')}'`);
  });

  it('scores a blob as it decodes it, as decoded hits sum: every document in the first group, later only those that reached it', () => {
    const { postings } = encodePostings(THREE_COLUMNS, 3);
    const columns = {
      width: 3,
      inFilter: new Uint8Array([0, 0, 1]),
      weights: new Float64Array([1, 0.5, 0.25]),
    };
    const docs = table(70_001);
    const kernel = scoreKernel();
    kernel.prepare([docs], loadedBytes([{ postings, columns }]), 180);
    const sink = (reaching: number, reached: number, listed: boolean): ScoreSink => {
      const { stamp, scores, reachedList, norms } = kernel.arrays(docs, 180, 2);
      return { stamp, scores, norms, k1: 1.2, reaching, reached, reachedList: listed ? reachedList : null };
    };
    const { ords, freqs } = sumExpansions([postings], columns, docs.length);
    expect(Array.from(ords)).toEqual([0, 300, 70_000]);
    const first = sink(5, 6, true);
    const bm25 = (i: number) => {
      const f = freqs[i] as number;
      return 2 * ((f * 2.2) / (f + (first.norms[ords[i] as number] as number)));
    };
    // First group: documents 0, 300 and 70,000 (7 holds the term only outside the filter);
    // stamps of an older search are overwritten, and so are their sums.
    first.stamp.fill(3);
    first.scores.fill(7);
    first.stamp[300] = 6;
    expect(scoreWhole(postings, columns, 2, true, first, docs.length, 0)).toBe(2);
    expect(Array.from(first.reachedList?.subarray(0, 2) ?? [])).toEqual([0, 70_000]);
    expect(first.scores[0]).toBe(bm25(0));
    // 300 was reached already by another phrase of this group: its sum goes on.
    expect(first.scores[300]).toBe(7 + bm25(1));
    expect(first.scores[70_000]).toBe(bm25(2));
    expect([first.stamp[0], first.stamp[300], first.stamp[7], first.stamp[70_000]]).toEqual([6, 6, 3, 6]);

    // A later group: 300 reached the group before (5) and is listed; 0 was reached already
    // by another phrase of this group (6), so it is not listed again; 70,000 did not (0).
    const later = sink(5, 6, true);
    later.stamp.fill(0);
    later.scores.fill(7);
    later.stamp[0] = 6;
    later.stamp[300] = 5;
    expect(scoreWhole(postings, columns, 2, false, later, docs.length, 0)).toBe(1);
    expect(later.reachedList?.[0]).toBe(300);
    expect(later.scores[0]).toBe(7 + bm25(0));
    expect(later.scores[300]).toBe(7 + bm25(1));
    expect(later.scores[70_000]).toBe(7);
    expect(later.stamp[70_000]).toBe(0);
  });

  it('sums the same floats as decoded hits on a long list, with multi-byte gaps and counts', () => {
    const n = 20_000;
    let ord = -1;
    const ords: number[] = [];
    const counts: number[] = [];
    for (let i = 0; i < n; i++) {
      ord += 1 + ((i * 7919) % 300);
      ords.push(ord);
      counts.push(i % 5 === 0 ? 0 : (i * 31) % 400, (i * 13) % 3, i % 4 === 0 ? 1 : 0);
    }
    const { postings } = encodePostings({ ords, counts }, 3);
    const columns = {
      width: 3,
      inFilter: new Uint8Array([1, 1, 1]),
      weights: new Float64Array([1, 0.5, 0.25]),
    };
    const docs = table(ord + 1);
    const kernel = scoreKernel();
    kernel.prepare([docs], loadedBytes([{ postings, columns }]), 240);
    const { stamp, scores, reachedList, norms, base } = kernel.arrays(docs, 240, 1);
    const sink = { stamp, scores, norms, k1: 1.2, reaching: base, reached: base + 1, reachedList };
    const listed = scoreWhole(postings, columns, 1.7, true, sink, docs.length, 0);
    const hits = sumExpansions([postings], columns, docs.length);
    expect(listed).toBe(hits.ords.length);
    hits.ords.forEach((o, i) => {
      const f = hits.freqs[i] as number;
      expect(scores[o]).toBe(1.7 * ((f * 2.2) / (f + (norms[o] as number))));
    });
  });

  it('scores two loaded blobs window by window as it scores them whole, cursors apart', () => {
    // Two terms over 60,000 documents: one in every third, one in every 1,000th (a multi-byte gap).
    const every = (step: number, count: (i: number) => number) => {
      const ords: number[] = [];
      const counts: number[] = [];
      for (let ord = step - 1, i = 0; ord < 60_000; ord += step, i++) {
        ords.push(ord);
        counts.push(count(i), 0);
      }
      return encodePostings({ ords, counts }, 2).postings;
    };
    const dense = every(3, (i) => 1 + (i % 4));
    const sparse = every(1_000, (i) => 200 + i);
    const columns = { width: 2, inFilter: new Uint8Array([1, 1]), weights: new Float64Array([1, 0.5]) };
    const docs = table(60_000);
    const kernel = scoreKernel();
    const blobs = [
      { postings: dense, columns },
      { postings: sparse, columns },
    ];
    kernel.prepare([docs], loadedBytes(blobs), 300);
    /** Both terms as two groups, in windows ending at `ends`: the scores and the reached list. */
    const scoreIn = (ends: readonly number[]) => {
      const { stamp, scores, reachedList, norms, base } = kernel.arrays(docs, 300, 2);
      const sink = (g: number): ScoreSink => ({
        stamp,
        scores,
        norms,
        k1: 1.2,
        reaching: base + g,
        reached: base + g + 1,
        reachedList: g === 1 ? reachedList : null,
      });
      const [first, second] = loadBlobs(blobs);
      if (first === undefined || second === undefined) throw new Error('nothing loaded');
      let listed = 0;
      for (const until of ends) {
        kernel.score(first, 1.5, true, sink(0), docs.length, until, 0);
        listed = kernel.score(second, 0.75, false, sink(1), docs.length, until, listed);
      }
      const list = Array.from(reachedList.subarray(0, listed));
      return { list, scores: list.map((ord) => scores[ord]) };
    };
    const whole = scoreIn([60_000]);
    // Documents 2,999, 5,999, …: in every third and every 1,000th.
    expect(whole.list).toEqual(Array.from({ length: 20 }, (_, i) => 3_000 * (i + 1) - 1));
    // Windows of 8,192, and uneven ones: empty, one document wide, ending on a match.
    expect(scoreIn([8_192, 16_384, 24_576, 32_768, 40_960, 49_152, 57_344, 60_000])).toEqual(whole);
    expect(scoreIn([0, 2_999, 3_000, 3_000, 17_777, 59_999, 60_000])).toEqual(whole);
  });

  it('refuses a blob that does not decode: truncated, a mask past its family, an ordinal past its segment, whole or in windows', () => {
    const { postings } = encodePostings(THREE_COLUMNS, 3);
    const columns = { width: 3, inFilter: new Uint8Array([1, 1, 1]), weights: new Float64Array([1, 1, 1]) };
    const docs = table(70_001);
    const kernel = scoreKernel();
    kernel.prepare([docs], loadedBytes([{ postings, columns }]), 180);
    const { stamp, scores, reachedList, norms, base } = kernel.arrays(docs, 180, 1);
    const sink = { stamp, scores, norms, k1: 1.2, reaching: base, reached: base + 1, reachedList };
    const corrupt = expect.objectContaining({ code: 'index_unavailable', param: 'index' });
    const truncated = postings.subarray(0, postings.length - 2);
    expect(() => scoreWhole(truncated, columns, 1, true, sink, docs.length, 0)).toThrow(corrupt);
    // Read as a family of two columns, document 0's mask (columns 0 and 2) is out of range.
    expect(() => scoreWhole(postings, { ...columns, width: 2 }, 1, true, sink, docs.length, 0)).toThrow(
      corrupt,
    );
    expect(() => scoreWhole(postings, columns, 1, true, sink, 70_000, 0)).toThrow(corrupt);
    expect(() => scoreWhole(new Uint8Array(0), columns, 1, true, sink, docs.length, 0)).toThrow(corrupt);
    // In windows: the first leaves document 70,000 for the next, which finds it past a
    // segment of 70,000.
    const [cursor] = loadBlobs([{ postings, columns }]);
    if (cursor === undefined) throw new Error('nothing loaded');
    kernel.score(cursor, 1, true, sink, docs.length, 60_000, 0);
    expect({ ord: cursor.ord, left: cursor.left }).toEqual({ ord: 300, left: 1 });
    expect(() => kernel.score(cursor, 1, true, sink, 70_000, 70_000, 3)).toThrow(corrupt);
  });

  it('keeps its arrays across a larger layout: a bigger segment and blob grow the memory', () => {
    const kernel = scoreKernel();
    const small = table(1_000);
    kernel.prepare([small], 100, 50);
    const before = kernel.arrays(small, 50, 1);
    const big = table(3_000_000);
    kernel.prepare([small, big], 3 << 20, 50);
    const after = kernel.arrays(big, 50, 1);
    expect(after.stamp.length).toBeGreaterThanOrEqual(3_000_000);
    expect(after.base).toBeGreaterThan(0);
    // Laid out again: stamps start over, so none of an older search can pass for this one's.
    expect(after.stamp.every((s) => s < after.base)).toBe(true);
    expect(before.norms.length).toBe(0);
    expect(kernel.arrays(small, 50, 1).norms[999]).toBe(1.2 * (1 - 0.75 + (0.75 * ((999 * 37) % 900)) / 50));
    // A segment past the room prepared is refused, not written over the memory's end.
    expect(() => kernel.arrays(table(1_000_000), 50, 1)).toThrow(/not prepared for this segment/);
  });

  it('cuts a list in place to the matches whose score times the largest multiplier reaches a bound', () => {
    const kernel = scoreKernel();
    const docs = table(64);
    kernel.prepare([docs], 0, 50);
    const arrays = kernel.arrays(docs, 50, 1);
    const ords = [40, 3, 17, 9, 62, 0];
    const scores = [2.0, 0.5, 1.25, 1.2, 3.0, 0.8];
    ords.forEach((ord, i) => {
      arrays.scores[ord] = scores[i] as number;
      arrays.reachedList[10 + i] = ord;
    });
    arrays.reachedList[9] = 33;
    // Document 9's 1.2 × 1.25 = 1.5 is not below the bound: kept; 3's 0.625 and 0's 1.0 are cut.
    const end = kernel.cut(arrays, 10, 16, 1.25, 1.5);
    expect(Array.from(arrays.reachedList.subarray(10, end))).toEqual([40, 17, 9, 62]);
    // Before `from`, nothing moved.
    expect(arrays.reachedList[9]).toBe(33);
    expect(kernel.cut(arrays, 10, end, 1.25, Number.NEGATIVE_INFINITY)).toBe(end);
  });
});

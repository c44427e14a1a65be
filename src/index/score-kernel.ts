// The bm25 kernel (score-kernel.wat) and the memory it works in: one thread's scoring arrays
// (the documents' length norms of every segment searched, the stamps, sums and reached list of
// the segment being scored) live in the kernel's own memory, where it reads and writes them
// without a copy; only the postings blobs of the segment being scored are copied in.

import { type ColumnWeights, corruptSegment, type DocTable, weightsByBit } from './postings-codec.js';
import type { PrefixHits } from './prefix-sums.js';
import { SCORE_KERNEL_WASM } from './score-kernel-wasm.js';

// The project's lib has no DOM types and @types/node 20 none for WebAssembly: what is used of it.
declare const WebAssembly: {
  readonly Module: new (bytes: Uint8Array) => object;
  readonly Instance: new (module: object) => { readonly exports: unknown };
};

/** score-kernel.wat's exports. */
export interface KernelExports {
  readonly memory: { readonly buffer: ArrayBuffer; grow(pages: number): number };
  readonly end: { readonly value: number };
  readonly last: { readonly value: number };
  readonly left: { readonly value: number };
  count(blob: number): number;
  sum(
    blob: number,
    weightOf: number,
    filter: number,
    masks: number,
    docs: number,
    seen: number,
    epoch: number,
    place: number,
    ords: number,
    freqs: number,
    summed: number,
  ): number;
  touch(stamp: number, scores: number, norms: number, from: number, until: number): void;
  cut(scores: number, list: number, from: number, listed: number, most: number, threshold: number): number;
  scoreList(i: number, stop: number, until: number, ords: number, freqs: number, ...sink: SinkArgs): number;
  score(
    at: number,
    left: number,
    ord: number,
    until: number,
    weightOf: number,
    filter: number,
    masks: number,
    docs: number,
    ...sink: SinkArgs
  ): number;
}

/** score's and scoreList's last arguments: a phrase's idf and where its terms are summed. */
type SinkArgs = [
  idf: number,
  saturation: number,
  norms: number,
  stamp: number,
  scores: number,
  reaching: number,
  reached: number,
  first: number,
  list: number,
  listed: number,
];

function sinkArgs(idf: number, first: boolean, sink: ScoreSink, listed: number): SinkArgs {
  return [
    idf,
    sink.k1 + 1.0,
    sink.norms.byteOffset,
    sink.stamp.byteOffset,
    sink.scores.byteOffset,
    sink.reaching,
    sink.reached,
    first ? 1 : 0,
    sink.reachedList === null ? -1 : sink.reachedList.byteOffset,
    listed,
  ];
}

/** A new instance of the kernel, with a memory of its own. */
export function kernelInstance(): KernelExports {
  const module = new WebAssembly.Module(Buffer.from(SCORE_KERNEL_WASM, 'base64'));
  return new WebAssembly.Instance(module).exports as unknown as KernelExports;
}

/** The kernel's memory is grown by pages of this many bytes. */
export const PAGE = 65_536;
/** A family has at most 7 columns: a mask is below 128, and so is a column's bit. */
const MASKS = 128;
/** A loaded blob's column weights by mask, ahead of it. */
export const WEIGHTS_BYTES = MASKS * 8;
/** Room for blobs when the layout is made: the commonest terms of a 1M archive are ~1.5 MB. */
const MIN_BLOB_BYTES = 1 << 20;
export const align8 = (n: number): number => Math.ceil(n / 8) * 8;

/** bm25's constants, FTS5's: k1 (term frequency saturation) and b (length normalisation). */
export const BM25_K1 = 1.2;
const BM25_B = 0.75;

/**
 * Where one phrase's bm25 terms are summed, per document ordinal of a segment (see
 * segment-scores.ts), in the kernel's memory: `stamp[ord]` says how far the document got in
 * the search (`reaching`: it holds every earlier group; `reached`: this group too),
 * `scores[ord]` its sum so far.
 */
export interface ScoreSink {
  readonly stamp: Int32Array;
  readonly scores: Float64Array;
  /** bm25's length normalisation of each document, K1·(1 − B + B·d/avgdl). */
  readonly norms: Float64Array;
  readonly k1: number;
  readonly reaching: number;
  readonly reached: number;
  /** Ordinals that reach the last group, in the order they do; null before the last group. */
  readonly reachedList: Int32Array | null;
}

/**
 * One postings blob of the segment being scored, in the kernel's memory after its column
 * weights, and how far scoring has read it: the kernel scores it a window of ordinals at a
 * time (see ScoreKernel.score).
 */
export interface BlobCursor {
  readonly weightsAt: number;
  readonly filter: number;
  readonly masks: number;
  /** Where its next entry is, and where the blob ends. */
  at: number;
  readonly end: number;
  /** The ordinal of the last entry read (-1 before the first), and how many are left. */
  ord: number;
  left: number;
}

/** A decoded list (a prefix's expansions added up) in the kernel's memory, and how far scoring read each of its runs. */
export interface ListCursor {
  readonly ordsAt: number;
  readonly freqsAt: number;
  /** Where each ascending run starts in the list, then its length (PrefixHits.runs). */
  readonly runs: Int32Array;
  /** Each run's next entry. */
  readonly at: Int32Array;
}

/** What a segment's phrases give the kernel to load: a one-term phrase's blob, or a decoded list. */
export type Loadable =
  | { readonly postings: Uint8Array; readonly columns: ColumnWeights }
  | { readonly hits: PrefixHits };

/** The blob area `sources` take once loaded (ScoreKernel.load). */
export function loadedBytes(sources: readonly Loadable[]): number {
  return sources.reduce(
    (sum, source) =>
      sum +
      ('hits' in source
        ? align8(source.hits.ords.byteLength) + source.hits.freqs.byteLength
        : WEIGHTS_BYTES + align8(source.postings.length)),
    0,
  );
}

/** Where a segment's length norms are in memory, and for which average length. */
interface NormsAt {
  readonly offset: number;
  avgdl: number;
}

/**
 * A segment's working arrays: views into the kernel's memory, valid until the next prepare().
 * Stamps are never cleared between searches: each counts from a base above every older one,
 * and a sum is this search's only where its stamp is.
 */
export interface SegmentArrays {
  readonly stamp: Int32Array;
  readonly scores: Float64Array;
  readonly reachedList: Int32Array;
  /** bm25's length normalisation of each document, k1·(1 − b + b·d/avgdl). */
  readonly norms: Float64Array;
  /** A stamp above every one written so far: the search counts from here. */
  readonly base: number;
}

/**
 * One thread's kernel and memory. Layout: the working arrays (sized for the largest
 * segment), the blob area (one segment's blobs at a time, each after its column weights),
 * and the norms of every segment prepared since the layout was made. A search that needs
 * more (a new segment, a larger one, more blobs) lays it out again: norms are recomputed (a
 * few ms at 1M documents) and stamps start over.
 */
class ScoreKernel {
  private readonly kernel: KernelExports;
  private norms = new Map<DocTable, NormsAt>();
  private docs = 0;
  private blobBytes = 0;
  private stampAt = 0;
  private scoresAt = 0;
  private listAt = 0;
  private blobAt = 0;
  private normsEnd = 0;
  private normsLimit = 0;
  private next = 1;
  private buffer = new ArrayBuffer(0);
  private bytes = new Uint8Array(0);

  constructor() {
    this.kernel = kernelInstance();
  }

  /**
   * Makes room for scoring `tables` (each segment's doc table) with blobs that take up to
   * `blobBytes` once loaded (loadedBytes), and their norms for `avgdl`.
   */
  prepare(tables: readonly DocTable[], blobBytes: number, avgdl: number): void {
    const largest = tables.reduce((max, t) => Math.max(max, t.length), 0);
    const missing = tables.filter((t) => !this.norms.has(t)).reduce((sum, t) => sum + t.length * 8, 0);
    if (largest > this.docs || blobBytes > this.blobBytes || this.normsEnd + missing > this.normsLimit)
      this.layOut(tables, largest, blobBytes);
    for (const table of tables) this.normsOf(table, avgdl);
  }

  private layOut(tables: readonly DocTable[], largest: number, blobBytes: number): void {
    const docs = Math.max(largest, this.docs);
    const blob = align8(Math.max(blobBytes * 2, this.blobBytes, MIN_BLOB_BYTES));
    const normsBytes = tables.reduce((sum, t) => sum + t.length * 8, 0);
    this.stampAt = 0;
    this.scoresAt = align8(this.stampAt + docs * 4);
    this.listAt = this.scoresAt + docs * 8;
    this.blobAt = align8(this.listAt + docs * 4);
    const normsAt = this.blobAt + blob;
    // Headroom for the small segments of new mail, so each does not lay everything out again.
    this.normsLimit = normsAt + align8(normsBytes + normsBytes / 4);
    const { memory } = this.kernel;
    const pages = Math.ceil(this.normsLimit / PAGE) - memory.buffer.byteLength / PAGE;
    if (pages > 0) memory.grow(pages);
    this.docs = docs;
    this.blobBytes = blob;
    this.normsEnd = normsAt;
    this.norms = new Map();
    this.stamps().fill(0);
    this.next = 1;
  }

  /** The memory, its views made again when it grew (growing detaches the old ones). */
  private refresh(): ArrayBuffer {
    const buffer = this.kernel.memory.buffer;
    if (buffer !== this.buffer) {
      this.buffer = buffer;
      this.bytes = new Uint8Array(buffer);
    }
    return buffer;
  }

  private stamps(): Int32Array {
    return new Int32Array(this.refresh(), this.stampAt, this.docs);
  }

  private normsOf(table: DocTable, avgdl: number): Float64Array {
    let at = this.norms.get(table);
    if (at === undefined) {
      if (this.normsEnd + table.length * 8 > this.normsLimit)
        throw new Error('the scoring memory was not prepared for this segment');
      at = { offset: this.normsEnd, avgdl: Number.NaN };
      this.normsEnd += table.length * 8;
      this.norms.set(table, at);
    }
    const norms = new Float64Array(this.refresh(), at.offset, table.length);
    if (at.avgdl !== avgdl) {
      for (let ord = 0; ord < table.length; ord++)
        norms[ord] = BM25_K1 * (1 - BM25_B + (BM25_B * (table.tokens[ord] as number)) / avgdl);
      at.avgdl = avgdl;
    }
    return norms;
  }

  /** The working arrays for `table` (prepared) and a base above every stamp written so far. */
  arrays(table: DocTable, avgdl: number, groups: number): SegmentArrays {
    const norms = this.normsOf(table, avgdl);
    const stamp = this.stamps();
    // A search stamps base … base + groups + 1.
    if (this.next + groups + 2 > 0x7fffffff) {
      stamp.fill(0);
      this.next = 1;
    }
    const base = this.next;
    this.next += groups + 2;
    return {
      stamp,
      scores: new Float64Array(this.buffer, this.scoresAt, this.docs),
      reachedList: new Int32Array(this.buffer, this.listAt, this.docs),
      norms,
      base,
    };
  }

  /** Brings the working arrays of the documents [from, until) into cache (score-kernel.wat's touch). */
  touch({ stamp, scores, norms }: SegmentArrays, from: number, until: number): void {
    this.kernel.touch(stamp.byteOffset, scores.byteOffset, norms.byteOffset, from, until);
  }

  /**
   * Keeps, in place, the ordinals of `reachedList[from, listed)` whose score times `most` is
   * not below `threshold`; returns where they now end (score-kernel.wat's cut).
   */
  cut(
    { scores, reachedList }: Pick<SegmentArrays, 'scores' | 'reachedList'>,
    from: number,
    listed: number,
    most: number,
    threshold: number,
  ): number {
    return this.kernel.cut(scores.byteOffset, reachedList.byteOffset, from, listed, most, threshold);
  }

  /**
   * Copies one segment's sources (blobs with their columns' weights, decoded lists) into
   * the blob area (prepared for their loadedBytes), replacing the last segment's: a cursor
   * for each.
   */
  load(sources: readonly Loadable[]): Array<BlobCursor | ListCursor> {
    if (loadedBytes(sources) > this.blobBytes)
      throw new Error('the scoring memory was not prepared for these blobs');
    const buffer = this.refresh();
    let at = this.blobAt;
    return sources.map((source): BlobCursor | ListCursor => {
      if ('hits' in source) {
        const { ords, freqs, runs } = source.hits;
        const ordsAt = at;
        const freqsAt = ordsAt + align8(ords.byteLength);
        new Int32Array(buffer, ordsAt, ords.length).set(ords);
        new Float64Array(buffer, freqsAt, freqs.length).set(freqs);
        at = freqsAt + freqs.byteLength;
        return { ordsAt, freqsAt, runs, at: runs.slice(0, -1) };
      }
      const { postings, columns } = source;
      const { weightOf, filter } = weightsByBit(columns);
      const weightsAt = at;
      new Float64Array(buffer, weightsAt, MASKS).fill(0).set(weightOf);
      const blobAt = weightsAt + WEIGHTS_BYTES;
      this.bytes.set(postings, blobAt);
      at = blobAt + align8(postings.length);
      const end = blobAt + postings.length;
      const left = postings.length === 0 ? -1 : this.kernel.count(blobAt);
      if (left < 0 || this.kernel.end.value > end) throw corruptSegment();
      return { weightsAt, filter, masks: weightOf.length, at: this.kernel.end.value, end, ord: -1, left };
    });
  }

  /**
   * score()'s sum over a loaded list (a prefix's expansions added up): each run's entries
   * with an ordinal below `until`.
   */
  scoreList(
    cursor: ListCursor,
    idf: number,
    first: boolean,
    sink: ScoreSink,
    until: number,
    listed: number,
  ): number {
    let count = listed;
    for (let r = 0; r < cursor.at.length; r++) {
      count = this.kernel.scoreList(
        cursor.at[r] as number,
        cursor.runs[r + 1] as number,
        until,
        cursor.ordsAt,
        cursor.freqsAt,
        ...sinkArgs(idf, first, sink, count),
      );
      cursor.at[r] = this.kernel.end.value;
    }
    return count;
  }

  /**
   * Adds `idf × bm25(freq)` of each entry of `cursor`'s blob (load) with an ordinal below
   * `until` to `sink` (arrays from arrays(), of a segment of `docs` documents) as it
   * decodes them, and moves the cursor past them: a segment is scored in windows of
   * ordinals, each window's working arrays in cache while every phrase adds to them (see
   * segment-scores.ts). In the search's first group every document counts; in later ones
   * only those that reached the group before. Returns the new length of `sink.reachedList`
   * (from `listed`).
   */
  score(
    cursor: BlobCursor,
    idf: number,
    first: boolean,
    sink: ScoreSink,
    docs: number,
    until: number,
    listed: number,
  ): number {
    const result = this.kernel.score(
      cursor.at,
      cursor.left,
      cursor.ord,
      until,
      cursor.weightsAt,
      cursor.filter,
      cursor.masks,
      docs,
      ...sinkArgs(idf, first, sink, listed),
    );
    cursor.at = this.kernel.end.value;
    cursor.ord = this.kernel.last.value;
    cursor.left = this.kernel.left.value;
    if (result < 0 || cursor.at > cursor.end) throw corruptSegment();
    return result;
  }
}

let kernel: ScoreKernel | null = null;

/** This thread's kernel, made on first use. */
export function scoreKernel(): ScoreKernel {
  kernel ??= new ScoreKernel();
  return kernel;
}

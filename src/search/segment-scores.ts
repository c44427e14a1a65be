// bm25 over postings segments, in three steps a second thread can share (rank-thread.ts):
// read each phrase's source per segment (one-term phrases: their postings blob, with the
// count of their matches read from the term's mask counts; other phrases: their matches,
// decoded), count each phrase's live matches (its idf needs every segment's count), then
// score each segment's matches, decoding blobs as they are scored. The formula is FTS5's bm25
// (k1 1.2, b 0.75, idf floored at 1e-6, the weighted frequency of each phrase saturated
// separately) over live documents only, times the recency and bulk multipliers.

import {
  type BlobCursor,
  type DocTable,
  FLAG_BULK,
  FLAG_UNTRUSTED,
  BM25_K1 as K1,
  type ListCursor,
  loadedBytes,
  type ScoreSink,
  type Segment,
  scoreKernel,
} from '../index/index.js';
import type { Db } from '../store/index.js';
import type { PostingsPhrase } from './match.js';
import { maskCount, type PhraseSource, phraseSource } from './phrase-hits.js';
import type { RankContext } from './ranked-query.js';
import { BULK_FACTOR } from './weights.js';

const DAY_MS = 86_400_000;

export type Groups = ReadonlyArray<readonly PostingsPhrase[]>;

/** Scored matches: parallel arrays, in segment order. */
export interface ScoredHits {
  readonly length: number;
  readonly rowids: Float64Array;
  readonly dates: Float64Array;
  readonly scores: Float64Array;
  /**
   * Matches scoring below this were left out (0: none was), and at least the `keep` asked
   * for score at or above it: the order of those kept is the whole order's down to its
   * last row at or above the floor.
   */
  readonly floor: number;
}

/** Every phrase's source in each segment: `[segment][phrase]`. */
export function readSegments(
  db: Db,
  segments: readonly Segment[],
  phrases: readonly PostingsPhrase[],
  weights: readonly number[],
): PhraseSource[][] {
  return segments.map((segment) => phrases.map((phrase) => phraseSource(db, segment, phrase, weights)));
}

/** Each phrase's live matches over `segments`: its share of bm25's document count. */
export function liveCounts(
  segments: readonly Segment[],
  sources: readonly (readonly PhraseSource[])[],
  phrases: number,
): number[] {
  const counts = new Array<number>(phrases).fill(0);
  segments.forEach(({ dead }, s) => {
    for (let p = 0; p < phrases; p++) {
      const source = (sources[s] as readonly PhraseSource[])[p] as PhraseSource;
      // A blob's live matches were counted when it was read (phraseSource).
      if (!('hits' in source)) {
        counts[p] = (counts[p] as number) + source.matches;
        continue;
      }
      const { ords } = source.hits;
      if (dead === null) {
        counts[p] = (counts[p] as number) + ords.length;
        continue;
      }
      let n = 0;
      for (let i = 0; i < ords.length; i++) n += 1 - (dead[ords[i] as number] as number);
      counts[p] = (counts[p] as number) + n;
    }
  });
  return counts;
}

/**
 * Each phrase's live matches in `segment` from mask counts alone (maskCount), or null when
 * one of them needs its documents read: what the calling thread reads of the rank thread's
 * segments, to split the work and instead of waiting for the thread to count them.
 */
export function maskCounts(
  db: Db,
  segment: Segment,
  phrases: readonly PostingsPhrase[],
  weights: readonly number[],
): number[] | null {
  const counts: number[] = [];
  for (const phrase of phrases) {
    const n = maskCount(db, segment, phrase, weights);
    if (n === null) return null;
    counts.push(n);
  }
  return counts;
}

/** bm25's idf of each phrase from its live matches among `documents`. */
export function inverseFrequencies(counts: readonly number[], documents: number): number[] {
  return counts.map((n) => {
    const value = Math.log((documents - n + 0.5) / (n + 0.5));
    return value <= 0 ? IDF_FLOOR : value;
  });
}

/** bm25's idf of a phrase in half the documents or more. */
const IDF_FLOOR = 1e-6;

/** What scoring needs beyond the phrases' sources: the same for every segment of a search. */
export interface ScoreInputs {
  readonly groups: Groups;
  readonly idf: readonly number[];
  readonly avgdl: number;
  /** With it, bm25 × recency × bulk of the matches it may show; without, bare bm25 of every live match. */
  readonly ctx: RankContext | null;
  /**
   * Only the first `keep` matches in rank order will be read: a match below the `keep`-th
   * best seen so far is left out (ScoredHits.floor). A broad query has hundreds of thousands
   * of matches, and each kept costs three stored floats and a place in the ranking's heap.
   */
  readonly keep?: number | null;
  /**
   * Every doc table of the view searched, when a search's segments are shared between
   * threads (rank-thread.ts): the scoring memory is laid out for them all, so that a thread
   * scoring one share of them, then another, does not lay it out again (norms recomputed,
   * stamps cleared). The rank thread's alternating shares did so in 32 of 100 searches.
   */
  readonly tables?: readonly DocTable[];
}

/**
 * The `size` best scores seen so far, in a min-heap: once it is full, its root is the
 * score a match must reach to be among them, and a match below that can be left out.
 */
class BestScores {
  private readonly heap: Float64Array;
  private count = 0;

  constructor(private readonly size: number) {
    this.heap = new Float64Array(size);
  }

  /** The score a match must reach to stay among the best: -∞ until `size` were seen. */
  threshold(): number {
    return this.count < this.size ? Number.NEGATIVE_INFINITY : (this.heap[0] as number);
  }

  /** Counts `score` in, when it reaches the threshold. */
  offer(score: number): void {
    const heap = this.heap;
    if (this.count < this.size) {
      let i = this.count++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if ((heap[parent] as number) <= score) break;
        heap[i] = heap[parent] as number;
        i = parent;
      }
      heap[i] = score;
      return;
    }
    if (score <= (heap[0] as number)) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= this.size) break;
      const r = l + 1;
      const child = r < this.size && (heap[r] as number) < (heap[l] as number) ? r : l;
      if ((heap[child] as number) >= score) break;
      heap[i] = heap[child] as number;
      i = child;
    }
    heap[i] = score;
  }
}

/**
 * Every live match in `segments` with its score: with `ctx`, bm25 × recency × bulk of the
 * matches `ctx` may show (before the exclusion labels, read per head); without, the bare
 * bm25 of every live match (explain's per-column passes).
 */
export function scoreSegments(
  segments: readonly Segment[],
  sources: readonly (readonly PhraseSource[])[],
  { groups, idf, avgdl, ctx, keep = null, tables }: ScoreInputs,
): ScoredHits {
  const blobBytes = sources.reduce((most, own) => Math.max(most, loadedBytes(own)), 0);
  scoreKernel().prepare(tables ?? segments.map((segment) => segment.table), blobBytes, avgdl);
  const collector = new MatchCollector(ctx !== null && keep !== null ? new BestScores(keep) : null);
  segments.forEach((segment, s) => {
    const recency = ctx === null ? null : recencyFactors(segment.table, ctx);
    sumSegment(segment.table, sources[s] as readonly PhraseSource[], { groups, idf, avgdl }, (matches) => {
      if (ctx === null || recency === null) collector.everyLive(segment, matches);
      else collector.shown(segment, matches, ctx, recency);
    });
  });
  return collector.hits();
}

/**
 * One window of a segment's summed matches: `scores[ord]` for each ordinal of
 * `reachedList[from, listed)`.
 */
interface SegmentMatches {
  readonly scores: Float64Array;
  readonly reachedList: Int32Array;
  readonly from: number;
  readonly listed: number;
  /** The window's number: its ordinals are from window × WINDOW on. */
  readonly window: number;
}

/**
 * The scored matches of a search's segments, in segment order. Its loops run once per
 * match of every segment (80-400k for two common words at 1M), so each is a method over
 * local variables (not a closure's captured ones), and a match is left out on its bm25 ×
 * recency, not bm25 × the largest multiplier: measured on eight such queries, 1-7k of
 * their matches now read their doc table row where 10-125k did, and the loop takes 4-8 ms
 * a query where it took 4-19.
 */
class MatchCollector {
  private rowids: Float64Array = new Float64Array(0);
  private dates: Float64Array = new Float64Array(0);
  private scores: Float64Array = new Float64Array(0);
  private n = 0;
  private dropped = false;

  /** With `best`, a match below the `keep`-th best score seen so far is left out. */
  constructor(private readonly best: BestScores | null) {
    if (best !== null) this.reserve(PRUNED_CAPACITY);
  }

  /** Room for `more` matches past those kept. */
  private reserve(more: number): void {
    const need = this.n + more;
    if (need <= this.rowids.length) return;
    const capacity = Math.max(need, this.rowids.length * 2);
    const grow = (from: Float64Array): Float64Array => {
      const to = new Float64Array(capacity);
      to.set(from.subarray(0, this.n));
      return to;
    };
    this.rowids = grow(this.rowids);
    this.dates = grow(this.dates);
    this.scores = grow(this.scores);
  }

  /** Every live match with its bare bm25. */
  everyLive({ table, dead }: Segment, { scores, reachedList, from, listed }: SegmentMatches): void {
    this.reserve(listed - from);
    for (let i = from; i < listed; i++) {
      const ord = reachedList[i] as number;
      if (dead !== null && dead[ord] === 1) continue;
      const n = this.n++;
      this.rowids[n] = table.rowids[ord] as number;
      this.dates[n] = table.dates[ord] as number;
      this.scores[n] = scores[ord] as number;
    }
  }

  /**
   * The matches `ctx` may show, scored bm25 × recency × bulk. With a best-scores bound,
   * a match whose bm25 × recency (bulk only lowers it) is below the bound is left out
   * before any more of its doc table row is read: most matches of a broad query are, and
   * most on their bm25 × the window's largest recency, before their own is read.
   */
  shown(
    { table, dead }: Segment,
    { scores, reachedList, from, listed, window }: SegmentMatches,
    ctx: RankContext,
    { factors: recency, windowMax }: Recency,
  ): void {
    const best = this.best;
    const most = windowMax[window] as number;
    if (best === null) this.reserve(listed - from);
    // The bound, read again only when an offer moves it.
    let threshold = best !== null ? best.threshold() : Number.NEGATIVE_INFINITY;
    let dropped = false;
    const { watermark, inboxId, after, before } = ctx;
    // Most of a broad query's matches fall below the bound: left out in the kernel first
    // (the window's part of the list is not read again), then here as the bound rises.
    let end = listed;
    if (threshold > Number.NEGATIVE_INFINITY) {
      end = scoreKernel().cut({ scores, reachedList }, from, listed, most, threshold);
      if (end < listed) dropped = true;
    }
    for (let i = from; i < end; i++) {
      const ord = reachedList[i] as number;
      const bm25 = scores[ord] as number;
      // Rounding is monotonic: below the threshold times the largest factor, below it times any.
      if (bm25 * most < threshold) {
        dropped = true;
        continue;
      }
      const boosted = bm25 * (recency[ord] as number);
      if (boosted < threshold) {
        dropped = true;
        continue;
      }
      if (dead !== null && dead[ord] === 1) continue;
      const rowid = table.rowids[ord] as number;
      const date = table.dates[ord] as number;
      const flags = table.flags[ord] as number;
      if (
        rowid > watermark ||
        (flags & FLAG_UNTRUSTED) !== 0 ||
        (inboxId !== 0 && table.inboxes[ord] !== inboxId) ||
        (after !== null && date < after) ||
        (before !== null && date >= before)
      )
        continue;
      const final = flags & FLAG_BULK ? boosted * BULK_FACTOR : boosted;
      if (best !== null) {
        if (final < threshold) {
          dropped = true;
          continue;
        }
        best.offer(final);
        threshold = best.threshold();
        this.reserve(1);
      }
      const n = this.n++;
      this.rowids[n] = rowid;
      this.dates[n] = date;
      this.scores[n] = final;
    }
    if (dropped) this.dropped = true;
  }

  hits(): ScoredHits {
    const n = this.n;
    return {
      length: n,
      rowids: this.rowids.subarray(0, n),
      dates: this.dates.subarray(0, n),
      scores: this.scores.subarray(0, n),
      // Left out: below the `keep`-th best score seen when they came, at most the last one's.
      floor: this.dropped ? (this.best as BestScores).threshold() : 0,
    };
  }
}

/**
 * Documents a window of a segment holds: its working arrays (stamps, sums and norms, 20
 * bytes a document) stay in a core's cache while every phrase adds to them. Scored whole,
 * a 450k-document segment's 9 MB were fetched again from memory by each phrase: a sparse
 * list (one entry in ~15 documents) then cost 60-110 ns an entry on this project's 2-core
 * VM, where a dense one costs ~10. In windows, the bench's 200 two-word queries at 1M (one
 * thread, interleaved with the whole-segment build): p50 39.1 → 32.0 ms. 4k-32k windows
 * measured alike.
 */
const WINDOW = 8_192;

/**
 * Postings entries a window must average for its working arrays to be swept into cache first
 * (sumSegment). Sweeping every window cost an identifier query ~1 ms (p50 3.7 → 2.4 ms without).
 */
const SWEPT_ENTRIES = 128;

/** What summing a segment needs beyond its phrases' sources: the same for every segment. */
interface SumInputs {
  readonly groups: Groups;
  readonly idf: readonly number[];
  readonly avgdl: number;
}

/**
 * Sums one segment's bm25 in its working arrays, a window of ordinals at a time, and hands
 * each window's matches to `collect`: `scores[ord]` for each of the documents that hold every
 * group. stamp[ord] − base = groups matched so far, in group order (older searches' stamps
 * are below base): a document matches when it reaches them all. Its score is summed while it
 * keeps up, phrase by phrase as FTS5 does (equal inputs, equal floats); the first phrase of a
 * search to reach it overwrites what an older search left there.
 */
function sumSegment(
  table: DocTable,
  sources: readonly PhraseSource[],
  { groups, idf, avgdl }: SumInputs,
  collect: (matches: SegmentMatches) => void,
): void {
  const kernel = scoreKernel();
  const arrays = kernel.arrays(table, avgdl, groups.length);
  const { stamp, scores, reachedList, norms, base } = arrays;
  const cursors = kernel.load(sources);
  const sinks = groups.map(
    (_, g): ScoreSink => ({
      stamp,
      scores,
      norms,
      k1: K1,
      reaching: base + g,
      reached: base + g + 1,
      reachedList: g === groups.length - 1 ? reachedList : null,
    }),
  );
  const docs = table.length;
  // A list reading a line in one of every few is faster swept first, its lines then in
  // cache (bench two- and three-word queries, one thread, interleaved: −6% and −5% at the
  // median); a sweep of a window's 2,560 lines costs as much as ~128 lines fetched one at a
  // time, so a segment with fewer entries a window is not swept (an address's few matches).
  const entries = cursors.reduce(
    (sum, cursor) => sum + ('runs' in cursor ? (cursor.runs.at(-1) as number) : cursor.left),
    0,
  );
  const sweep = entries >= (docs / WINDOW) * SWEPT_ENTRIES;
  let listed = 0;
  for (let from = 0; from < docs; from += WINDOW) {
    const until = Math.min(docs, from + WINDOW);
    const start = listed;
    if (sweep) kernel.touch(arrays, from, until);
    let p = 0;
    for (let g = 0; g < groups.length; g++) {
      const sink = sinks[g] as ScoreSink;
      for (const end = p + (groups[g] as readonly PostingsPhrase[]).length; p < end; p++) {
        const cursor = cursors[p] as BlobCursor | ListCursor;
        const weight = idf[p] as number;
        listed =
          'runs' in cursor
            ? kernel.scoreList(cursor, weight, g === 0, sink, until, listed)
            : kernel.score(cursor, weight, g === 0, sink, docs, until, listed);
      }
    }
    collect({ scores, reachedList, from: start, listed, window: from / WINDOW });
  }
}

/** First size of the output when matches may be left out (it grows by doubling). */
const PRUNED_CAPACITY = 16_384;

/**
 * Every document's recency multiplier, kept per doc table for the last origin and decay
 * asked: the origin moves once an hour, so a process computes them once per segment and hour.
 */
const recencyCache = new WeakMap<DocTable, { key: string; recency: Recency }>();

/** A segment's recency multipliers, and the largest in each window of ordinals (sumSegment's). */
interface Recency {
  readonly factors: Float64Array;
  readonly windowMax: Float64Array;
}

function recencyFactors(table: DocTable, ctx: RankContext): Recency {
  const key = `${ctx.origin}:${ctx.maxBoost}:${ctx.halfLifeDays}`;
  const cached = recencyCache.get(table);
  if (cached?.key === key) return cached.recency;
  const boost = ctx.maxBoost - 1;
  const halfLife = ctx.halfLifeDays * DAY_MS;
  const factors = new Float64Array(table.length);
  const windowMax = new Float64Array(Math.ceil(table.length / WINDOW));
  for (let ord = 0; ord < table.length; ord++) {
    const factor = 1.0 + boost * 2.0 ** (-Math.max(0, ctx.origin - (table.dates[ord] as number)) / halfLife);
    factors[ord] = factor;
    const w = Math.floor(ord / WINDOW);
    if (factor > (windowMax[w] as number)) windowMax[w] = factor;
  }
  const recency = { factors, windowMax };
  recencyCache.set(table, { key, recency });
  return recency;
}

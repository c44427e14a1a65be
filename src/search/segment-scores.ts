// bm25 over postings segments, in three steps a second thread can share (rank-thread.ts):
// read each phrase's source per segment (one-term phrases: their postings blob, with the
// count of their matches read from the term's mask counts; other phrases: their matches,
// decoded), count each phrase's live matches (its idf needs every segment's count), then
// score each segment's matches, decoding blobs as they are scored. The formula is FTS5's bm25
// (k1 1.2, b 0.75, idf floored at 1e-6, the weighted frequency of each phrase saturated
// separately) over live documents only, times the recency and bulk multipliers.

import {
  type DocTable,
  FLAG_BULK,
  FLAG_UNTRUSTED,
  BM25_K1 as K1,
  type ScoreSink,
  type Segment,
  scoreKernel,
} from '../index/index.js';
import type { Db } from '../store/index.js';
import type { PostingsPhrase } from './match.js';
import { maskCount, type PhraseHits, type PhraseSource, phraseSource } from './phrase-hits.js';
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
  { groups, idf, avgdl, ctx, keep = null }: ScoreInputs,
): ScoredHits {
  // The best `keep` scores seen: a match below the `keep`-th best so far is left out.
  const best = ctx !== null && keep !== null ? new BestScores(keep) : null;
  let dropped = false;
  // What recency × bulk multiply a bm25 score by at most: a match whose bm25 times this is
  // below the best's threshold is left out before its doc table row is read.
  const ceiling = ctx === null ? 1 : Math.max(1, ctx.maxBoost) * Math.max(1, BULK_FACTOR);
  let out = scoredArrays(best !== null ? PRUNED_CAPACITY : 0);
  let n = 0;
  let largestBlob = 0;
  for (const own of sources)
    for (const source of own)
      if ('postings' in source) largestBlob = Math.max(largestBlob, source.postings.length);
  scoreKernel().prepare(
    segments.map((segment) => segment.table),
    largestBlob,
    avgdl,
  );
  segments.forEach((segment, s) => {
    const { table, dead } = segment;
    const matches = sumSegment(table, sources[s] as readonly PhraseSource[], groups, idf, avgdl);
    const recency = ctx ? recencyFactors(table, ctx) : null;
    const { scores, reachedList, listed } = matches;
    if (best === null && n + listed > out.rowids.length) out = grown(out, n + listed);
    // The best's threshold, read again only when an offer moves it.
    let threshold = best !== null ? best.threshold() : Number.NEGATIVE_INFINITY;
    for (let i = 0; i < listed; i++) {
      const ord = reachedList[i] as number;
      const score = scores[ord] as number;
      if (score * ceiling < threshold) {
        dropped = true;
        continue;
      }
      if (dead !== null && dead[ord] === 1) continue;
      const rowid = table.rowids[ord] as number;
      const date = table.dates[ord] as number;
      let final = score;
      if (ctx !== null && recency !== null) {
        const flags = table.flags[ord] as number;
        if (
          rowid > ctx.watermark ||
          (flags & FLAG_UNTRUSTED) !== 0 ||
          (ctx.inboxId !== 0 && table.inboxes[ord] !== ctx.inboxId) ||
          (ctx.after !== null && date < ctx.after) ||
          (ctx.before !== null && date >= ctx.before)
        )
          continue;
        final = score * (recency[ord] as number) * (flags & FLAG_BULK ? BULK_FACTOR : 1.0);
      }
      if (best !== null) {
        if (final < threshold) {
          dropped = true;
          continue;
        }
        best.offer(final);
        threshold = best.threshold();
        if (n === out.rowids.length) out = grown(out, Math.max(PRUNED_CAPACITY, n * 2));
      }
      out.rowids[n] = rowid;
      out.dates[n] = date;
      out.scores[n++] = final;
    }
  });
  return {
    length: n,
    rowids: out.rowids.subarray(0, n),
    dates: out.dates.subarray(0, n),
    scores: out.scores.subarray(0, n),
    // Left out: below the `keep`-th best score seen when they came, at most the last one's.
    floor: dropped ? (best as BestScores).threshold() : 0,
  };
}

/**
 * Sums one segment's bm25 in its working arrays: `scores[ord]` for each of the
 * `reachedList[0, listed)` documents that hold every group. stamp[ord] − base = groups
 * matched so far, in group order (older searches' stamps are below base): a document
 * matches when it reaches them all. Its score is summed while it keeps up, phrase by phrase
 * as FTS5 does (equal inputs, equal floats); the first phrase of a search to reach it
 * overwrites what an older search left there.
 */
function sumSegment(
  table: DocTable,
  sources: readonly PhraseSource[],
  groups: Groups,
  idf: readonly number[],
  avgdl: number,
): { scores: Float64Array; reachedList: Int32Array; listed: number } {
  const kernel = scoreKernel();
  const { stamp, scores, reachedList, norms, base } = kernel.arrays(table, avgdl, groups.length);
  let listed = 0;
  let p = 0;
  for (let g = 0; g < groups.length; g++) {
    const sink: ScoreSink = {
      stamp,
      scores,
      norms,
      k1: K1,
      reaching: base + g,
      reached: base + g + 1,
      reachedList: g === groups.length - 1 ? reachedList : null,
    };
    for (const end = p + (groups[g] as readonly PostingsPhrase[]).length; p < end; p++) {
      const source = sources[p] as PhraseSource;
      const weight = idf[p] as number;
      listed =
        'hits' in source
          ? sumHits(source.hits, weight, g === 0, sink, listed)
          : kernel.score(source.postings, source.columns, weight, g === 0, sink, table.length, listed);
    }
  }
  return { scores, reachedList, listed };
}

/**
 * The kernel's sum (score-kernel.wat), in JavaScript, over decoded hits: a prefix's
 * expansions added up.
 */
function sumHits(hits: PhraseHits, weight: number, first: boolean, sink: ScoreSink, listed: number): number {
  const { ords, freqs } = hits;
  const { stamp, scores, norms, reaching, reached, reachedList } = sink;
  let count = listed;
  for (let i = 0; i < ords.length; i++) {
    const ord = ords[i] as number;
    const was = stamp[ord] as number;
    const f = freqs[i] as number;
    if (first) {
      const term = weight * ((f * (K1 + 1.0)) / (f + (norms[ord] as number)));
      if (was === reached) scores[ord] = (scores[ord] as number) + term;
      else {
        if (reachedList !== null) reachedList[count++] = ord;
        stamp[ord] = reached;
        scores[ord] = term;
      }
      continue;
    }
    if (was === reaching) {
      if (reachedList !== null) reachedList[count++] = ord;
      stamp[ord] = reached;
    } else if (was !== reached) continue;
    scores[ord] = (scores[ord] as number) + weight * ((f * (K1 + 1.0)) / (f + (norms[ord] as number)));
  }
  return count;
}

/** First size of the output when matches may be left out (it grows by doubling). */
const PRUNED_CAPACITY = 16_384;

type ScoredArrays = Pick<ScoredHits, 'rowids' | 'dates' | 'scores'>;

function scoredArrays(capacity: number): ScoredArrays {
  return {
    rowids: new Float64Array(capacity),
    dates: new Float64Array(capacity),
    scores: new Float64Array(capacity),
  };
}

/** `out` copied into arrays of `capacity` entries. */
function grown(out: ScoredArrays, capacity: number): ScoredArrays {
  const next = scoredArrays(capacity);
  next.rowids.set(out.rowids);
  next.dates.set(out.dates);
  next.scores.set(out.scores);
  return next;
}

/**
 * Every document's recency multiplier, kept per doc table for the last origin and decay
 * asked: the origin moves once an hour, so a process computes them once per segment and hour.
 */
const recencyCache = new WeakMap<DocTable, { key: string; factors: Float64Array }>();

function recencyFactors(table: DocTable, ctx: RankContext): Float64Array {
  const key = `${ctx.origin}:${ctx.maxBoost}:${ctx.halfLifeDays}`;
  const cached = recencyCache.get(table);
  if (cached?.key === key) return cached.factors;
  const boost = ctx.maxBoost - 1;
  const halfLife = ctx.halfLifeDays * DAY_MS;
  const factors = new Float64Array(table.length);
  for (let ord = 0; ord < table.length; ord++)
    factors[ord] = 1.0 + boost * 2.0 ** (-Math.max(0, ctx.origin - (table.dates[ord] as number)) / halfLife);
  recencyCache.set(table, { key, factors });
  return factors;
}

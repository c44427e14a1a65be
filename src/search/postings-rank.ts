// Relevance ranking over the postings index (src/index/postings-*.ts): weighted bm25 of
// every match computed in typed arrays from each phrase's matches (phrase-hits.ts), times
// the recency and bulk multipliers, then the exact head of that order. Every agent query
// whose terms are whole FTS5 tokens ranks here; fuzzy fill stays on FTS5.

// Why (measured on 100k messages): FTS5 computes bm25 through its auxiliary-function API
// at ~0.8 µs per matching row, so a word in half the archive costs ~40 ms before any
// ranking. Here a match costs a varint decode and a few float operations. The formula is
// FTS5's bm25 (k1 1.2, b 0.75, idf floored at 1e-6, the weighted frequency of each phrase
// saturated separately) over live documents only: FTS5's contentless_delete tables keep
// deleted rows in their row count and token total, so its scores drift with re-indexing.

import {
  COLUMNS,
  type Column,
  type DocTable,
  FLAG_BULK,
  FLAG_UNTRUSTED,
  openPostings,
  type PostingsView,
  type Segment,
} from '../index/index.js';
import { type Db, sql } from '../store/index.js';
import type { PostingsPhrase } from './match.js';
import type { KeysetPosition } from './page-token.js';
import { type PhraseHits, phraseHits } from './phrase-hits.js';
import type { RankContext, RankedRow, TopRows } from './ranked-query.js';
import { BULK_FACTOR, COLUMN_WEIGHTS } from './weights.js';

const K1 = 1.2;
const B = 0.75;
const DAY_MS = 86_400_000;

type Groups = ReadonlyArray<readonly PostingsPhrase[]>;

/** Every match `ctx` may show (before the exclusion labels, read per head), with its score. */
export interface ScoredHits {
  readonly length: number;
  readonly rowids: Float64Array;
  readonly dates: Float64Array;
  readonly scores: Float64Array;
}

/** Live documents among `hits`: bm25's document count for the phrase. */
function liveCount(hits: PhraseHits, segment: Segment): number {
  if (segment.dead.size === 0) return hits.ords.length;
  let n = 0;
  for (const ord of hits.ords) if (!segment.dead.has(segment.table.rowids[ord] as number)) n++;
  return n;
}

/**
 * Every live match in every segment with its score: with `ctx`, bm25 × recency × bulk of
 * the matches `ctx` may show (before the exclusion labels, read per head); without, the
 * bare bm25 of every live match (explain's per-column passes).
 */
function rank(
  db: Db,
  view: PostingsView,
  groups: Groups,
  weights: readonly number[],
  ctx: RankContext | null,
): ScoredHits {
  const phrases = groups.flat();
  const hits = view.segments.map((segment) =>
    phrases.map((phrase) => phraseHits(db, segment, phrase, weights)),
  );
  const idf = phrases.map((_, p) => {
    let n = 0;
    view.segments.forEach((segment, s) => {
      n += liveCount(hits[s]?.[p] as PhraseHits, segment);
    });
    const value = Math.log((view.documents - n + 0.5) / (n + 0.5));
    return value <= 0 ? 1e-6 : value;
  });
  const avgdl = view.tokens / view.documents;
  // Every match holds a phrase of the last group: the output is at most their total.
  const lastGroup = phrases.length - (groups.at(-1)?.length ?? 0);
  let capacity = 0;
  for (const segmentHits of hits)
    for (let p = lastGroup; p < phrases.length; p++) capacity += (segmentHits[p] as PhraseHits).ords.length;
  const out = {
    rowids: new Float64Array(capacity),
    dates: new Float64Array(capacity),
    scores: new Float64Array(capacity),
  };
  let n = 0;
  view.segments.forEach((segment, s) => {
    const table = segment.table;
    const segmentHits = hits[s] as PhraseHits[];
    const norms = lengthNorms(table, avgdl);
    const recency = ctx ? recencyFactors(table, ctx) : null;
    const { stamp, scores, base } = scratch(table.length, groups.length);
    // stamp[ord] − base = groups matched so far, in group order (older searches' stamps
    // are below base): a document matches when it reaches them all. Its score is summed
    // while it keeps up, phrase by phrase as FTS5 does (equal inputs, equal floats); the
    // first phrase of a search to reach it overwrites what an older search left there.
    let p = 0;
    for (let g = 0; g < groups.length; g++) {
      const reaching = base + g;
      const reached = reaching + 1;
      for (const end = p + (groups[g] as readonly PostingsPhrase[]).length; p < end; p++) {
        const { ords, freqs } = segmentHits[p] as PhraseHits;
        const weight = idf[p] as number;
        for (let i = 0; i < ords.length; i++) {
          const ord = ords[i] as number;
          const at = stamp[ord] as number;
          let sum: number;
          if (at === reached) sum = scores[ord] as number;
          else if (g === 0 ? at < base : at === reaching) {
            stamp[ord] = reached;
            sum = g === 0 ? 0 : (scores[ord] as number);
          } else continue;
          const f = freqs[i] as number;
          scores[ord] = sum + weight * ((f * (K1 + 1.0)) / (f + (norms[ord] as number)));
        }
      }
    }
    const full = base + groups.length;
    // Collected once each (stamped past full).
    for (let p = lastGroup; p < phrases.length; p++) {
      const list = (segmentHits[p] as PhraseHits).ords;
      for (let i = 0; i < list.length; i++) {
        const ord = list[i] as number;
        if (stamp[ord] !== full) continue;
        stamp[ord] = full + 1;
        const score = scores[ord] as number;
        const rowid = table.rowids[ord] as number;
        if (segment.dead.size > 0 && segment.dead.has(rowid)) continue;
        const date = table.dates[ord] as number;
        if (ctx === null || recency === null) {
          out.rowids[n] = rowid;
          out.dates[n] = date;
          out.scores[n++] = score;
          continue;
        }
        const flags = table.flags[ord] as number;
        if (
          rowid > ctx.watermark ||
          (flags & FLAG_UNTRUSTED) !== 0 ||
          (ctx.inboxId !== 0 && table.inboxes[ord] !== ctx.inboxId) ||
          (ctx.after !== null && date < ctx.after) ||
          (ctx.before !== null && date >= ctx.before)
        )
          continue;
        out.rowids[n] = rowid;
        out.dates[n] = date;
        out.scores[n++] = score * (recency[ord] as number) * (flags & FLAG_BULK ? BULK_FACTOR : 1.0);
      }
    }
  });
  return {
    length: n,
    rowids: out.rowids.subarray(0, n),
    dates: out.dates.subarray(0, n),
    scores: out.scores.subarray(0, n),
  };
}

/**
 * bm25's length normalisation of every document, K1·(1 − B + B·d/avgdl), kept per doc
 * table for the last average length: it moves only when the archive does.
 */
const normCache = new WeakMap<DocTable, { avgdl: number; norms: Float64Array }>();

function lengthNorms(table: DocTable, avgdl: number): Float64Array {
  const cached = normCache.get(table);
  if (cached?.avgdl === avgdl) return cached.norms;
  const norms = new Float64Array(table.length);
  for (let ord = 0; ord < table.length; ord++)
    norms[ord] = K1 * (1 - B + (B * (table.tokens[ord] as number)) / avgdl);
  normCache.set(table, { avgdl, norms });
  return norms;
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

/**
 * Per-segment working arrays, reused across searches: stamps are never cleared, each
 * search counting from a base above every older one, and a score is valid only where
 * its stamp is of this search.
 */
let scratchArrays = { stamp: new Int32Array(0), scores: new Float64Array(0), next: 1 };

/** The working arrays for a segment of `length` documents and a base above every stamp written so far. */
function scratch(length: number, groups: number): { stamp: Int32Array; scores: Float64Array; base: number } {
  let { stamp, scores, next } = scratchArrays;
  if (stamp.length < length) {
    const size = Math.max(length, stamp.length * 2);
    stamp = new Int32Array(size);
    scores = new Float64Array(size);
    next = 1;
  }
  // A search stamps base … base + groups + 1.
  if (next + groups + 2 > 0x7fffffff) {
    stamp.fill(0);
    next = 1;
  }
  scratchArrays = { stamp, scores, next: next + groups + 2 };
  return { stamp, scores, base: next };
}

/** Every match with its score (bm25 × recency × bulk), before exclusion labels. */
export function scoreHits(db: Db, ctx: RankContext, groups: Groups): ScoredHits {
  return rank(
    db,
    openPostings(db),
    groups,
    COLUMNS.map((c) => COLUMN_WEIGHTS[c]),
    ctx,
  );
}

/** a ranks before b: score desc, then date desc, then rowid desc. */
function before(hits: ScoredHits, a: number, b: number): boolean {
  const sa = hits.scores[a] as number;
  const sb = hits.scores[b] as number;
  if (sa !== sb) return sa > sb;
  const da = hits.dates[a] as number;
  const db = hits.dates[b] as number;
  if (da !== db) return da > db;
  return (hits.rowids[a] as number) > (hits.rowids[b] as number);
}

/** Indexes of the first k hits (among `among`, all when null) in rank order. */
function select(hits: ScoredHits, k: number, among: Int32Array | null): number[] {
  // A min-heap on rank of the best k seen: most hits lose to its root and cost one comparison.
  const heap: number[] = [];
  const size = among ? among.length : hits.length;
  const sift = (from: number): void => {
    let i = from;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let worst = i;
      if (l < heap.length && before(hits, heap[worst] as number, heap[l] as number)) worst = l;
      if (r < heap.length && before(hits, heap[worst] as number, heap[r] as number)) worst = r;
      if (worst === i) return;
      [heap[i], heap[worst]] = [heap[worst] as number, heap[i] as number];
      i = worst;
    }
  };
  for (let j = 0; j < size; j++) {
    const h = among ? (among[j] as number) : j;
    if (heap.length < k) {
      heap.push(h);
      let i = heap.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!before(hits, heap[parent] as number, heap[i] as number)) break;
        [heap[i], heap[parent]] = [heap[parent] as number, heap[i] as number];
        i = parent;
      }
    } else if (k > 0 && before(hits, h, heap[0] as number)) {
      heap[0] = h;
      sift(0);
    }
  }
  return heap.sort((a, b) => (before(hits, a, b) ? -1 : 1));
}

interface DocState {
  readonly excluded: number;
  readonly inboxId: number;
  readonly threadId: string;
}

function docStates(db: Db, rowids: readonly number[]): Map<number, DocState> {
  const rows = sql(
    db,
    `SELECT rowid, excluded, inbox_id AS inboxId, thread_id AS threadId FROM keyword_docs
     WHERE rowid IN (SELECT value FROM json_each(?))`,
  ).all(JSON.stringify(rowids)) as Array<DocState & { rowid: number }>;
  return new Map(rows.map((row) => [row.rowid, row]));
}

/**
 * The first `k` hits in rank order that no exclusion label hides (labels change after
 * indexing, so they are read from keyword_docs for the head only), with their threads.
 * `among` limits the ranking to those hit indexes.
 */
function head(db: Db, hits: ScoredHits, k: number, among: Int32Array | null = null): RankedRow[] {
  for (let depth = k; ; depth *= 4) {
    const picked = select(hits, depth, among);
    const states = docStates(
      db,
      picked.map((h) => hits.rowids[h] as number),
    );
    const rows: RankedRow[] = [];
    for (const h of picked) {
      const rowid = hits.rowids[h] as number;
      const state = states.get(rowid);
      if (!state || state.excluded) continue;
      rows.push({
        rowid,
        date: hits.dates[h] as number,
        score: hits.scores[h] as number,
        inboxId: state.inboxId,
        threadId: state.threadId,
      });
      if (rows.length === k) return rows;
    }
    if (picked.length < depth) return rows;
  }
}

/** The exact first `need` messages, and whether any follows. */
export function topMessagesByPostings(db: Db, hits: ScoredHits, need: number): TopRows {
  const rows = head(db, hits, need + 1);
  return { rows: rows.slice(0, need), more: rows.length > need };
}

/** The first `need` threads in rank order: each thread's first (best) message in the message order. */
export function topThreadsByPostings(db: Db, hits: ScoredHits, need: number): TopRows {
  const threads = threadOrder(db, hits, need + 1, null);
  return { rows: threads.slice(0, need), more: threads.length > need };
}

/** Up to n threads in rank order whose best message ranks after `position` (all when null). */
function threadOrder(db: Db, hits: ScoredHits, n: number, position: KeysetPosition | null): RankedRow[] {
  const anchor = position && anchorScore(db, hits, position);
  for (let depth = (n + 1) * 3; ; depth *= 4) {
    const messages = head(db, hits, depth);
    const threads: RankedRow[] = [];
    const seen = new Set<string>();
    for (const row of messages) {
      const key = `${row.inboxId}:${row.threadId}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (position && anchor !== null && !after(row, anchor, position)) continue;
      threads.push({ rowid: row.rowid, date: row.date, score: row.score, thread: key });
      if (threads.length === n) return threads;
    }
    if (messages.length < depth) return threads;
  }
}

/**
 * The live score of the message a page ended on (inserts and deletes move bm25's
 * statistics between requests, and comparing with the live score keeps the boundary where
 * the previous page put it), or the token's when that message no longer matches.
 */
function anchorScore(db: Db, hits: ScoredHits, position: KeysetPosition): number {
  for (let h = 0; h < hits.length; h++) {
    if (hits.rowids[h] !== position.rowid) continue;
    const state = docStates(db, [position.rowid]).get(position.rowid);
    return state && !state.excluded ? (hits.scores[h] as number) : position.score;
  }
  return position.score;
}

/** `row` ranks after the position (whose score is now `anchor`). */
function after(
  row: { score: number; date: number; rowid: number },
  anchor: number,
  position: KeysetPosition,
): boolean {
  return (
    row.score < anchor ||
    (row.score === anchor &&
      (row.date < position.date || (row.date === position.date && row.rowid < position.rowid)))
  );
}

/** Up to n messages after `position` in rank order. */
export function rankMessagesByPostings(
  db: Db,
  hits: ScoredHits,
  position: KeysetPosition | null,
  n: number,
): RankedRow[] {
  if (position === null) return head(db, hits, n);
  const anchor = anchorScore(db, hits, position);
  const later: number[] = [];
  for (let h = 0; h < hits.length; h++) {
    const row = {
      score: hits.scores[h] as number,
      date: hits.dates[h] as number,
      rowid: hits.rowids[h] as number,
    };
    if (after(row, anchor, position)) later.push(h);
  }
  return head(db, hits, n, Int32Array.from(later));
}

/** Up to n threads after `position`, each standing as its best message. */
export function rankThreadsByPostings(
  db: Db,
  hits: ScoredHits,
  position: KeysetPosition | null,
  n: number,
): RankedRow[] {
  return threadOrder(db, hits, n, position);
}

/**
 * Each column's bm25 for `rowids` as if it were the only one weighted (the same
 * statistics as the ranking: see columnContributions in ranked-query.ts).
 */
export function contributionsByPostings(
  db: Db,
  groups: Groups,
  rowids: readonly number[],
): Map<number, Record<Column, number>> {
  const result = new Map<number, Record<Column, number>>();
  const wanted = new Set(rowids);
  const view = openPostings(db);
  for (const [c, column] of COLUMNS.entries()) {
    // A zero-weight column (`kind`) contributes nothing: no pass for it.
    if (COLUMN_WEIGHTS[column] === 0) continue;
    const oneHot = COLUMNS.map((other, j) => (j === c ? COLUMN_WEIGHTS[other] : 0));
    const scored = rank(db, view, groups, oneHot, null);
    for (let h = 0; h < scored.length; h++) {
      const rowid = scored.rowids[h] as number;
      if (!wanted.has(rowid)) continue;
      let row = result.get(rowid);
      if (!row) {
        row = Object.fromEntries(COLUMNS.map((name) => [name, 0])) as Record<Column, number>;
        result.set(rowid, row);
      }
      row[column] = scored.scores[h] as number;
    }
  }
  return result;
}

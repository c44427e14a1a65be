// Relevance ranking over the postings index (src/index/postings-*.ts): weighted bm25 of
// every match computed in typed arrays from each phrase's matches (segment-scores.ts),
// times the recency and bulk multipliers, then the exact head of that order. Every agent
// query whose terms are whole FTS5 tokens ranks here, its fuzzy fill too.

// Why (measured on 100k messages): FTS5 computes bm25 through its auxiliary-function API
// at ~0.8 µs per matching row, so a word in half the archive costs ~40 ms before any
// ranking. Here a match costs a varint decode and a few float operations. The formula is
// FTS5's bm25 (k1 1.2, b 0.75, idf floored at 1e-6, the weighted frequency of each phrase
// saturated separately) over live documents only: FTS5's contentless_delete tables keep
// deleted rows in their row count and token total, so its scores drift with re-indexing.

import {
  COLUMNS,
  type Column,
  EXCLUDED_LABELS_SQL,
  openPostings,
  type PostingsView,
  type Segment,
} from '../index/index.js';
import { type Db, sql } from '../store/index.js';
import type { KeysetPosition } from './page-token.js';
import type { PhraseSource } from './phrase-hits.js';
import { shareRanking } from './rank-thread.js';
import type { RankContext, RankedRow, TopRows } from './ranked-query.js';
import {
  type Groups,
  inverseFrequencies,
  liveCounts,
  readSegments,
  type ScoredHits,
  scoreSegments,
} from './segment-scores.js';
import { COLUMN_WEIGHTS } from './weights.js';

export type { ScoredHits } from './segment-scores.js';

/**
 * Every match in every segment with its score (see segment-scores.ts). With a rank thread
 * (rank-thread.ts), it decodes and scores part of the segments while this one does the rest.
 */
function rank(
  db: Db,
  view: PostingsView,
  groups: Groups,
  weights: readonly number[],
  ctx: RankContext | null,
  keep: number | null = null,
): ScoredHits {
  const phrases = groups.flat();
  const avgdl = view.tokens / view.documents;
  const read = (segments: readonly Segment[]) => readSegments(db, segments, phrases, weights);
  // bm25 of `segments` on this thread alone: they are every segment of the view, so their
  // counts are the whole idf.
  const scoreHere = (segments: readonly Segment[], sources: PhraseSource[][]): ScoredHits => {
    const idf = inverseFrequencies(liveCounts(segments, sources, phrases.length), view.documents);
    return scoreSegments(segments, sources, { groups, idf, avgdl, ctx, keep });
  };
  const shared = ctx ? shareRanking(db, view, groups, weights) : null;
  if (shared === null) return scoreHere(view.segments, read(view.segments));
  const own = view.segments.filter((segment) => !shared.segments.includes(segment));
  const sources = read(own);
  const theirCounts = shared.counts();
  // The thread could not read its segments as this snapshot has them: rank them here.
  if (theirCounts === null)
    return scoreHere([...own, ...shared.segments], [...sources, ...read(shared.segments)]);
  const idf = inverseFrequencies(
    liveCounts(own, sources, phrases.length).map((n, p) => n + (theirCounts[p] as number)),
    view.documents,
  );
  const inputs = { groups, idf, avgdl, ctx, keep, tables: view.segments.map((segment) => segment.table) };
  shared.score(inputs);
  const mine = scoreSegments(own, sources, inputs);
  const theirs = shared.scored() ?? scoreSegments(shared.segments, read(shared.segments), inputs);
  return concatScored(theirs, mine);
}

function concatScored(a: ScoredHits, b: ScoredHits): ScoredHits {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  const join = (x: Float64Array, y: Float64Array): Float64Array => {
    const out = new Float64Array(x.length + y.length);
    out.set(x);
    out.set(y, x.length);
    return out;
  };
  return {
    length: a.length + b.length,
    rowids: join(a.rowids, b.rowids),
    dates: join(a.dates, b.dates),
    scores: join(a.scores, b.scores),
    floor: Math.max(a.floor, b.floor),
  };
}

/** `hits` without the matches of `rowids`. */
export function withoutRows(hits: ScoredHits, rowids: ReadonlySet<number>): ScoredHits {
  if (rowids.size === 0) return hits;
  const kept: number[] = [];
  for (let h = 0; h < hits.length; h++) if (!rowids.has(hits.rowids[h] as number)) kept.push(h);
  if (kept.length === hits.length) return hits;
  const pick = (from: Float64Array): Float64Array => Float64Array.from(kept, (h) => from[h] as number);
  return {
    length: kept.length,
    rowids: pick(hits.rowids),
    dates: pick(hits.dates),
    scores: pick(hits.scores),
    floor: hits.floor,
  };
}

/** The columns' weights, in COLUMNS order. */
const WEIGHTS = COLUMNS.map((c) => COLUMN_WEIGHTS[c]);

/**
 * Every match with its score (bm25 × recency × bulk), before exclusion labels; with
 * `keep`, for a head of that many: matches below a floor may be left out (ScoredHits.floor).
 */
export function scoreHits(db: Db, ctx: RankContext, groups: Groups, keep: number | null = null): ScoredHits {
  return rank(db, openPostings(db), groups, WEIGHTS, ctx, keep);
}

/** Every live match of `groups` in every inbox, with its date (filtered lists: unscored). */
export function liveMatches(db: Db, groups: Groups): ScoredHits {
  return rank(db, openPostings(db), groups, WEIGHTS, null);
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
export function select(hits: ScoredHits, k: number, among: Int32Array | null): number[] {
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

/** Each of `rowids`' exclusion state, inbox and thread (thread mode groups by the last two). */
function docStates(db: Db, rowids: readonly number[]): Map<number, DocState> {
  const rows = sql(
    db,
    `SELECT rowid, excluded, inbox_id AS inboxId, thread_id AS threadId FROM keyword_docs
     WHERE rowid IN (SELECT value FROM json_each(?))`,
  ).all(JSON.stringify(rowids)) as Array<DocState & { rowid: number }>;
  return new Map(rows.map((row) => [row.rowid, row]));
}

/**
 * Those of `rowids` an exclusion label hides now (keyword_docs.excluded, as the labels'
 * triggers keep it): probed in the labels' index, whose few excluded entries stay in cache,
 * where a head of 101 keyword_docs rows read a page each (1M archive: 0.14 against 0.7-1.0 ms
 * warm, several ms cold).
 */
function excludedAmong(db: Db, rowids: readonly number[]): Set<number> {
  const hidden = sql(
    db,
    `SELECT DISTINCT message_rowid FROM message_labels INDEXED BY message_labels_label
     WHERE label IN (${EXCLUDED_LABELS_SQL}) AND message_rowid IN (SELECT value FROM json_each(?))`,
  )
    .pluck()
    .all(JSON.stringify(rowids)) as number[];
  return new Set(hidden);
}

/**
 * The first `k` hits in rank order that no exclusion label hides (labels change after
 * indexing, so they are read for the head only). Thread mode passes `states`: the rows'
 * threads are read into it, and what it already holds is not read again as its head grows.
 * `among` limits the ranking to those hit indexes.
 */
function head(
  db: Db,
  hits: ScoredHits,
  k: number,
  { among = null, states = null }: { among?: Int32Array | null; states?: Map<number, DocState> | null } = {},
): RankedRow[] {
  for (let depth = k; ; depth *= 4) {
    const picked = select(hits, depth, among);
    const rowids = picked.map((h) => hits.rowids[h] as number);
    if (states !== null)
      for (const [rowid, state] of docStates(
        db,
        rowids.filter((rowid) => !states.has(rowid)),
      ))
        states.set(rowid, state);
    const hidden = states === null ? excludedAmong(db, rowids) : null;
    const rows: RankedRow[] = [];
    for (const h of picked) {
      const rowid = hits.rowids[h] as number;
      const row = { rowid, date: hits.dates[h] as number, score: hits.scores[h] as number };
      if (states === null) {
        if ((hidden as Set<number>).has(rowid)) continue;
        rows.push(row);
      } else {
        const state = states.get(rowid);
        if (!state || state.excluded) continue;
        rows.push({ ...row, inboxId: state.inboxId, threadId: state.threadId });
      }
      if (rows.length === k) return rows;
    }
    if (picked.length < depth) return rows;
  }
}

/**
 * The exact first `need` messages, and whether any follows, from `score(keep)`'s hits;
 * scored again in full when matches left out below their floor could be among them
 * (exclusion labels hid those above it).
 */
export function topMessagesByPostings(
  db: Db,
  score: (keep: number | null) => ScoredHits,
  need: number,
): TopRows {
  const hits = score(need + 1);
  const rows = head(db, hits, need + 1);
  if (hits.floor > 0 && !((rows[need]?.score ?? 0) >= hits.floor))
    return topMessagesByPostings(db, () => score(null), need);
  return { rows: rows.slice(0, need), more: rows.length > need };
}

/**
 * Messages scored to rank a first page of threads: a thread stands as its best message,
 * and a few messages of one thread can rank together.
 */
const MESSAGES_PER_THREAD = 4;

/**
 * The first `need` threads in rank order (each thread's first, best, message in the message
 * order), and whether any follows, from `score(keep)`'s hits; scored again in full when
 * matches left out below their floor could hold one of them (their threads' better
 * messages were hidden by exclusion labels, or too few threads reached it).
 */
export function topThreadsByPostings(
  db: Db,
  score: (keep: number | null) => ScoredHits,
  need: number,
): TopRows {
  const hits = score(MESSAGES_PER_THREAD * (need + 1));
  const threads = threadOrder(db, hits, need + 1, null);
  if (hits.floor > 0 && !((threads[need]?.score ?? 0) >= hits.floor))
    return topThreadsByPostings(db, () => score(null), need);
  return { rows: threads.slice(0, need), more: threads.length > need };
}

/** Up to n threads in rank order whose best message ranks after `position` (all when null). */
function threadOrder(db: Db, hits: ScoredHits, n: number, position: KeysetPosition | null): RankedRow[] {
  const anchor = position && anchorScore(db, hits, position);
  const states = new Map<number, DocState>();
  // A first page's threads stand for nearly as many messages (the bench's two-word queries at
  // 1M: 102 threads from the best 102 messages at the median, 111 at p90, 178 at most): a
  // quarter more, then twice as many, each row's thread read once.
  for (let depth = n + Math.ceil(n / 4) + 1; ; depth *= 2) {
    const messages = head(db, hits, depth, { states });
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
    return excludedAmong(db, [position.rowid]).has(position.rowid)
      ? position.score
      : (hits.scores[h] as number);
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
  return head(db, hits, n, { among: Int32Array.from(later) });
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

// The SQL of relevance search: FTS5 matches filtered by inbox, dates, watermark and
// exclusions, scored by weighted bm25 times the bounded recency multiplier; the exact head
// of that order for first pages, and a keyset on (score desc, date desc, rowid desc).

// Why this plan (measured on 100k generated messages, bench/search.ts). FTS5 has no
// impact-ordered postings: bm25 is computed for every match whatever the SQL says, at
// ~0.8 µs a row against ~0.03 µs to enumerate it (a term in 53k messages: count 1.5 ms,
// bm25 44 ms), and that floor is most of a broad query's cost. What is left to save is
// the work done per match besides bm25: the join to keyword_docs, the recency pow(), the
// materialised CTE and the GROUP BY of thread mode. So first pages take the exact top rows
// without materialising (topMessages), by bm25 alone when recency cannot reorder them,
// and threads come from the message order instead of grouping every match (topThreads).
// Filtering and grouping through the compact keyword_docs rows instead of the wide
// messages rows paid off earlier (two-word p50 128 → 23 ms). Deep pages read the order
// frozen for page 1 (snapshot.ts) instead of ranking again.

import { BULK_KIND, COLUMNS, type Column } from '../index/index.js';
import { type Db, sql } from '../store/index.js';
import type { Match } from './match.js';
import type { KeysetPosition } from './page-token.js';
import {
  contributionsByPostings,
  rankMessagesByPostings,
  rankThreadsByPostings,
  scoreHits,
  topMessagesByPostings,
  topThreadsByPostings,
} from './postings-rank.js';
import { BULK_FACTOR, COLUMN_WEIGHTS } from './weights.js';

export { BULK_FACTOR, COLUMN_WEIGHTS };

/** Bulk mail, as an FTS5 expression: a zero-weight column, so it adds nothing to bm25. */
const BULK_MATCH = `kind : ${BULK_KIND}`;
const WEIGHTS = COLUMNS.map((c) => COLUMN_WEIGHTS[c]).join(', ');
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export interface RankContext {
  readonly inboxId: number;
  readonly after: number | null;
  readonly before: number | null;
  readonly origin: number;
  readonly watermark: number;
  readonly maxBoost: number;
  readonly halfLifeDays: number;
}

export interface RankedRow {
  readonly rowid: number;
  readonly date: number;
  readonly score: number;
  /** Thread mode: "inboxId:threadId" of the thread the row stands for. */
  readonly thread?: string;
  /** The row's keyword_docs inbox and thread, when the query read them. */
  readonly inboxId?: number;
  readonly threadId?: string;
}

/** "Now" floored to the hour: pages served within the hour share one origin, and the token carries it. */
export function recencyOrigin(now = Date.now()): number {
  return Math.floor(now / HOUR_MS) * HOUR_MS;
}

/** 1 + (M − 1)·2^(−age/halfLife): a ratio in [1, M], independent of archive size. */
export function recencyFactor(ctx: RankContext, date: number): number {
  const age = Math.max(0, ctx.origin - date);
  return 1 + (ctx.maxBoost - 1) * 2 ** (-age / (ctx.halfLifeDays * DAY_MS));
}

/**
 * The recency and bulk multipliers of keyword_docs row `d`, as SQL: every score is
 * computed by this one expression. Both are at most M, the recency bound.
 */
const FACTORS_SQL = `(1.0 + @boost * pow(2.0, -max(0, @origin - d.date) / @halfLife)) * (CASE d.bulk WHEN 0 THEN 1.0 ELSE ${BULK_FACTOR} END)`;

/** SQL: keyword_docs row `d` may be shown for `ctx` (inbox, dates, trust, exclusion). */
function shownSql(ctx: RankContext): string {
  return `d.untrusted = 0 AND d.excluded = 0
      ${ctx.inboxId !== 0 ? 'AND d.inbox_id = @inbox' : ''}
      ${ctx.after !== null ? 'AND d.date >= @after' : ''}
      ${ctx.before !== null ? 'AND d.date < @before' : ''}`;
}

/**
 * Every match with its score, filtered by watermark, inbox, dates, trust and exclusion
 * through the small keyword_docs rows. The FTS table drives (CROSS JOIN pins the order):
 * starting from an inbox index would run the MATCH once per message.
 */
function baseSql(ctx: RankContext, since = false): string {
  return `
    SELECT k.rowid AS rowid, d.date AS date, d.thread_id AS threadId, d.inbox_id AS inboxId,
      (-bm25(keyword_index, ${WEIGHTS})) * ${FACTORS_SQL} AS score
    FROM keyword_index k CROSS JOIN keyword_docs d ON d.rowid = k.rowid
    WHERE keyword_index MATCH @match AND k.rowid <= @watermark AND ${shownSql(ctx)}
      ${since ? 'AND d.date >= @since' : ''}`;
}

/**
 * Keyset after the message the previous page ended on, compared against that message's
 * score under the CURRENT statistics: inserts and deletes shift bm25's corpus statistics
 * between requests, and comparing with the anchor's live score keeps the boundary where
 * page 1 put it. When the anchor is gone, its score from the token stands in.
 */
const ANCHOR = `anchor AS (SELECT coalesce((SELECT score FROM hits WHERE rowid = @rowid), @score) AS s)`;
const KEYSET = `(@first = 1 OR score < anchor.s OR (score = anchor.s AND (date < @date OR (date = @date AND rowid < @rowid))))`;
const ORDER = 'ORDER BY score DESC, date DESC, rowid DESC';

function binds(
  ctx: RankContext,
  match: string,
  position: KeysetPosition | null,
  extra: Record<string, unknown> = {},
) {
  return {
    match,
    watermark: ctx.watermark,
    origin: ctx.origin,
    boost: ctx.maxBoost - 1,
    halfLife: ctx.halfLifeDays * DAY_MS,
    ...(ctx.inboxId !== 0 ? { inbox: ctx.inboxId } : {}),
    ...(ctx.after !== null ? { after: ctx.after } : {}),
    ...(ctx.before !== null ? { before: ctx.before } : {}),
    first: position === null ? 1 : 0,
    score: position?.score ?? 0,
    date: position?.date ?? 0,
    rowid: position?.rowid ?? 0,
    ...extra,
  };
}

// MATERIALIZED everywhere: a subquery flattened into the outer WHERE or aggregate would
// evaluate bm25() outside the FTS5 scan (an error, or silently wrong keyset comparisons).

/** Up to n messages after `position` in rank order. */
export function rankMessages(
  db: Db,
  ctx: RankContext,
  match: Match,
  position: KeysetPosition | null,
  n: number,
): RankedRow[] {
  if (match.groups) return rankMessagesByPostings(db, scoreHits(db, ctx, match.groups), position, n);
  const text = `WITH hits AS MATERIALIZED (${baseSql(ctx)}), ${ANCHOR}
    SELECT rowid, date, score FROM hits, anchor WHERE ${KEYSET} ${ORDER} LIMIT @n`;
  return sql(db, text).all(binds(ctx, match.expression, position, { n })) as RankedRow[];
}

/** Up to n threads after `position`, each ranked by its best message (carried as rowid/date). */
export function rankThreads(
  db: Db,
  ctx: RankContext,
  match: Match,
  position: KeysetPosition | null,
  n: number,
): RankedRow[] {
  if (match.groups) return rankThreadsByPostings(db, scoreHits(db, ctx, match.groups), position, n);
  const text = `
    WITH hits AS MATERIALIZED (${baseSql(ctx)}), ${ANCHOR},
      threads AS (SELECT rowid, date, inboxId, threadId, max(score) AS score FROM hits GROUP BY inboxId, threadId)
    SELECT rowid, date, score, inboxId || ':' || threadId AS thread FROM threads, anchor
    WHERE ${KEYSET} ${ORDER} LIMIT @n`;
  return sql(db, text).all(binds(ctx, match.expression, position, { n })) as RankedRow[];
}

/** The first `need` rows of the ranking, exact, and whether any row follows them. */
export interface TopRows {
  readonly rows: RankedRow[];
  readonly more: boolean;
}

/** Rows ranked past `need` on the first pass, so the bound rarely falls on a tie. */
const MARGIN = 16;

const byRank = (a: RankedRow, b: RankedRow): number =>
  b.score - a.score || b.date - a.date || b.rowid - a.rowid;

/** Newest date among the messages `ctx` may rank: it caps the recency multiplier of any row. */
function newestDate(db: Db, ctx: RankContext): number {
  const newest =
    ctx.inboxId !== 0
      ? sql(db, 'SELECT max(date) FROM messages WHERE inbox_id = ?').pluck().get(ctx.inboxId)
      : sql(db, 'SELECT max((SELECT max(date) FROM messages WHERE inbox_id = i.id)) FROM inboxes i')
          .pluck()
          .get();
  return (newest as number | null) ?? ctx.origin;
}

/**
 * Largest recency multiplier at which ranking by bm25 alone first pays: above it the
 * proof below rarely holds (bm25 of the need-th and the last kept row differ by less than
 * the multiplier can), and one joined pass is cheaper than two.
 */
const STALE_CEILING = 1.01;

/**
 * The exact first `need` rows of the message ranking, and whether any row follows them.
 * FTS5 computes bm25 for every match whatever the SQL (measured: 0.8 µs a row, 8× the cost
 * of enumerating the matches), so the saving lies in what else is done per match. One
 * pass joins every match to keyword_docs, applies its recency multiplier and keeps the top
 * rows. When no message is recent enough to be boosted by more than STALE_CEILING, FTS5
 * instead keeps the best rows by bm25 alone and only those are joined: any other row
 * scores at most b·R (b: the last kept bm25, R: the multiplier of the newest message), so
 * when that stays under the need-th score the answer is proven (bulk mail's share below). Otherwise only rows recent enough to close the
 * gap can still enter, and a second pass ranks just those.
 */
export function topMessages(db: Db, ctx: RankContext, match: Match, need: number, margin = MARGIN): TopRows {
  if (match.groups) return topMessagesByPostings(db, scoreHits(db, ctx, match.groups), need);
  return topMessagesByFts(db, ctx, match.expression, need, margin);
}

function topMessagesByFts(db: Db, ctx: RankContext, match: string, need: number, margin: number): TopRows {
  const wanted = need + 1;
  // Rounding in SQL's pow may differ from JS's in the last bit: the bound errs high.
  const ceiling = recencyFactor(ctx, newestDate(db, ctx)) * (1 + 1e-9);
  if (ceiling > STALE_CEILING) return cut(rankSince(db, ctx, match, null, wanted), wanted);
  const keep = wanted + margin;
  const found = bestByBm25(db, ctx, match, keep);
  let rows = shownRows(found);
  if (found.length < keep) return cut(rows, wanted);
  // The filters (inbox, dates, exclusions) set most of the best rows aside: one joined pass
  // costs less than ranking deeper by bm25 alone.
  if (rows.length < wanted) return cut(rankSince(db, ctx, match, null, wanted), wanted);
  let threshold = (rows[wanted - 1] as RankedRow).score;
  let bound = lowestBm25(found);
  if (bound * ceiling < threshold) return cut(rows, wanted);
  // Bulk mail is often the densest match of a broad query and counts only BULK_FACTOR of
  // its bm25: when it crowds the best rows, mail below them can outrank it (measured: 161
  // of the best 220 rows of "budget your" on 20k messages). The other mail's best rows,
  // ranked apart, settle it: any bulk row not kept scores at most bound × BULK_FACTOR.
  if (BULK_FACTOR < 1 && found.some((row) => row.bulk === 1)) {
    const plain = bestByBm25(db, ctx, `(${match}) NOT ${BULK_MATCH}`, keep);
    const seen = new Set(rows.map((row) => row.rowid));
    rows = [...rows, ...shownRows(plain).filter((row) => !seen.has(row.rowid))].sort(byRank);
    threshold = (rows[wanted - 1] as RankedRow).score;
    bound = Math.max(bound * BULK_FACTOR, plain.length < keep ? 0 : lowestBm25(plain));
    if (bound * ceiling < threshold) return cut(rows, wanted);
  }
  const recent = rankSince(db, ctx, match, sinceDate(ctx, threshold / bound), wanted);
  const merged = new Map(rows.map((row) => [row.rowid, row]));
  for (const row of recent) merged.set(row.rowid, row);
  return cut([...merged.values()].sort(byRank), wanted);
}

type BestRow = Required<RankedRow> & { b: number; shown: number; bulk: number | null };

/** The `keep` best matches by bm25 alone, then joined to keyword_docs and fully scored. */
function bestByBm25(db: Db, ctx: RankContext, match: string, keep: number): BestRow[] {
  return sql(
    db,
    `WITH top AS MATERIALIZED (
       SELECT rowid, -bm25(keyword_index, ${WEIGHTS}) AS b FROM keyword_index
       WHERE keyword_index MATCH @match AND rowid <= @watermark ORDER BY b DESC LIMIT @keep)
     SELECT top.rowid AS rowid, top.b AS b, d.date AS date, d.inbox_id AS inboxId, d.thread_id AS threadId,
       top.b * ${FACTORS_SQL} AS score, coalesce(${shownSql(ctx)}, 0) AS shown, d.bulk AS bulk
     FROM top LEFT JOIN keyword_docs d ON d.rowid = top.rowid`,
  ).all(binds(ctx, match, null, { keep })) as BestRow[];
}

/** The rows `ctx` may show, in rank order. */
function shownRows(found: readonly BestRow[]): RankedRow[] {
  return found
    .filter((row) => row.shown === 1)
    .map(({ rowid, date, score, inboxId, threadId }) => ({ rowid, date, score, inboxId, threadId }))
    .sort(byRank);
}

/** The lowest bm25 kept: every match left out scores at most this before its multipliers. */
const lowestBm25 = (found: readonly BestRow[]): number =>
  found.reduce((low, row) => Math.min(low, row.b), Number.POSITIVE_INFINITY);

function cut(rows: RankedRow[], wanted: number): TopRows {
  return { rows: rows.slice(0, wanted - 1), more: rows.length >= wanted };
}

/**
 * Oldest date whose recency multiplier can still reach `ratio` (a row of that age or
 * older scores below the threshold), an hour early to absorb rounding; null for "all".
 */
function sinceDate(ctx: RankContext, ratio: number): number | null {
  if (!(ratio > 1) || ctx.maxBoost <= 1) return null;
  const age = ctx.halfLifeDays * DAY_MS * Math.log2((ctx.maxBoost - 1) / (ratio - 1));
  return ctx.origin - Math.max(0, age) - HOUR_MS;
}

/** The top n rows among those dated `since` or later (every row when null), fully scored. */
function rankSince(db: Db, ctx: RankContext, match: string, since: number | null, n: number): RankedRow[] {
  const text = `${baseSql(ctx, since !== null)} ${ORDER} LIMIT @n`;
  return sql(db, text).all(
    binds(ctx, match, null, { n, ...(since !== null ? { since } : {}) }),
  ) as RankedRow[];
}

/**
 * The first `need` threads, each standing as its best message: a thread's score is its
 * best message's, so the threads in rank order are the first appearances of threads in
 * the message ranking. Ranks messages deep enough to see `need` + 1 threads.
 */
export function topThreads(db: Db, ctx: RankContext, match: Match, need: number): TopRows {
  if (match.groups) return topThreadsByPostings(db, scoreHits(db, ctx, match.groups), need);
  for (let depth = (need + 1) * 3; ; depth *= 4) {
    const messages = topMessagesByFts(db, ctx, match.expression, depth, MARGIN);
    const threads: RankedRow[] = [];
    const seen = new Set<string>();
    for (const row of messages.rows) {
      const key = `${row.inboxId}:${row.threadId}`;
      if (seen.has(key)) continue;
      seen.add(key);
      threads.push({ rowid: row.rowid, date: row.date, score: row.score, thread: key });
      if (threads.length > need) return { rows: threads.slice(0, need), more: true };
    }
    if (!messages.more) return { rows: threads, more: false };
  }
}

/**
 * The newest message of a thread that still matches and may be shown: a thread's place
 * in a frozen order outlives the deletion of the message that earned it.
 */
export function threadMember(
  db: Db,
  ctx: RankContext,
  match: Match,
  inboxId: number,
  threadId: string,
): { rowid: number; date: number } | undefined {
  const text = `
    SELECT d.rowid AS rowid, d.date AS date FROM messages m JOIN keyword_docs d ON d.rowid = m.id
    WHERE m.inbox_id = @memberInbox AND m.thread_id = @thread AND m.id <= @watermark
      ${ctx.after !== null ? 'AND d.date >= @after' : ''}
      ${ctx.before !== null ? 'AND d.date < @before' : ''}
      AND d.untrusted = 0 AND d.excluded = 0
      AND EXISTS (SELECT 1 FROM keyword_index WHERE keyword_index MATCH @match AND rowid = d.rowid)
    ORDER BY d.date DESC, d.rowid DESC LIMIT 1`;
  return sql(db, text).get(binds(ctx, match.expression, null, { memberInbox: inboxId, thread: threadId })) as
    | { rowid: number; date: number }
    | undefined;
}

/**
 * Each column's bm25 as if it were the only one weighted. FTS5 saturates the weighted
 * term frequency summed over columns, so these do not add up to the total: they say how
 * much each field alone would have scored. The rowid filter is `+rowid` on purpose: a
 * rowid constraint handed to FTS5 also narrows the documents bm25 counts for its IDF,
 * which would make these numbers disagree with the ranking's (measured).
 */
export function columnContributions(
  db: Db,
  match: Match,
  watermark: number,
  rowids: readonly number[],
): Map<number, Record<Column, number>> {
  const result = new Map<number, Record<Column, number>>();
  if (rowids.length === 0) return result;
  if (match.groups) return contributionsByPostings(db, match.groups, rowids);
  const oneHot = COLUMNS.map(
    (_, i) =>
      `bm25(keyword_index, ${COLUMNS.map((__, j) => (i === j ? COLUMN_WEIGHTS[COLUMNS[j] as Column] : 0)).join(', ')}) AS c${i}`,
  );
  const text = `SELECT rowid, ${oneHot.join(', ')} FROM keyword_index
    WHERE keyword_index MATCH ? AND rowid <= ? AND +rowid IN (SELECT value FROM json_each(?))`;
  for (const row of sql(db, text).all(match.expression, watermark, JSON.stringify(rowids)) as Array<
    Record<string, number>
  >) {
    const contributions = {} as Record<Column, number>;
    COLUMNS.forEach((column, i) => {
      contributions[column] = -(row[`c${i}`] as number);
    });
    result.set(row.rowid as number, contributions);
  }
  return result;
}

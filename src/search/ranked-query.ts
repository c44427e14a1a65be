// Relevance ranking's entry points. A query whose terms are whole FTS5 tokens (nearly every
// agent query, and its fuzzy fill) ranks on the postings index (postings-rank.ts); the rest —
// terms FTS5 would cut into phrases — rank here in SQL: FTS5 matches filtered by inbox,
// dates, watermark and exclusions through the small keyword_docs rows, scored by weighted
// bm25 times the recency and bulk multipliers, with a keyset on (score desc, date desc,
// rowid desc). Deep pages read the order frozen for page 1 (snapshot.ts) instead of
// ranking again.

import { COLUMNS, type Column } from '../index/index.js';
import { type Db, sql } from '../store/index.js';
import type { Match } from './match.js';
import type { KeysetPosition } from './page-token.js';
import {
  contributionsByPostings,
  rankMessagesByPostings,
  rankThreadsByPostings,
  type ScoredHits,
  scoreHits,
  topMessagesByPostings,
  topThreadsByPostings,
  withoutRows,
} from './postings-rank.js';
import { cachedTop } from './top-cache.js';
import { BULK_FACTOR, COLUMN_WEIGHTS } from './weights.js';

export { BULK_FACTOR, COLUMN_WEIGHTS };

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
function baseSql(ctx: RankContext): string {
  return `
    SELECT k.rowid AS rowid, d.date AS date, d.thread_id AS threadId, d.inbox_id AS inboxId,
      (-bm25(keyword_index, ${WEIGHTS})) * ${FACTORS_SQL} AS score
    FROM keyword_index k CROSS JOIN keyword_docs d ON d.rowid = k.rowid
    WHERE keyword_index MATCH @match AND k.rowid <= @watermark AND ${shownSql(ctx)}`;
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

/**
 * Most messages of the exact phase a fuzzy fill leaves out on the postings. The fill starts
 * where the exact phase ran out, so they are what that phase showed: a page or a few. Past
 * this many, FTS5 ranks the fill (its `NOT` leaves them out).
 */
const MAX_EXACT_SHOWN = 1_000;

type Scorer = (keep: number | null) => ScoredHits;

/**
 * How the postings score `match` (see scoreHits), or null when FTS5 must rank it: its terms
 * are not all whole FTS5 tokens, or it is a fuzzy fill after more than MAX_EXACT_SHOWN exact
 * messages. A fuzzy fill's hits leave out the messages the exact phase showed; the exact
 * matches it did not show are hidden from both phases alike. On FTS5 a typo query took
 * 0.3-2.4 s at 1M messages (`delivry schedule`: bm25 of every match of `delivery`, and the
 * exact query again for the NOT), on the postings 10-45 ms.
 */
function postingsScorer(db: Db, ctx: RankContext, match: Match): Scorer | null {
  const { groups, exact } = match;
  if (!groups) return null;
  if (!exact) return (keep) => scoreHits(db, ctx, groups, keep);
  const shown = topMessages(db, ctx, exact, MAX_EXACT_SHOWN);
  if (shown.more) return null;
  const rowids = new Set(shown.rows.map((row) => row.rowid));
  return (keep) => withoutRows(scoreHits(db, ctx, groups, keep === null ? null : keep + rowids.size), rowids);
}

type Mode = 'messages' | 'threads';

/** SQL of up to @n rows after the keyset position, for each mode (see baseSql). */
const FTS_SQL: Readonly<Record<Mode, (ctx: RankContext) => string>> = {
  messages: (ctx) => `WITH hits AS MATERIALIZED (${baseSql(ctx)}), ${ANCHOR}
    SELECT rowid, date, score, inboxId, threadId FROM hits, anchor WHERE ${KEYSET} ${ORDER} LIMIT @n`,
  threads: (ctx) => `
    WITH hits AS MATERIALIZED (${baseSql(ctx)}), ${ANCHOR},
      threads AS (SELECT rowid, date, inboxId, threadId, max(score) AS score FROM hits GROUP BY inboxId, threadId)
    SELECT rowid, date, score, inboxId || ':' || threadId AS thread FROM threads, anchor
    WHERE ${KEYSET} ${ORDER} LIMIT @n`,
};

const BY_POSTINGS = {
  messages: { after: rankMessagesByPostings, top: topMessagesByPostings },
  threads: { after: rankThreadsByPostings, top: topThreadsByPostings },
} as const;

function byFts(
  mode: Mode,
  db: Db,
  ctx: RankContext,
  match: Match,
  position: KeysetPosition | null,
  n: number,
): RankedRow[] {
  return sql(db, FTS_SQL[mode](ctx)).all(binds(ctx, match.expression, position, { n })) as RankedRow[];
}

function rankAfter(
  mode: Mode,
  db: Db,
  ctx: RankContext,
  match: Match,
  position: KeysetPosition | null,
  n: number,
): RankedRow[] {
  const score = postingsScorer(db, ctx, match);
  return score
    ? BY_POSTINGS[mode].after(db, score(null), position, n)
    : byFts(mode, db, ctx, match, position, n);
}

/** Up to n messages after `position` in rank order. */
export const rankMessages = (
  db: Db,
  ctx: RankContext,
  match: Match,
  position: KeysetPosition | null,
  n: number,
): RankedRow[] => rankAfter('messages', db, ctx, match, position, n);

/** Up to n threads after `position`, each ranked by its best message (carried as rowid/date). */
export const rankThreads = (
  db: Db,
  ctx: RankContext,
  match: Match,
  position: KeysetPosition | null,
  n: number,
): RankedRow[] => rankAfter('threads', db, ctx, match, position, n);

/** The first `need` rows of the ranking, exact, and whether any row follows them. */
export interface TopRows {
  readonly rows: RankedRow[];
  readonly more: boolean;
}

function top(mode: Mode, db: Db, ctx: RankContext, match: Match, need: number): TopRows {
  const fts = (): TopRows => {
    const rows = byFts(mode, db, ctx, match, null, need + 1);
    return { rows: rows.slice(0, need), more: rows.length > need };
  };
  if (!match.groups) return fts();
  return cachedTop(db, `${mode} ${match.expression}`, ctx, need, () => {
    const score = postingsScorer(db, ctx, match);
    return score ? BY_POSTINGS[mode].top(db, score, need) : fts();
  });
}

/** The exact first `need` messages of the ranking, and whether any follows them. */
export const topMessages = (db: Db, ctx: RankContext, match: Match, need: number): TopRows =>
  top('messages', db, ctx, match, need);

/** The first `need` threads, each standing as its best message, and whether any follows. */
export const topThreads = (db: Db, ctx: RankContext, match: Match, need: number): TopRows =>
  top('threads', db, ctx, match, need);

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

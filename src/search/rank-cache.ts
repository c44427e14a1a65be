// A small per-connection cache of recent rankings, so a long-lived process (HTTP, MCP)
// serves page N of a query from the order it computed for page 1 instead of scoring every
// match again. Bounded by entries and rows; a miss falls back to the keyset query.

import { type Db, sql } from '../store/index.js';
import type { KeysetPosition } from './page-token.js';
import { EXCLUDED_LABELS, type RankContext, type RankedRow } from './ranked-query.js';

export type RankFn = (
  db: Db,
  ctx: RankContext,
  match: string,
  position: KeysetPosition | null,
  n: number,
) => RankedRow[];

/** Rows kept per ranking: page 10 at limit 100, page 100 at the default limit. */
const CACHED_ROWS = 1000;
const CACHED_RANKINGS = 16;

interface Ranking {
  readonly rows: readonly RankedRow[];
  /** True when `rows` holds every match, so running off its end means the results ended. */
  readonly complete: boolean;
}

const caches = new WeakMap<Db, Map<string, Ranking>>();

/** Drops every cached ranking of `db` (benchmarks measure cold queries with it). */
export function clearRankCache(db: Db): void {
  caches.delete(db);
}

const after = (row: RankedRow, p: KeysetPosition): boolean =>
  row.score < p.score ||
  (row.score === p.score && (row.date < p.date || (row.date === p.date && row.rowid < p.rowid)));

/**
 * Rows of the list still visible now: not deleted, not labelled away since the ranking.
 * The watermark in the key keeps later arrivals out, as the keyset query does.
 */
function visible(db: Db, rows: readonly RankedRow[]): RankedRow[] {
  if (rows.length === 0) return [];
  const ids = new Set(
    sql(
      db,
      `SELECT value FROM json_each(?) WHERE value IN (SELECT rowid FROM keyword_docs)
       AND NOT EXISTS (SELECT 1 FROM message_labels l WHERE l.message_rowid = value
         AND l.label IN (${EXCLUDED_LABELS.map((l) => `'${l}'`).join(', ')}))`,
    )
      .pluck()
      .all(JSON.stringify(rows.map((r) => r.rowid))) as number[],
  );
  return rows.filter((r) => ids.has(r.rowid));
}

/**
 * Wraps a ranking function with the cache. The cached order was computed under one set of
 * corpus statistics, so paging through it can neither repeat nor skip a message; the page
 * boundary is found by the anchor row itself when it is in the list.
 */
export function cachedRanking(mode: string, rank: RankFn): RankFn {
  return (db, ctx, match, position, n) => {
    let cache = caches.get(db);
    if (!cache) {
      cache = new Map();
      caches.set(db, cache);
    }
    const key = `${mode}\n${match}\n${JSON.stringify(ctx)}`;
    let ranking = cache.get(key);
    if (ranking === undefined) {
      const rows = rank(db, ctx, match, null, CACHED_ROWS);
      ranking = { rows, complete: rows.length < CACHED_ROWS };
      if (cache.size >= CACHED_RANKINGS) cache.delete(cache.keys().next().value as string);
    } else cache.delete(key);
    cache.set(key, ranking);

    let start = 0;
    if (position !== null) {
      const anchor = ranking.rows.findIndex((r) => r.rowid === position.rowid);
      start = anchor >= 0 ? anchor + 1 : ranking.rows.findIndex((r) => after(r, position));
      if (start < 0) start = ranking.rows.length;
    }
    const page: RankedRow[] = [];
    for (let i = start; i < ranking.rows.length && page.length < n; i += n) {
      page.push(...visible(db, ranking.rows.slice(i, i + n)));
    }
    if (page.length >= n || ranking.complete) return page.slice(0, n);
    return rank(db, ctx, match, position, n);
  };
}

// A small per-connection cache of recent rankings, so a long-lived process (HTTP, MCP)
// serves page N of a query from the order it computed for page 1 instead of scoring every
// match again. Bounded by entries and rows; a miss falls back to the keyset query.

import { type Db, sql } from '../store/index.js';
import type { KeysetPosition } from './page-token.js';
import type { RankContext, RankedRow } from './ranked-query.js';

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
 * Wraps a ranking function with the cache. Page 1 computes (and keeps) the first
 * CACHED_ROWS of the order; later pages of an unchanged archive slice it, starting after
 * the anchor row, and anything else goes to the keyset query.
 */
export function cachedRanking(mode: string, rank: RankFn): RankFn {
  return (db, ctx, match, position, n) => {
    let cache = caches.get(db);
    if (!cache) {
      cache = new Map();
      caches.set(db, cache);
    }
    // Any write since (by this connection or another) makes a new key: a cached order must
    // never hide a message that a label change or thread merge has since made visible.
    const version = sql(db, 'SELECT total_changes()').pluck().get() as number;
    const key = `${db.pragma('data_version', { simple: true })}:${version}\n${mode}\n${match}\n${JSON.stringify(ctx)}`;
    let ranking = cache.get(key);
    // A later page with nothing cached (a new process, or writes since): one keyset query.
    if (ranking === undefined && position !== null) return rank(db, ctx, match, position, n);
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
    if (ranking.complete || start + n <= ranking.rows.length) return ranking.rows.slice(start, start + n);
    return rank(db, ctx, match, position, n);
  };
}

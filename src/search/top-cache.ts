// First pages' ranked heads kept per connection for a long-lived process: an agent that
// repeats a query within the hour gets the same head without ranking every match again.
// A kept head is served only while nothing it was ranked from has changed: the index
// generation, the segments and their tombstones, the newest message (the watermark is in
// the key), and the labels and threads of indexed messages (keyword_meta 'docs_version',
// bumped by a trigger).

import { type Db, sql } from '../store/index.js';
import type { RankContext, TopRows } from './ranked-query.js';

/**
 * Rows of kept heads per connection (a row is ~100 bytes: ~25 MB). Bounded by rows, not
 * heads: a first page keeps 101 rows, a deep page's head 1,001, and a count of heads
 * either wasted memory or evicted a working set of a few hundred distinct queries.
 */
const KEPT_ROWS = 262_144;

interface Kept {
  readonly state: string;
  readonly top: TopRows;
}

interface Heads {
  readonly kept: Map<string, Kept>;
  rows: number;
}

const heads = new WeakMap<Db, Heads>();

/**
 * What a ranking read, as one string: equal strings, equal rankings. The generation
 * changes when the index is rebuilt, which may number its segments again from 1.
 */
function indexState(db: Db): string {
  return sql(
    db,
    `SELECT coalesce((SELECT value FROM keyword_meta WHERE key = 'generation'), '') || '|' ||
       coalesce((SELECT group_concat(id || ':' || dead) FROM keyword_segments), '') || '|' ||
       coalesce((SELECT value FROM keyword_meta WHERE key = 'docs_version'), '')`,
  )
    .pluck()
    .get() as string;
}

/** The head `rank` computes for (`what`, `ctx`, `need`), or the one kept for it while still exact. */
export function cachedTop(
  db: Db,
  what: string,
  ctx: RankContext,
  need: number,
  rank: () => TopRows,
): TopRows {
  const key = JSON.stringify([what, ctx, need]);
  const state = indexState(db);
  let cache = heads.get(db);
  const found = cache?.kept.get(key);
  if (found?.state === state) {
    cache?.kept.delete(key);
    cache?.kept.set(key, found);
    return found.top;
  }
  const top = rank();
  if (!cache) {
    cache = { kept: new Map(), rows: 0 };
    heads.set(db, cache);
  }
  forget(cache, key);
  cache.kept.set(key, { state, top });
  cache.rows += top.rows.length;
  // Least recently served first (a Map iterates in insertion order; a hit re-inserts).
  for (const oldest of cache.kept.keys()) {
    if (cache.rows <= KEPT_ROWS || oldest === key) break;
    forget(cache, oldest);
  }
  return top;
}

function forget(cache: Heads, key: string): void {
  const gone = cache.kept.get(key);
  if (!gone) return;
  cache.kept.delete(key);
  cache.rows -= gone.top.rows.length;
}

/** Forgets every kept head of `db`. */
export function clearTopCache(db: Db): void {
  heads.delete(db);
}

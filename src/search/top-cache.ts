// First pages' ranked heads kept per connection for a long-lived process: an agent that
// repeats a query within the hour gets the same head without ranking every match again.
// A kept head is served only while nothing it was ranked from has changed: the index
// generation, the segments and their tombstones, the newest message (the watermark is in
// the key), and the labels and threads of indexed messages (keyword_meta 'docs_version',
// bumped by a trigger).

import { type Db, sql } from '../store/index.js';
import type { RankContext, TopRows } from './ranked-query.js';

/** Heads kept per connection (each ≤ 1,001 rows). */
const KEPT_HEADS = 256;

interface Kept {
  readonly state: string;
  readonly top: TopRows;
}

const heads = new WeakMap<Db, Map<string, Kept>>();

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
  let kept = heads.get(db);
  const found = kept?.get(key);
  if (found?.state === state) {
    kept?.delete(key);
    kept?.set(key, found);
    return found.top;
  }
  const top = rank();
  if (!kept) {
    kept = new Map();
    heads.set(db, kept);
  }
  kept.delete(key);
  if (kept.size >= KEPT_HEADS) kept.delete(kept.keys().next().value as string);
  kept.set(key, { state, top });
  return top;
}

/** Forgets every kept head of `db`. */
export function clearTopCache(db: Db): void {
  heads.delete(db);
}

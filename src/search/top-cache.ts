// First pages' ranked heads kept per connection for a long-lived process: an agent that
// repeats a query within the hour gets the same head without ranking every match again.
// A kept head is served only while nothing it was ranked from has changed (archiveState;
// the newest message is the watermark in the key). Workers of one server also share the
// heads they rank (shared-heads.ts).

import type { Db } from '../store/index.js';
import type { RankContext, TopRows } from './ranked-query.js';
import { offerHead, sharedHead } from './shared-heads.js';
import { archiveState, StateCache } from './state-cache.js';

/**
 * Rows of kept heads per connection (a row is ~100 bytes: ~25 MB). Bounded by rows, not
 * heads: a first page keeps 101 rows, a deep page's head 1,001, and a count of heads
 * either wasted memory or evicted a working set of a few hundred distinct queries.
 */
const KEPT_ROWS = 262_144;

const heads = new StateCache<TopRows>(KEPT_ROWS, (top) => top.rows.length);

/** The head `rank` computes for (`what`, `ctx`, `need`), or the one kept for it while still exact. */
export function cachedTop(
  db: Db,
  what: string,
  ctx: RankContext,
  need: number,
  rank: () => TopRows,
): TopRows {
  const key = JSON.stringify([what, ctx, need]);
  const state = archiveState(db);
  return heads.get(db, state, key, () => {
    const shared = sharedHead(db, key, state);
    if (shared) return shared;
    // hrtime, not the `performance` global: its first read loads perf_hooks, ~17 ms of a CLI search.
    const started = process.hrtime.bigint();
    const top = rank();
    offerHead(db, key, state, top, Number(process.hrtime.bigint() - started) / 1e6);
    return top;
  });
}

/** Forgets every kept head of `db`. */
export function clearTopCache(db: Db): void {
  heads.clear(db);
}

// Per-connection memory of recent frozen rankings, so a long-lived process (HTTP, MCP)
// serves page N from the order it froze for page 1 without reading and decoding the
// stored snapshot. The stored row stays the source of truth; a miss reads it.

import type { Db } from '../store/index.js';
import { clearHitCaches } from './hits.js';
import { clearHitsCache } from './hits-cache.js';
import { clearListMatches } from './list-postings.js';
import { clearRankThread } from './rank-thread.js';
import type { Snapshot } from './snapshot.js';
import { clearTopCache } from './top-cache.js';

/** Rankings kept per connection (≤ 10,000 rows each). */
const CACHED_RANKINGS = 16;

const caches = new WeakMap<Db, Map<string, Snapshot>>();

/**
 * Drops every cached ranking, ranked head, built hit and list's matches of `db`, and every
 * decoded phrase hit (tests and benchmarks use it to act as a new process).
 */
export function clearRankCache(db: Db): void {
  caches.delete(db);
  clearListMatches(db);
  clearTopCache(db);
  clearHitCaches(db);
  clearHitsCache();
  clearRankThread(db);
}

export function keepSnapshot(db: Db, snapshot: Snapshot): void {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  cache.delete(snapshot.id);
  if (cache.size >= CACHED_RANKINGS) cache.delete(cache.keys().next().value as string);
  cache.set(snapshot.id, snapshot);
}

/** The snapshot from memory, else from `load` (remembered when found). */
export function cachedSnapshot(db: Db, id: string, load: () => Snapshot | undefined): Snapshot | undefined {
  const cached = caches.get(db)?.get(id);
  if (cached) return cached;
  const loaded = load();
  if (loaded) keepSnapshot(db, loaded);
  return loaded;
}

// Ranked heads shared by the processes of one server (`serve --workers N`). Each process
// keeps its own heads in memory (top-cache.ts), so without this every worker ranked every
// distinct query once, and a query's second worker paid the full ranking again. A head is
// stored in scratch.search_heads under the in-memory key, with the archive state it was
// ranked under, and read only while that state holds. Off until a server turns it on: a
// one-shot CLI search would only write rows nobody reads.

import { type Db, sql, writeBriefly } from '../store/index.js';
import type { TopRows } from './ranked-query.js';

/**
 * Rows kept at most: a head is a few kilobytes (101 rows for a first page), so ~10 MB; an
 * agent's working set is hundreds of queries an hour, and the key carries the hour anyway.
 */
const MAX_SHARED_HEADS = 2_048;
/** Heads older than this are pruned on write: the recency origin in their key is hourly. */
const SHARED_HEAD_TTL_MS = 3_600_000;
/** Longest a write waits for the lock before the head is simply not shared. */
const WRITE_WAIT_MS = 50;
/**
 * Heads that ranked faster than this are not offered: writing one (a write transaction,
 * WAL pages, checkpoints, the other workers waiting for the lock) costs about as much.
 * Measured, 100k, 2 workers, ~6,400 distinct queries: sharing every head cost 16% of the
 * throughput (1,632 -> 1,367 req/s) and raised p99 (122 -> 148 ms).
 */
const SHARE_MIN_MS = 2;
/** Writes between count-bounded prunes (each scans the table's created_at index). */
const PRUNE_EVERY = 128;

let sharing = false;
let minRankMs = SHARE_MIN_MS;
let writes = 0;

/** Turns sharing on for this process (`serve --workers N`), for heads that took `worthMs` or more to rank. */
export function shareRankedHeads(on = true, worthMs = SHARE_MIN_MS): void {
  sharing = on;
  minRankMs = worthMs;
}

interface Offered {
  readonly key: string;
  readonly state: string;
  readonly top: TopRows;
}

/** Heads ranked inside a read transaction, written after it (see publishHeads). */
const offered = new WeakMap<Db, Offered[]>();

/** The head another process ranked for `key` under `state`, when sharing is on. */
export function sharedHead(db: Db, key: string, state: string): TopRows | undefined {
  if (!sharing) return undefined;
  const head = sql(db, 'SELECT head FROM scratch.search_heads WHERE key = ? AND state = ?')
    .pluck()
    .get(key, state) as string | undefined;
  return head === undefined ? undefined : (JSON.parse(head) as TopRows);
}

/** Queues a head this process ranked in `rankMs`, to be written by publishHeads when worth it. */
export function offerHead(db: Db, key: string, state: string, top: TopRows, rankMs: number): void {
  if (!sharing || rankMs < minRankMs) return;
  let queue = offered.get(db);
  if (!queue) {
    queue = [];
    offered.set(db, queue);
  }
  queue.push({ key, state, top });
}

/**
 * Writes the queued heads in one short write transaction, after the request's read
 * transaction (upgrading that one would fail whenever another process wrote since it
 * began). Best effort: a busy or read-only archive leaves them unshared.
 */
export function publishHeads(db: Db, now = Date.now()): void {
  const queue = offered.get(db);
  if (!queue || queue.length === 0) return;
  offered.delete(db);
  writeBriefly(db, WRITE_WAIT_MS, () => {
    const insert = sql(
      db,
      `INSERT INTO scratch.search_heads (key, state, created_at, head) VALUES (?, ?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET state = excluded.state, created_at = excluded.created_at, head = excluded.head`,
    );
    for (const { key, state, top } of queue) insert.run(key, state, now, JSON.stringify(top));
    sql(db, 'DELETE FROM scratch.search_heads WHERE created_at < ?').run(now - SHARED_HEAD_TTL_MS);
    writes += queue.length;
    if (writes >= PRUNE_EVERY) {
      writes = 0;
      sql(
        db,
        'DELETE FROM scratch.search_heads WHERE key IN (SELECT key FROM scratch.search_heads ORDER BY created_at DESC LIMIT -1 OFFSET ?)',
      ).run(MAX_SHARED_HEADS);
    }
  });
}

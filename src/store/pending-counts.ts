// Rows a transaction adds to message by message (sender and thread counts, RAG-dirty threads)
// and writes in one statement before it commits (MessageStore.flushIndexes). Row by row, each
// write walked a random-keyed b-tree, and an upsert made SQLite journal the page it changed;
// a batch's messages share most of their senders and threads.

import type { Db } from './archive.js';

/** The rows' key columns (an inbox id, an address, a thread id…). */
type Key = readonly (string | number)[];

export class PendingCounts<K extends Key> {
  private readonly rows = new Map<string, [...K, number]>();

  /** Counts one more for `key`. */
  add(key: K): void {
    const id = JSON.stringify(key);
    const row = this.rows.get(id);
    if (row) row[key.length] = (row[key.length] as number) + 1;
    else this.rows.set(id, [...key, 1]);
  }

  /**
   * The pending rows as a JSON array of `[...key, count]` for json_each (null when none),
   * and forgets them.
   */
  take(): string | null {
    if (this.rows.size === 0) return null;
    const json = JSON.stringify([...this.rows.values()]);
    this.rows.clear();
    return json;
  }

  clear(): void {
    this.rows.clear();
  }
}

/** The pending rows `byConnection` holds for `db`, made on first use. */
export function pendingOn<K extends Key>(
  byConnection: WeakMap<Db, PendingCounts<K>>,
  db: Db,
): PendingCounts<K> {
  let pending = byConnection.get(db);
  if (!pending) {
    pending = new PendingCounts();
    byConnection.set(db, pending);
  }
  return pending;
}

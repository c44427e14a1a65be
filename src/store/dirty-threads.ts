// The cheap half of a table derived per thread (RAG chunks, decisions): a store hook that only
// marks the threads of changed messages dirty in `table` (inbox_id, thread_id), in the store's
// transaction. The owner rebuilds dirty threads later, off the ingest's per-message path.

import { type Db, type IndexHook, sql } from './archive.js';
import { type PendingCounts, pendingOn } from './pending-counts.js';

export type ThreadMarking = Required<Pick<IndexHook, 'onInsert' | 'flush' | 'discard'>> & {
  /** Marks the thread of a stored message (before it is deleted, while it is readable). */
  markMessage(db: Db, rowid: number): void;
};

/**
 * Hook callbacks marking threads dirty in `table`. Threads of messages ingest inserted are
 * collected per connection and marked together at the flush: one row a message cost ~29 us
 * at 1M messages (a random-keyed b-tree), and a batch's messages share threads.
 */
export function threadMarking(table: string): ThreadMarking {
  const pending = new WeakMap<Db, PendingCounts<[inboxId: number, threadId: string]>>();
  const markMessage = (db: Db, rowid: number): void => {
    sql(
      db,
      `INSERT OR IGNORE INTO ${table} (inbox_id, thread_id) SELECT inbox_id, thread_id FROM messages WHERE id = ?`,
    ).run(rowid);
  };
  return {
    markMessage,
    onInsert(db, rowid, inserted) {
      if (!inserted) markMessage(db, rowid);
      else pendingOn(pending, db).add([inserted.inboxId, inserted.threadId]);
    },
    flush(db) {
      const rows = pending.get(db)?.take();
      if (!rows) return;
      // Each row is [inbox, thread, messages]: the count is not needed here.
      sql(
        db,
        `INSERT OR IGNORE INTO ${table} (inbox_id, thread_id)
         SELECT value ->> 0, value ->> 1 FROM json_each(?) ORDER BY 1, 2`,
      ).run(rows);
    },
    discard(db) {
      pending.get(db)?.clear();
    },
  };
}

/**
 * SQL creating a trigger that marks both threads dirty in `table` when a merge moves a
 * message from one thread to another (thread-graph's MERGE_REWRITES update messages.thread_id).
 */
export const threadMovedTrigger = (name: string, table: string): string => `
  CREATE TRIGGER IF NOT EXISTS ${name} AFTER UPDATE OF thread_id ON messages
    BEGIN
      INSERT OR IGNORE INTO ${table} VALUES (OLD.inbox_id, OLD.thread_id);
      INSERT OR IGNORE INTO ${table} VALUES (NEW.inbox_id, NEW.thread_id);
    END;
`;

// The JWZ container graph of one inbox, stored in thread_nodes / thread_keys / threads.

import { type ThreadGraph, type ThreadNode, threadIdFromSeed } from '../thread/index.js';
import { type Db, sql } from './archive.js';
import { type PendingCounts, pendingOn } from './pending-counts.js';

interface NodeRow {
  id: number;
  message_id: string;
  parent_id: string | null;
  thread_id: string;
  present: number;
}

/** A node as its row holds it. */
interface StoredNode {
  readonly rowid: number;
  readonly node: ThreadNode;
}

/**
 * The rows a merge moves from an absorbed thread to the survivor (parameters: survivor,
 * inbox, absorbed), each found by the absorbed thread's id through an index. Without
 * INDEXED BY the planner ran the thread_nodes update over the inbox's whole primary key, and
 * thread_keys and thread_aliases had no index on the thread: a merge read every node and key
 * of the inbox, ~150 ms at 1M messages, so an archive whose replies arrive before their
 * threads' roots slowed down as it grew.
 */
export const MERGE_REWRITES = [
  'UPDATE thread_nodes INDEXED BY thread_nodes_thread SET thread_id = ? WHERE inbox_id = ? AND thread_id = ?',
  'UPDATE messages INDEXED BY messages_thread SET thread_id = ? WHERE inbox_id = ? AND thread_id = ?',
  'UPDATE thread_keys INDEXED BY thread_keys_thread SET thread_id = ? WHERE inbox_id = ? AND thread_id = ?',
  'UPDATE thread_aliases INDEXED BY thread_aliases_new SET new_id = ? WHERE inbox_id = ? AND new_id = ?',
] as const;

/**
 * One message's view of the graph: the store makes one per message it links, and nothing
 * else writes the graph meanwhile. Node writes wait for flush(): linking a reply puts its
 * own node and each new placeholder twice (first without, then with its parent). A new node
 * appends a row and enters the two random-keyed indexes (Message-ID, thread); a changed one
 * is updated in place.
 */
export class SqliteThreadGraph implements ThreadGraph {
  /**
   * Nodes as they are now, read or written so far (undefined: known absent). Linking asks
   * for the same few nodes again and again (each reference, then each parent chain walked
   * for loops).
   */
  private readonly nodes = new Map<string, ThreadNode | undefined>();
  /** Nodes put since the last flush, by id. */
  private readonly pending = new Set<string>();
  /**
   * Nodes as stored (undefined: no row), for those read or written: a put that leaves one as
   * it was writes nothing, and one that changes it updates its row in place.
   */
  private readonly stored = new Map<string, StoredNode | undefined>();

  constructor(
    private readonly db: Db,
    private readonly inboxId: number,
    private readonly inboxName: string,
  ) {}

  getNode(messageId: string): ThreadNode | undefined {
    if (this.nodes.has(messageId)) return this.nodes.get(messageId);
    const node = this.load(messageId)?.node;
    this.nodes.set(messageId, node);
    return node;
  }

  putNode(node: ThreadNode): void {
    this.nodes.set(node.messageId, node);
    this.pending.add(node.messageId);
  }

  flush(): void {
    for (const messageId of this.pending) {
      const node = this.nodes.get(messageId) as ThreadNode;
      const stored = this.stored.has(messageId) ? this.stored.get(messageId) : this.load(messageId);
      if (stored && sameNode(node, stored.node)) continue;
      const rowid = stored ? this.update(stored.rowid, node) : this.insert(node);
      this.stored.set(messageId, { rowid, node });
    }
    this.pending.clear();
  }

  private insert(node: ThreadNode): number {
    const { lastInsertRowid } = sql(
      this.db,
      'INSERT INTO thread_nodes (inbox_id, message_id, parent_id, thread_id, present) VALUES (?, ?, ?, ?, ?)',
    ).run(this.inboxId, node.messageId, node.parentId, node.threadId, node.present ? 1 : 0);
    return Number(lastInsertRowid);
  }

  private update(rowid: number, node: ThreadNode): number {
    sql(this.db, 'UPDATE thread_nodes SET parent_id = ?, thread_id = ?, present = ? WHERE id = ?').run(
      node.parentId,
      node.threadId,
      node.present ? 1 : 0,
      rowid,
    );
    return rowid;
  }

  /** Reads a node's row (remembered in `stored`). */
  private load(messageId: string): StoredNode | undefined {
    const row = sql(
      this.db,
      'SELECT id, message_id, parent_id, thread_id, present FROM thread_nodes WHERE inbox_id = ? AND message_id = ?',
    ).get(this.inboxId, messageId) as NodeRow | undefined;
    const stored = row && {
      rowid: row.id,
      node: {
        messageId: row.message_id,
        parentId: row.parent_id,
        threadId: row.thread_id,
        present: row.present === 1,
      },
    };
    this.stored.set(messageId, stored);
    return stored;
  }

  threadForKey(key: string): string | undefined {
    return (
      sql(this.db, 'SELECT thread_id FROM thread_keys WHERE inbox_id = ? AND key = ?').get(
        this.inboxId,
        key,
      ) as { thread_id: string } | undefined
    )?.thread_id;
  }

  setThreadForKey(key: string, threadId: string): void {
    sql(this.db, 'INSERT OR REPLACE INTO thread_keys (inbox_id, key, thread_id) VALUES (?, ?, ?)').run(
      this.inboxId,
      key,
      threadId,
    );
  }

  threadSize(threadId: string): number {
    // Counted in the table, so nodes put since the last flush must be there.
    this.flush();
    return (
      sql(this.db, 'SELECT count(*) AS n FROM thread_nodes WHERE inbox_id = ? AND thread_id = ?').get(
        this.inboxId,
        threadId,
      ) as { n: number }
    ).n;
  }

  mergeThreads(survivor: string, absorbed: readonly string[]): void {
    // The rewrites find nodes by thread in the table, and move the absorbed threads' counts.
    this.flush();
    flushThreadCounts(this.db);
    const db = this.db;
    for (const old of absorbed) {
      for (const statement of MERGE_REWRITES) sql(db, statement).run(survivor, this.inboxId, old);
      sql(db, 'INSERT OR REPLACE INTO thread_aliases (inbox_id, old_id, new_id) VALUES (?, ?, ?)').run(
        this.inboxId,
        old,
        survivor,
      );
      const count = sql(db, 'DELETE FROM threads WHERE inbox_id = ? AND id = ? RETURNING message_count').get(
        this.inboxId,
        old,
      ) as { message_count: number } | undefined;
      if (count) addToThreadCount(db, this.inboxId, survivor, count.message_count);
    }
    // Nodes moved to the survivor.
    this.nodes.clear();
    this.stored.clear();
  }

  newThreadId(seed: string): string {
    return threadIdFromSeed(`${this.inboxName}\n${seed}`);
  }
}

function sameNode(a: ThreadNode, b: ThreadNode | undefined): boolean {
  return b !== undefined && a.parentId === b.parentId && a.threadId === b.threadId && a.present === b.present;
}

/**
 * Messages ingest added to each thread since the last flush, per connection, counted at
 * flushThreadCounts: the upsert cost ~30 us a message at 1M messages row by row.
 */
const pendingThreadCounts = new WeakMap<Db, PendingCounts<[inboxId: number, threadId: string]>>();

/** Counts a new message in its thread when the transaction's deferred writes are flushed. */
export function countNewMessage(db: Db, inboxId: number, threadId: string): void {
  pendingOn(pendingThreadCounts, db).add([inboxId, threadId]);
}

/** Writes the pending counts: before the transaction commits, and before a count is read or moved. */
export function flushThreadCounts(db: Db): void {
  const rows = pendingThreadCounts.get(db)?.take();
  if (!rows) return;
  // WHERE true: an upsert on INSERT ... SELECT needs it to parse (SQLite's documented rule).
  sql(
    db,
    `INSERT INTO threads (inbox_id, id, message_count)
     SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(?) WHERE true
     ON CONFLICT (inbox_id, id) DO UPDATE SET message_count = message_count + excluded.message_count`,
  ).run(rows);
}

export function discardThreadCounts(db: Db): void {
  pendingThreadCounts.get(db)?.clear();
}

/** Adjusts a thread's message count, creating the row on first use and dropping it at zero. */
export function addToThreadCount(db: Db, inboxId: number, threadId: string, delta: number): void {
  flushThreadCounts(db);
  sql(
    db,
    `INSERT INTO threads (inbox_id, id, message_count) VALUES (?, ?, ?)
     ON CONFLICT (inbox_id, id) DO UPDATE SET message_count = message_count + excluded.message_count`,
  ).run(inboxId, threadId, delta);
  // Only a decrement can reach zero (new messages are counted by countNewMessage).
  if (delta < 0)
    sql(db, 'DELETE FROM threads WHERE inbox_id = ? AND id = ? AND message_count <= 0').run(
      inboxId,
      threadId,
    );
}

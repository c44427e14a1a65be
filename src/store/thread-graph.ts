// The JWZ container graph of one inbox, stored in thread_nodes / thread_keys / threads.

import { type ThreadGraph, type ThreadNode, threadIdFromSeed } from '../thread/index.js';
import { type Db, sql } from './archive.js';

interface NodeRow {
  message_id: string;
  parent_id: string | null;
  thread_id: string;
  present: number;
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
 * own node and each new placeholder twice (first without, then with its parent), and each
 * write replaces a row in two random-keyed b-trees (the nodes and their thread index).
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
  /** Nodes as stored, for those read: a put that leaves one as it was writes nothing. */
  private readonly stored = new Map<string, ThreadNode | undefined>();

  constructor(
    private readonly db: Db,
    private readonly inboxId: number,
    private readonly inboxName: string,
  ) {}

  getNode(messageId: string): ThreadNode | undefined {
    if (this.nodes.has(messageId)) return this.nodes.get(messageId);
    const row = sql(
      this.db,
      'SELECT message_id, parent_id, thread_id, present FROM thread_nodes WHERE inbox_id = ? AND message_id = ?',
    ).get(this.inboxId, messageId) as NodeRow | undefined;
    const node = row && {
      messageId: row.message_id,
      parentId: row.parent_id,
      threadId: row.thread_id,
      present: row.present === 1,
    };
    this.nodes.set(messageId, node);
    this.stored.set(messageId, node);
    return node;
  }

  putNode(node: ThreadNode): void {
    this.nodes.set(node.messageId, node);
    this.pending.add(node.messageId);
  }

  flush(): void {
    if (this.pending.size === 0) return;
    const write = sql(
      this.db,
      'INSERT OR REPLACE INTO thread_nodes (inbox_id, message_id, parent_id, thread_id, present) VALUES (?, ?, ?, ?, ?)',
    );
    for (const messageId of this.pending) {
      const node = this.nodes.get(messageId) as ThreadNode;
      if (sameNode(node, this.stored.get(messageId))) continue;
      write.run(this.inboxId, node.messageId, node.parentId, node.threadId, node.present ? 1 : 0);
      this.stored.set(messageId, node);
    }
    this.pending.clear();
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
    // The rewrites find nodes by thread in the table.
    this.flush();
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

/** Adjusts a thread's message count, creating the row on first use and dropping it at zero. */
export function addToThreadCount(db: Db, inboxId: number, threadId: string, delta: number): void {
  sql(
    db,
    `INSERT INTO threads (inbox_id, id, message_count) VALUES (?, ?, ?)
     ON CONFLICT (inbox_id, id) DO UPDATE SET message_count = message_count + excluded.message_count`,
  ).run(inboxId, threadId, delta);
  // Only a decrement can reach zero: ingest adds one a message and skips this statement.
  if (delta < 0)
    sql(db, 'DELETE FROM threads WHERE inbox_id = ? AND id = ? AND message_count <= 0').run(
      inboxId,
      threadId,
    );
}

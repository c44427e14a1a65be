// The outbox of an archive that feeds a search cluster: every change to what a cluster
// document holds is queued, by SQLite triggers in the transaction that makes it, as one row
// per message (inbox, Message-ID) in `backend_outbox`; the backend drains it after the commit.
// The tables and triggers exist only once `reindex --backend opensearch` made the archive
// feed a cluster (startFeeding), so an archive searched from SQLite alone pays nothing.

import { type Db, sql } from './archive.js';

/** Where the archive's changes go: recorded by the last full copy to a cluster. */
export interface ClusterFeed {
  readonly nodes: readonly string[];
  readonly index: string;
  /** The generation of the last full copy: documents the drain writes carry it too. */
  readonly generation: string;
}

/**
 * An outbox row: a message changed, in the order of the changes. What to send is the
 * message as the archive holds it at the drain: its document, or its deletion when the
 * archive no longer has it. (A trigger cannot always record an op that stays true: an
 * outer INSERT OR IGNORE overrides the trigger's OR REPLACE, leaving an older row.)
 */
export interface OutboxEntry {
  readonly seq: number;
  readonly inbox: string;
  readonly messageId: string;
  /** The message's row now; null when the archive no longer holds it. */
  readonly rowid: number | null;
}

const TABLES = `
  CREATE TABLE IF NOT EXISTS backend_feed (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    nodes TEXT NOT NULL,
    index_name TEXT NOT NULL,
    generation TEXT NOT NULL,
    since INTEGER NOT NULL
  );
  -- One row per message whose document must be rewritten or deleted. A later change to the
  -- same message replaces its row (INSERT OR REPLACE): the row moves to the end, and a drain
  -- sends the message once, as it is at the drain.
  CREATE TABLE IF NOT EXISTS backend_outbox (
    seq INTEGER PRIMARY KEY,
    inbox_id INTEGER NOT NULL,
    message_id TEXT NOT NULL,
    UNIQUE (inbox_id, message_id)
  );
`;

const ENQUEUE = 'INSERT OR REPLACE INTO backend_outbox (inbox_id, message_id)';
/** Every message of thread (inbox, thread): their documents hold the thread's tree and former ids. */
const ENQUEUE_THREAD = (inbox: string, thread: string): string =>
  `${ENQUEUE} SELECT inbox_id, message_id FROM messages INDEXED BY messages_thread
   WHERE inbox_id = ${inbox} AND thread_id = ${thread};`;

/**
 * What a document holds, and the trigger that queues its message when that changes:
 * - the message itself: inserted, deleted, its body re-cleaned (reclean), its thread changed
 *   by a merge;
 * - its labels (flags, folders) and its folders (locations);
 * - its attachments' extracted text (written again by a re-extraction);
 * - its thread path (a parent arriving late links a node under it) and its thread's former
 *   ids (a merge records the absorbed thread's id as an alias of the survivor): every
 *   message of the thread is queued.
 * Recreated by each startFeeding, so a newer build's triggers replace older ones.
 */
const TRIGGERS: ReadonlyArray<readonly [name: string, body: string]> = [
  [
    'backend_outbox_message_insert',
    `AFTER INSERT ON messages BEGIN
       ${ENQUEUE} VALUES (new.inbox_id, new.message_id); END`,
  ],
  [
    'backend_outbox_message_delete',
    `AFTER DELETE ON messages BEGIN
       ${ENQUEUE} VALUES (old.inbox_id, old.message_id); END`,
  ],
  [
    'backend_outbox_message_update',
    `AFTER UPDATE OF thread_id, body ON messages BEGIN
       ${ENQUEUE} VALUES (new.inbox_id, new.message_id); END`,
  ],
  [
    'backend_outbox_label_insert',
    `AFTER INSERT ON message_labels BEGIN
       ${ENQUEUE} SELECT inbox_id, message_id FROM messages WHERE id = new.message_rowid; END`,
  ],
  // A message's own deletion cascades to its labels: its own trigger queues it.
  [
    'backend_outbox_label_delete',
    `AFTER DELETE ON message_labels BEGIN
       ${ENQUEUE} SELECT inbox_id, message_id FROM messages WHERE id = old.message_rowid; END`,
  ],
  // Its folders: a location added, moved to another folder or message, or gone. (A message
  // without labels gets no label rows to trigger on.)
  [
    'backend_outbox_location_insert',
    `AFTER INSERT ON locations BEGIN
       ${ENQUEUE} SELECT inbox_id, message_id FROM messages WHERE id = new.message_rowid; END`,
  ],
  [
    'backend_outbox_location_update',
    `AFTER UPDATE OF folder, message_rowid ON locations
     WHEN old.folder IS NOT new.folder OR old.message_rowid IS NOT new.message_rowid BEGIN
       ${ENQUEUE} SELECT inbox_id, message_id FROM messages WHERE id IN (old.message_rowid, new.message_rowid); END`,
  ],
  [
    'backend_outbox_location_delete',
    `AFTER DELETE ON locations BEGIN
       ${ENQUEUE} SELECT inbox_id, message_id FROM messages WHERE id = old.message_rowid; END`,
  ],
  // A re-extraction writes its row again: INSERT OR REPLACE, an insert to triggers.
  [
    'backend_outbox_extraction',
    `AFTER INSERT ON attachment_texts BEGIN
       ${ENQUEUE} SELECT m.inbox_id, m.message_id
         FROM attachments a JOIN messages m ON m.id = a.message_rowid WHERE a.sha256 = new.sha256; END`,
  ],
  [
    'backend_outbox_thread_link',
    `AFTER UPDATE OF parent_id ON thread_nodes WHEN old.parent_id IS NOT new.parent_id BEGIN
       ${ENQUEUE_THREAD('new.inbox_id', 'new.thread_id')} END`,
  ],
  [
    'backend_outbox_alias_insert',
    `AFTER INSERT ON thread_aliases BEGIN ${ENQUEUE_THREAD('new.inbox_id', 'new.new_id')} END`,
  ],
  [
    'backend_outbox_alias_update',
    `AFTER UPDATE OF new_id ON thread_aliases BEGIN ${ENQUEUE_THREAD('new.inbox_id', 'new.new_id')} END`,
  ],
];

function feeds(db: Db): boolean {
  return (
    sql(db, "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'backend_feed'").get() !== undefined
  );
}

/** The cluster this archive feeds, if any. */
export function clusterFeed(db: Db): ClusterFeed | undefined {
  if (!feeds(db)) return undefined;
  const row = sql(db, 'SELECT nodes, index_name, generation FROM backend_feed WHERE id = 1').get() as
    | { nodes: string; index_name: string; generation: string }
    | undefined;
  return (
    row && { nodes: JSON.parse(row.nodes) as string[], index: row.index_name, generation: row.generation }
  );
}

/**
 * Makes the archive feed `feed` from now on: records it and installs the triggers, in one
 * transaction. Returns the outbox's last seq at that moment: the full copy that follows
 * reads every change up to it, so finishFullCopy may drop those rows (and only those).
 */
export function startFeeding(db: Db, feed: ClusterFeed): number {
  return db.transaction(() => {
    db.exec(TABLES);
    for (const [name, body] of TRIGGERS) {
      db.exec(`DROP TRIGGER IF EXISTS ${name}`);
      db.exec(`CREATE TRIGGER ${name} ${body}`);
    }
    sql(
      db,
      `INSERT INTO backend_feed (id, nodes, index_name, generation, since) VALUES (1, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET nodes = excluded.nodes, index_name = excluded.index_name,
         generation = excluded.generation, since = excluded.since`,
    ).run(JSON.stringify(feed.nodes), feed.index, feed.generation, Date.now());
    return (sql(db, 'SELECT coalesce(max(seq), 0) FROM backend_outbox').pluck().get() as number) ?? 0;
  })();
}

/** Drops the outbox rows a full copy superseded: those queued before it began reading (seq <= through). */
export function finishFullCopy(db: Db, through: number): void {
  sql(db, 'DELETE FROM backend_outbox WHERE seq <= ?').run(through);
}

/** How many messages wait to be sent to the cluster (0 when the archive feeds none). */
export function outboxDepth(db: Db): number {
  if (!feeds(db)) return 0;
  return sql(db, 'SELECT count(*) FROM backend_outbox').pluck().get() as number;
}

/** The oldest `limit` outbox rows, in order, each with its message's row if it still exists. */
export function outboxHead(db: Db, limit: number): OutboxEntry[] {
  const rows = sql(
    db,
    `SELECT o.seq, i.name AS inbox, o.message_id AS messageId, m.id AS rowid
     FROM backend_outbox o JOIN inboxes i ON i.id = o.inbox_id
     LEFT JOIN messages m ON m.inbox_id = o.inbox_id AND m.message_id = o.message_id
     ORDER BY o.seq LIMIT ?`,
  ).all(limit) as OutboxEntry[];
  return rows;
}

/**
 * Removes sent rows by seq: a change queued while they were in flight replaced its row under
 * a new seq, which stays for the next drain.
 */
export function removeFromOutbox(db: Db, seqs: readonly number[]): void {
  sql(db, 'DELETE FROM backend_outbox WHERE seq IN (SELECT value FROM json_each(?))').run(
    JSON.stringify(seqs),
  );
}

// The vector outbox of an archive that feeds a search cluster: which chunks' vectors the
// cluster's k-NN index must write again or delete. Queued by triggers in the transaction of
// each change (an embedding stored clears the chunk's backlog row; a chunk deleted takes its
// vector), one row per chunk: what a drain sends is the vector as the archive holds it then,
// or its deletion. The vector table itself is sqlite-vec's virtual table, which takes no
// triggers. Created only when an archive starts feeding a cluster's vector index.

import { type Db, sql } from '../store/index.js';
import { hasVectorTable } from './vectors.js';

const TABLE = `
  CREATE TABLE IF NOT EXISTS backend_vector_outbox (
    seq INTEGER PRIMARY KEY,
    chunk_id INTEGER NOT NULL UNIQUE,
    -- The chunk's inbox when queued: a deleted chunk's document is named by it.
    inbox_id INTEGER NOT NULL
  );
`;

const ENQUEUE = 'INSERT OR REPLACE INTO backend_vector_outbox (chunk_id, inbox_id)';

const TRIGGERS: ReadonlyArray<readonly [name: string, body: string]> = [
  // embed.ts stores a batch's vectors and clears their backlog rows in one transaction.
  [
    'backend_vector_outbox_embedded',
    // A chunk deleted first has queued itself.
    `AFTER DELETE ON embedding_backlog BEGIN
       ${ENQUEUE} SELECT id, inbox_id FROM rag_chunks WHERE id = old.chunk_id; END`,
  ],
  [
    'backend_vector_outbox_chunk_delete',
    `AFTER DELETE ON rag_chunks BEGIN ${ENQUEUE} VALUES (old.id, old.inbox_id); END`,
  ],
];

/** A chunk's vector with what the cluster filters on; null fields when the archive holds none. */
export interface FedVector {
  readonly chunkId: number;
  readonly inbox: string;
  readonly kind: string;
  readonly date: number;
  readonly hasAttachment: boolean;
  readonly embedding: Float32Array;
}

export interface VectorOutboxEntry {
  readonly seq: number;
  readonly chunkId: number;
  readonly inbox: string;
  /** The vector now; null when the archive holds none (chunk deleted, or not embedded). */
  readonly vector: FedVector | null;
}

/** Whether the archive feeds a cluster's vector index (a full copy started it). */
export function feedsVectors(db: Db): boolean {
  return (
    sql(db, "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'backend_vector_outbox'").get() !==
    undefined
  );
}

/**
 * Installs the outbox and its triggers (again: a newer build's replace older ones) and returns
 * its last seq: a full copy that starts reading after this may drop the rows up to it.
 */
export function startVectorFeed(db: Db): number {
  return db.transaction(() => {
    db.exec(TABLE);
    for (const [name, body] of TRIGGERS) {
      db.exec(`DROP TRIGGER IF EXISTS ${name}`);
      db.exec(`CREATE TRIGGER ${name} ${body}`);
    }
    return sql(db, 'SELECT coalesce(max(seq), 0) FROM backend_vector_outbox').pluck().get() as number;
  })();
}

export function vectorOutboxDepth(db: Db): number {
  if (!feedsVectors(db)) return 0;
  return sql(db, 'SELECT count(*) FROM backend_vector_outbox').pluck().get() as number;
}

/** The stored vectors of `chunkIds` (those that have one), with their inbox's name. */
export function fedVectors(db: Db, chunkIds: readonly number[]): Map<number, FedVector> {
  if (chunkIds.length === 0 || !hasVectorTable(db)) return new Map();
  // One rowid lookup each: a rowid IN (…) constraint makes vec0 scan the whole table.
  const one = sql(
    db,
    `SELECT v.embedding, v.kind, v.date, v.has_attachment AS hasAttachment, i.name AS inbox
     FROM rag_vectors v JOIN inboxes i ON i.id = v.inbox_id WHERE v.rowid = ?`,
  );
  const found = new Map<number, FedVector>();
  for (const chunkId of chunkIds) {
    const row = one.get(BigInt(chunkId)) as
      | { embedding: Buffer; kind: string; date: number; hasAttachment: number; inbox: string }
      | undefined;
    if (!row) continue;
    const bytes = row.embedding;
    const embedding = new Float32Array(
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
    );
    found.set(chunkId, {
      chunkId,
      inbox: row.inbox,
      kind: row.kind,
      date: Number(row.date),
      hasAttachment: row.hasAttachment === 1,
      embedding,
    });
  }
  return found;
}

/** The oldest `limit` rows, in order, each with its chunk's vector now. */
export function vectorOutboxHead(db: Db, limit: number): VectorOutboxEntry[] {
  if (!feedsVectors(db)) return [];
  const rows = sql(
    db,
    `SELECT o.seq, o.chunk_id AS chunkId, i.name AS inbox
     FROM backend_vector_outbox o JOIN inboxes i ON i.id = o.inbox_id ORDER BY o.seq LIMIT ?`,
  ).all(limit) as Array<{ seq: number; chunkId: number; inbox: string }>;
  const vectors = fedVectors(
    db,
    rows.map((r) => r.chunkId),
  );
  return rows.map((r) => ({ ...r, vector: vectors.get(r.chunkId) ?? null }));
}

/** Removes sent rows by seq: a chunk changed again meanwhile moved to a new seq and stays. */
export function removeFromVectorOutbox(db: Db, seqs: readonly number[]): void {
  sql(db, 'DELETE FROM backend_vector_outbox WHERE seq IN (SELECT value FROM json_each(?))').run(
    JSON.stringify(seqs),
  );
}

/** Drops the rows a full copy superseded (seq <= through). */
export function finishVectorCopy(db: Db, through: number): void {
  sql(db, 'DELETE FROM backend_vector_outbox WHERE seq <= ?').run(through);
}

/** Queues every stored vector again (the cluster's index was made anew). */
export function requeueStoredVectors(db: Db): void {
  if (!hasVectorTable(db)) return;
  db.exec(`${ENQUEUE} SELECT rowid, inbox_id FROM rag_vectors`);
}

/** Every stored vector's chunk id with its inbox's name, in chunk order (a full copy reads them in batches). */
export function storedVectorKeys(db: Db): Array<{ chunkId: number; inbox: string }> {
  if (!hasVectorTable(db)) return [];
  return sql(
    db,
    `SELECT v.rowid AS chunkId, i.name AS inbox FROM rag_vectors v JOIN inboxes i ON i.id = v.inbox_id
     ORDER BY v.rowid`,
  ).all() as Array<{ chunkId: number; inbox: string }>;
}

// The vector index: one sqlite-vec vec0 table in the archive database, partitioned by inbox,
// with chunk kind, date and attachment flag as metadata for pre-filtering. Its dimensions
// follow the recorded embedding model; another model means a new table and a re-embed.

import { type Db, sql } from '../store/index.js';
import { getRagMeta, setRagMeta } from './schema.js';

const TABLE = 'rag_vectors';

export interface VectorRow {
  readonly chunkId: number;
  readonly inboxId: number;
  readonly kind: string;
  readonly date: number;
  readonly hasAttachment: boolean;
  readonly embedding: Float32Array;
}

export interface KnnFilter {
  readonly inboxId: number;
  readonly kinds: readonly string[];
  readonly after?: number | null;
  readonly before?: number | null;
  readonly hasAttachment?: boolean;
  /** At most 4096 (sqlite-vec's limit). */
  readonly k: number;
}

export function hasVectorTable(db: Db): boolean {
  return sql(db, 'SELECT 1 FROM sqlite_schema WHERE name = ?').get(TABLE) !== undefined;
}

/** The model the stored vectors were made with, or null before the first embedding. */
export function vectorModel(db: Db): { model: string; dimensions: number } | null {
  const model = getRagMeta(db, 'model');
  const dimensions = getRagMeta(db, 'dimensions');
  return model === undefined || dimensions === undefined ? null : { model, dimensions: Number(dimensions) };
}

/**
 * Makes the vector table fit `model`: a first model creates it; a different model or
 * dimension drops every vector and puts every chunk back in the backlog. Returns true when
 * it reset the index.
 */
export function prepareVectorTable(db: Db, model: string, dimensions: number): boolean {
  const current = vectorModel(db);
  if (current && current.model === model && current.dimensions === dimensions && hasVectorTable(db))
    return false;
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 8192)
    throw new RangeError(`embedding dimensions ${dimensions} out of range`);
  db.transaction(() => {
    db.exec(`DROP TABLE IF EXISTS ${TABLE}`);
    db.exec(`CREATE VIRTUAL TABLE ${TABLE} USING vec0(
      inbox_id integer partition key,
      embedding float[${dimensions}] distance_metric=cosine,
      kind text,
      date integer,
      has_attachment integer
    )`);
    db.exec('INSERT OR IGNORE INTO embedding_backlog SELECT id FROM rag_chunks');
    setRagMeta(db, 'model', model);
    setRagMeta(db, 'dimensions', String(dimensions));
  })();
  return current !== null;
}

export function storeVectors(db: Db, rows: readonly VectorRow[]): void {
  const remove = sql(db, `DELETE FROM ${TABLE} WHERE rowid = ?`);
  const insert = sql(
    db,
    `INSERT INTO ${TABLE} (rowid, inbox_id, embedding, kind, date, has_attachment) VALUES (?, ?, ?, ?, ?, ?)`,
  );
  for (const row of rows) {
    // sqlite-vec binds JS numbers as REAL: rowid and integer metadata go in as BigInt.
    remove.run(BigInt(row.chunkId));
    insert.run(
      BigInt(row.chunkId),
      BigInt(row.inboxId),
      row.embedding,
      row.kind,
      BigInt(Math.trunc(row.date)),
      row.hasAttachment ? 1n : 0n,
    );
  }
}

export function deleteVectors(db: Db, chunkIds: readonly number[]): void {
  if (chunkIds.length === 0 || !hasVectorTable(db)) return;
  const remove = sql(db, `DELETE FROM ${TABLE} WHERE rowid = ?`);
  for (const id of chunkIds) remove.run(BigInt(id));
}

/** Nearest chunks to `embedding` within the filter, closest first (cosine distance). */
export function knn(
  db: Db,
  embedding: Float32Array,
  filter: KnnFilter,
): Array<{ chunkId: number; distance: number }> {
  if (!hasVectorTable(db) || filter.kinds.length === 0) return [];
  const kinds = filter.kinds.map((k) => `'${k.replace(/'/g, "''")}'`).join(', ');
  const text = `SELECT rowid AS chunkId, distance FROM ${TABLE}
    WHERE embedding MATCH @embedding AND k = @k AND inbox_id = @inbox AND kind IN (${kinds})
      ${filter.after != null ? 'AND date >= @after' : ''}
      ${filter.before != null ? 'AND date < @before' : ''}
      ${filter.hasAttachment ? 'AND has_attachment = 1' : ''}
    ORDER BY distance`;
  return sql(db, text).all({
    embedding,
    k: Math.min(4096, Math.max(1, filter.k)),
    inbox: BigInt(filter.inboxId),
    ...(filter.after != null ? { after: BigInt(filter.after) } : {}),
    ...(filter.before != null ? { before: BigInt(filter.before) } : {}),
  }) as Array<{ chunkId: number; distance: number }>;
}

/** Cosine distances from `embedding` to the stored vectors of `chunkIds` (those that have one). */
export function distances(
  db: Db,
  embedding: Float32Array,
  chunkIds: readonly number[],
): Array<{ chunkId: number; distance: number }> {
  if (chunkIds.length === 0 || !hasVectorTable(db)) return [];
  return sql(
    db,
    `SELECT rowid AS chunkId, vec_distance_cosine(embedding, @embedding) AS distance FROM ${TABLE}
     WHERE rowid IN (SELECT value FROM json_each(@ids))`,
  ).all({ embedding, ids: JSON.stringify(chunkIds) }) as Array<{ chunkId: number; distance: number }>;
}

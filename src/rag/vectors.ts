// The vector index: one sqlite-vec vec0 table in the archive database, partitioned by inbox
// and by layer (thread summaries apart from details and attachments, so the summary-first step
// scans summaries only), with chunk kind, date and attachment flag as metadata for pre-filtering.
// Its dimensions follow the recorded embedding model; another model means a new table and a re-embed.

import { type Db, sql } from '../store/index.js';
import { getRagMeta, setRagMeta } from './meta.js';

const TABLE = 'rag_vectors';

export type VectorLayer = 'summary' | 'detail';
const layerOf = (kind: string): VectorLayer => (kind === 'summary' ? 'summary' : 'detail');

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

function createVectorTable(db: Db, dimensions: number): void {
  db.exec(`CREATE VIRTUAL TABLE ${TABLE} USING vec0(
    inbox_id integer partition key,
    layer text partition key,
    embedding float[${dimensions}] distance_metric=cosine,
    kind text,
    date integer,
    has_attachment integer
  )`);
}

/**
 * Migration: a vector table from before the layer partition is rebuilt in place from its own
 * vectors (no re-embedding; ~1 min for 500k vectors). Returns true when it rebuilt one.
 */
export function upgradeVectorTable(db: Db): boolean {
  const table = sql(db, 'SELECT sql FROM sqlite_schema WHERE name = ?').get(TABLE) as
    | { sql: string }
    | undefined;
  const model = vectorModel(db);
  if (!table || !model || /\blayer text partition key/.test(table.sql)) return false;
  // vec0 tables cannot be renamed: the vectors wait in a temporary table while it is recreated.
  db.exec(`CREATE TEMP TABLE rag_vectors_upgrade AS
    SELECT rowid AS id, inbox_id, embedding, kind, date, has_attachment FROM ${TABLE}`);
  db.exec(`DROP TABLE ${TABLE}`);
  createVectorTable(db, model.dimensions);
  db.exec(`INSERT INTO ${TABLE} (rowid, inbox_id, layer, embedding, kind, date, has_attachment)
    SELECT id, inbox_id, CASE kind WHEN 'summary' THEN 'summary' ELSE 'detail' END, embedding, kind, date,
      has_attachment
    FROM temp.rag_vectors_upgrade`);
  db.exec('DROP TABLE temp.rag_vectors_upgrade');
  return true;
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
    createVectorTable(db, dimensions);
    db.exec('INSERT OR IGNORE INTO embedding_backlog SELECT id FROM rag_chunks');
    db.exec('DELETE FROM rag_chunk_density');
    db.exec("DELETE FROM rag_meta WHERE key = 'density_basis'");
    setRagMeta(db, 'model', model);
    setRagMeta(db, 'dimensions', String(dimensions));
  })();
  return current !== null;
}

export function storeVectors(db: Db, rows: readonly VectorRow[]): void {
  const remove = sql(db, `DELETE FROM ${TABLE} WHERE rowid = ?`);
  const forgetDensity = sql(db, 'DELETE FROM rag_chunk_density WHERE chunk_id = ?');
  const insert = sql(
    db,
    `INSERT INTO ${TABLE} (rowid, inbox_id, layer, embedding, kind, date, has_attachment)
     VALUES (@id, @inbox, @layer, @embedding, @kind, @date, @attachment)`,
  );
  for (const row of rows) {
    // sqlite-vec binds JS numbers as REAL: rowid and integer metadata go in as BigInt.
    remove.run(BigInt(row.chunkId));
    forgetDensity.run(row.chunkId);
    insert.run({
      id: BigInt(row.chunkId),
      inbox: BigInt(row.inboxId),
      layer: layerOf(row.kind),
      embedding: row.embedding,
      kind: row.kind,
      date: BigInt(Math.trunc(row.date)),
      attachment: row.hasAttachment ? 1n : 0n,
    });
  }
}

export function deleteVectors(db: Db, chunkIds: readonly number[]): void {
  if (chunkIds.length === 0 || !hasVectorTable(db)) return;
  const remove = sql(db, `DELETE FROM ${TABLE} WHERE rowid = ?`);
  const forgetDensity = sql(db, 'DELETE FROM rag_chunk_density WHERE chunk_id = ?');
  for (const id of chunkIds) {
    remove.run(BigInt(id));
    forgetDensity.run(id);
  }
}

/**
 * Nearest chunks to `embedding` within the filter, closest first (cosine distance). Each layer
 * the kinds belong to is its own partition: asking for summaries scans summaries only.
 */
export function knn(
  db: Db,
  embedding: Float32Array,
  filter: KnnFilter,
): Array<{ chunkId: number; distance: number }> {
  if (!hasVectorTable(db) || filter.kinds.length === 0) return [];
  const k = Math.min(4096, Math.max(1, filter.k));
  const hits = (['summary', 'detail'] as const).flatMap((layer) => {
    const kinds = filter.kinds.filter((kind) => layerOf(kind) === layer);
    if (kinds.length === 0) return [];
    const text = `SELECT rowid AS chunkId, distance FROM ${TABLE}
      WHERE embedding MATCH @embedding AND k = @k AND inbox_id = @inbox AND layer = @layer
        AND kind IN (${kinds.map((kind) => `'${kind.replace(/'/g, "''")}'`).join(', ')})
        ${filter.after != null ? 'AND date >= @after' : ''}
        ${filter.before != null ? 'AND date < @before' : ''}
        ${filter.hasAttachment ? 'AND has_attachment = 1' : ''}
      ORDER BY distance`;
    return sql(db, text).all({
      embedding,
      k,
      inbox: BigInt(filter.inboxId),
      layer,
      ...(filter.after != null ? { after: BigInt(filter.after) } : {}),
      ...(filter.before != null ? { before: BigInt(filter.before) } : {}),
    }) as Array<{ chunkId: number; distance: number }>;
  });
  return hits.sort((a, b) => a.distance - b.distance).slice(0, k);
}

/**
 * Cosine distances from `embedding` to the stored vectors of `chunkIds` (those that have one),
 * one rowid lookup each: a `rowid IN (…)` constraint makes vec0 scan the whole table.
 */
export function distances(
  db: Db,
  embedding: Float32Array,
  chunkIds: readonly number[],
): Array<{ chunkId: number; distance: number }> {
  if (chunkIds.length === 0 || !hasVectorTable(db)) return [];
  const one = sql(db, `SELECT vec_distance_cosine(embedding, ?) AS distance FROM ${TABLE} WHERE rowid = ?`);
  return chunkIds.flatMap((chunkId) => {
    const row = one.get(embedding, BigInt(chunkId)) as { distance: number } | undefined;
    return row ? [{ chunkId, distance: row.distance }] : [];
  });
}

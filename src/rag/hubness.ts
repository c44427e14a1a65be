// Hubness: in a model whose vectors crowd into a narrow cone (multilingual e5: any two texts
// at cosine ≈ 0.8), a few chunks near the crowd's centre are among the nearest of nearly
// every question. The remedy is CSLS's (Conneau et al., "Word translation without parallel
// data", 2018): a chunk's similarity to a question is lowered by its density, the mean
// similarity to its nearest neighbours, so a chunk near everything must be nearer to a
// question than one near little.
//
// A chunk's neighbours are looked for in a sample of its layer (summaries apart from details):
// at most SAMPLE_SIZE chunks spread evenly over the chunk ids, the whole layer of a small
// archive and a fixed cost per chunk in a large one (1,024 dot products, ~0.5 ms at 384
// dimensions). Nothing scans the chunk table: the sample is found by rowid seeks, kept per
// process, and taken again when a tenth more chunks have vectors or the model changed.
// Densities are measured as chunks are embedded (embed.ts, a small cost beside the model's)
// and stored (rag_chunk_density); a question measures only those an older version embedded.

import { type Db, sql } from '../store/index.js';
import { getRagMeta, setRagMeta } from './meta.js';
import { hasVectorTable, vectorModel } from './vectors.js';

/** Chunks a density is measured against, at most. */
const SAMPLE_SIZE = 1024;
/** Nearest neighbours a density averages. */
const NEIGHBOURS = 10;

type Layer = 'summary' | 'detail';

interface LayerSample {
  /** The embedding model, and how many chunks had a vector, when sampled. */
  readonly model: string;
  readonly embedded: number;
  readonly ids: Int32Array;
  /** The sampled vectors, normalised, one after another. */
  readonly vectors: Float32Array;
  readonly dimensions: number;
}

const samples = new WeakMap<Db, Map<Layer, LayerSample>>();

function normalised(blob: Buffer): Float32Array {
  const vector = new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));
  let norm = 0;
  for (const x of vector) norm += x * x;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i] = (vector[i] as number) / norm;
  return vector;
}

/** Chunks that have a vector (or are having one stored), without scanning the vector table. */
const embeddedCount = (db: Db): number =>
  sql(db, 'SELECT (SELECT count(*) FROM rag_chunks) - (SELECT count(*) FROM embedding_backlog)')
    .pluck()
    .get() as number;

function sampleOf(db: Db, layer: Layer, model: string, embedded: number): LayerSample {
  let byLayer = samples.get(db);
  if (!byLayer) {
    byLayer = new Map();
    samples.set(db, byLayer);
  }
  const kept = byLayer.get(layer);
  if (kept && kept.model === model && embedded >= kept.embedded && embedded <= kept.embedded * 1.1)
    return kept;
  const maxId = (sql(db, 'SELECT max(id) FROM rag_chunks').pluck().get() as number | null) ?? 0;
  const next = sql(
    db,
    `SELECT id FROM rag_chunks WHERE id >= ? AND ${layer === 'summary' ? "kind = 'summary'" : "kind <> 'summary'"}
     ORDER BY id LIMIT 1`,
  ).pluck();
  const one = sql(db, 'SELECT embedding FROM rag_vectors WHERE rowid = ?').pluck();
  const ids: number[] = [];
  const vectors: Float32Array[] = [];
  const step = Math.max(1, maxId / SAMPLE_SIZE);
  for (let from = 1; from <= maxId; from += step) {
    const id = next.get(Math.ceil(from)) as number | undefined;
    if (id === undefined) break;
    if (id === ids[ids.length - 1]) continue;
    const blob = one.get(BigInt(id)) as Buffer | undefined;
    if (!blob) continue;
    ids.push(id);
    vectors.push(normalised(blob));
  }
  const dimensions = vectors[0]?.length ?? 0;
  const matrix = new Float32Array(vectors.length * dimensions);
  vectors.forEach((v, i) => {
    matrix.set(v, i * dimensions);
  });
  const sample = {
    model,
    embedded,
    ids: Int32Array.from(ids),
    vectors: matrix,
    dimensions,
  };
  byLayer.set(layer, sample);
  return sample;
}

/** Mean similarity of `vector` to its NEIGHBOURS nearest in the sample, itself left out. */
function density(sample: LayerSample, id: number, vector: Float32Array): number {
  const { vectors, dimensions } = sample;
  if (vector.length !== dimensions) return 0;
  const nearest = new Float64Array(NEIGHBOURS).fill(Number.NEGATIVE_INFINITY);
  let weakest = 0;
  for (let row = 0; row < sample.ids.length; row++) {
    if (sample.ids[row] === id) continue;
    let similarity = 0;
    const offset = row * dimensions;
    for (let i = 0; i < dimensions; i++)
      similarity += (vector[i] as number) * (vectors[offset + i] as number);
    if (similarity <= (nearest[weakest] as number)) continue;
    nearest[weakest] = similarity;
    for (let i = 0; i < NEIGHBOURS; i++)
      if ((nearest[i] as number) < (nearest[weakest] as number)) weakest = i;
  }
  const found = nearest.filter((s) => s !== Number.NEGATIVE_INFINITY);
  return found.length === 0 ? 0 : found.reduce((a, b) => a + b, 0) / found.length;
}

/**
 * Densities stored while the archive had at most SETTLED chunks with vectors are measured again
 * once it has REGROWTH times as many: a small layer's nearest neighbours are farther than a
 * large one's. Past SETTLED every sample is SAMPLE_SIZE drawn from many times as many chunks,
 * and a density stays as measured.
 */
const REGROWTH = 1.25;
const SETTLED = 16 * SAMPLE_SIZE;

/** Measures the densities of `chunkIds` (those with a vector) and stores them. */
function measure(db: Db, chunkIds: readonly number[], model: string): Map<number, number> {
  const result = new Map<number, number>();
  const kindOf = sql(db, 'SELECT kind FROM rag_chunks WHERE id = ?').pluck();
  const one = sql(db, 'SELECT embedding FROM rag_vectors WHERE rowid = ?').pluck();
  const layers = new Map<Layer, LayerSample>();
  let embedded: number | undefined;
  for (const id of chunkIds) {
    const kind = kindOf.get(id) as string | undefined;
    const blob = kind === undefined ? undefined : (one.get(BigInt(id)) as Buffer | undefined);
    if (!blob) continue;
    const layer: Layer = kind === 'summary' ? 'summary' : 'detail';
    let sample = layers.get(layer);
    if (!sample) {
      embedded ??= embeddedCount(db);
      sample = sampleOf(db, layer, model, embedded);
      layers.set(layer, sample);
    }
    result.set(id, density(sample, id, normalised(blob)));
  }
  if (!db.readonly && result.size > 0) {
    const store = sql(db, 'INSERT OR REPLACE INTO rag_chunk_density (chunk_id, density) VALUES (?, ?)');
    db.transaction(() => {
      for (const [id, value] of result) store.run(id, value);
    })();
  }
  return result;
}

/**
 * The density of each of `chunkIds` that has a vector: the stored one, else measured now and
 * stored (a read-only archive measures it again in each process).
 */
export function chunkDensities(db: Db, chunkIds: readonly number[]): Map<number, number> {
  const model = vectorModel(db)?.model;
  if (chunkIds.length === 0 || model === undefined || !hasVectorTable(db)) return new Map();
  const result = new Map(
    (
      sql(
        db,
        'SELECT chunk_id, density FROM rag_chunk_density WHERE chunk_id IN (SELECT value FROM json_each(?))',
      )
        .raw()
        .all(JSON.stringify(chunkIds)) as Array<[number, number]>
    ).map(([id, value]) => [id, value]),
  );
  const missing = chunkIds.filter((id) => !result.has(id));
  for (const [id, value] of measure(db, missing, model)) result.set(id, value);
  return result;
}

/**
 * After `chunkIds` were embedded: measures their densities, and every stored one again when
 * the archive has outgrown what they were measured in (REGROWTH).
 */
export function measureDensities(db: Db, chunkIds: readonly number[]): void {
  const model = vectorModel(db)?.model;
  if (model === undefined || !hasVectorTable(db) || db.readonly) return;
  const basis = Number(getRagMeta(db, 'density_basis') ?? 0);
  const embedded = embeddedCount(db);
  const outgrown = basis < SETTLED && embedded > basis * REGROWTH;
  const again = outgrown ? (sql(db, 'SELECT chunk_id FROM rag_chunk_density').pluck().all() as number[]) : [];
  measure(db, [...new Set([...again, ...chunkIds])], model);
  if (outgrown) setRagMeta(db, 'density_basis', String(embedded));
}

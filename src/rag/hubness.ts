// Hubness: in a model whose vectors crowd into a narrow cone (multilingual e5: any two texts
// at cosine ≈ 0.8), a few chunks near the crowd's centre are among the nearest of nearly
// every question. On the LKML real-mail set two such chunks (a one-line patch and its ack)
// were in the vector leg's top three for all 46 questions it missed. The remedy is CSLS's
// (Conneau et al., "Word translation without parallel data", 2018): a chunk's similarity to
// a question is lowered by its density, the mean similarity to its nearest neighbours, so a
// chunk near everything must be nearer to a question than one near little.
//
// A chunk's neighbours are looked for in a sample of its layer (summaries apart from details):
// at most SAMPLE_SIZE chunks spread evenly over the chunk ids, the whole layer of a small
// archive and a fixed cost per chunk in a large one (1,024 dot products). Nothing scans the
// chunk table: the sample is found by rowid seeks, kept per process, and taken again when the
// archive's chunk ids have grown by a tenth or the embedding model changed. A density is
// stored once measured (rag_chunk_density), so a question pays only for chunks no earlier
// question met.

import { type Db, sql } from '../store/index.js';
import { getRagMeta, setRagMeta } from './meta.js';
import { hasVectorTable, vectorModel } from './vectors.js';

/** Chunks a density is measured against, at most. */
const SAMPLE_SIZE = 1024;
/** Nearest neighbours a density averages. */
const NEIGHBOURS = 10;

type Layer = 'summary' | 'detail';

interface LayerSample {
  /** The embedding model and the highest chunk id when sampled. */
  readonly model: string;
  readonly maxId: number;
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

function sampleOf(db: Db, layer: Layer, model: string): LayerSample {
  const maxId = (sql(db, 'SELECT max(id) FROM rag_chunks').pluck().get() as number | null) ?? 0;
  let byLayer = samples.get(db);
  if (!byLayer) {
    byLayer = new Map();
    samples.set(db, byLayer);
  }
  const kept = byLayer.get(layer);
  if (kept && kept.model === model && maxId >= kept.maxId && maxId <= kept.maxId * 1.1) return kept;
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
    maxId,
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
  let found = 0;
  for (let row = 0; row < sample.ids.length; row++) {
    if (sample.ids[row] === id) continue;
    let similarity = 0;
    const offset = row * dimensions;
    for (let i = 0; i < dimensions; i++)
      similarity += (vector[i] as number) * (vectors[offset + i] as number);
    if (similarity <= (nearest[weakest] as number)) continue;
    nearest[weakest] = similarity;
    found = Math.min(found + 1, NEIGHBOURS);
    for (let i = 0; i < NEIGHBOURS; i++)
      if ((nearest[i] as number) < (nearest[weakest] as number)) weakest = i;
  }
  let sum = 0;
  for (const s of nearest) if (s !== Number.NEGATIVE_INFINITY) sum += s;
  return found === 0 ? 0 : sum / found;
}

/**
 * Stored densities were measured against an archive at most this much smaller: past it they
 * are measured again, since a small layer's nearest neighbours are farther than a large one's.
 */
const REGROWTH = 2;

/** Drops the stored densities once the chunk ids have outgrown the archive they were measured in. */
function keepDensitiesCurrent(db: Db): void {
  const maxId = (sql(db, 'SELECT max(id) FROM rag_chunks').pluck().get() as number | null) ?? 0;
  const basis = Number(getRagMeta(db, 'density_basis') ?? 0);
  if (basis > 0 && maxId <= basis * REGROWTH) return;
  db.transaction(() => {
    db.exec('DELETE FROM rag_chunk_density');
    setRagMeta(db, 'density_basis', String(Math.max(1, maxId)));
  })();
}

/**
 * The density of each of `chunkIds` that has a vector: stored ones read, the others measured
 * against their layer's sample and stored (~1 ms a chunk of 384 dimensions; a read-only
 * archive measures them again in each process).
 */
export function chunkDensities(db: Db, chunkIds: readonly number[]): Map<number, number> {
  const result = new Map<number, number>();
  const model = vectorModel(db)?.model;
  if (chunkIds.length === 0 || model === undefined || !hasVectorTable(db)) return result;
  if (!db.readonly) keepDensitiesCurrent(db);
  const stored = sql(
    db,
    'SELECT chunk_id AS id, density FROM rag_chunk_density WHERE chunk_id IN (SELECT value FROM json_each(?))',
  ).all(JSON.stringify(chunkIds)) as Array<{ id: number; density: number }>;
  for (const { id, density } of stored) result.set(id, density);
  const missing = chunkIds.filter((id) => !result.has(id));
  if (missing.length === 0) return result;
  const kindOf = sql(db, 'SELECT kind FROM rag_chunks WHERE id = ?').pluck();
  const one = sql(db, 'SELECT embedding FROM rag_vectors WHERE rowid = ?').pluck();
  const layers = new Map<Layer, LayerSample>();
  const measured: Array<[number, number]> = [];
  for (const id of missing) {
    const kind = kindOf.get(id) as string | undefined;
    const blob = kind === undefined ? undefined : (one.get(BigInt(id)) as Buffer | undefined);
    if (!blob) continue;
    const layer: Layer = kind === 'summary' ? 'summary' : 'detail';
    let sample = layers.get(layer);
    if (!sample) {
      sample = sampleOf(db, layer, model);
      layers.set(layer, sample);
    }
    const value = density(sample, id, normalised(blob));
    result.set(id, value);
    measured.push([id, value]);
  }
  if (!db.readonly && measured.length > 0) {
    const store = sql(db, 'INSERT OR REPLACE INTO rag_chunk_density (chunk_id, density) VALUES (?, ?)');
    db.transaction(() => {
      for (const [id, value] of measured) store.run(id, value);
    })();
  }
  return result;
}

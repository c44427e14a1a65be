// Where the vector leg's neighbours come from: the archive's own vec0 table (vectors.ts) by
// default, or, with the OpenSearch backend, the cluster's k-NN index
// (backend/opensearch/vectors.ts), which the archive feeds as it feeds the message index.
// Both answer the same two questions under the same filters; the leg above them is the same.

import type { Db } from '../store/index.js';
import { distances, type KnnFilter, knn } from './vectors.js';

/** A chunk and its cosine distance to the question (0 = same direction, 2 = opposite). */
export interface VectorHit {
  readonly chunkId: number;
  readonly distance: number;
}

export interface VectorSearch {
  /** Where the vectors are searched: 'archive' or the cluster's index, named in retrieval's notes. */
  readonly where: string;
  /** Nearest chunks within the filter, closest first. */
  knn(embedding: Float32Array, filter: KnnFilter): Promise<VectorHit[]>;
  /** The distances of these chunks' vectors (those that have one). */
  distances(embedding: Float32Array, chunkIds: readonly number[]): Promise<VectorHit[]>;
}

/** The archive's vector index. */
export function archiveVectors(db: Db): VectorSearch {
  return {
    where: 'archive',
    knn: async (embedding, filter) => knn(db, embedding, filter),
    distances: async (embedding, chunkIds) => distances(db, embedding, chunkIds),
  };
}

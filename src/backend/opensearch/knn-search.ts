// The vector leg's index on the cluster, searched (vectors.ts writes it) with the same filters
// as the archive's vec0 table. HNSW is approximate where vec0 scans exactly; on an archive's few
// thousand chunks per inbox and filter it finds the same neighbours (tested), and at millions it
// is what keeps the leg from scanning every vector (bench:vectors). Apart from the writer, so
// that the surfaces that retrieve load only this and the client.

import type { VectorHit, VectorSearch } from '../../rag/vector-search.js';
import type { KnnFilter } from '../../rag/vectors.js';
import { type Db, sql } from '../../store/index.js';
import { assertComplete, type ShardSummary } from './client.js';
import type { OpenSearchTarget } from './search.js';

/** The k-NN index of a message index. */
export const vectorIndexOf = (index: string): string => `${index}-vectors`;

/** A chunk's id in the cluster: chunk ids are the archive's, and one archive writes an inbox. */
export const vectorId = (inbox: string, chunkId: number): string => `${inbox}\u0000${chunkId}`;

/** The fewest HNSW candidates a k-NN query asks each shard for (its k), whatever the k wanted. */
const KNN_CANDIDATES = 100;

interface HitsResponse {
  readonly _shards?: ShardSummary;
  readonly timed_out?: boolean;
  readonly hits: {
    readonly hits: ReadonlyArray<{ readonly _score: number; readonly _source: { chunk_id: number } }>;
  };
}

/** Lucene's cosinesimil score is (1 + cosine) / 2: back to vec0's cosine distance, 1 - cosine. */
const distanceOf = (score: number): number => 2 - 2 * score;

/**
 * The vector leg's index on the cluster. Inbox ids are the archive's own: the cluster's
 * documents name their inbox, so `db` maps one to the other.
 */
export function clusterVectors(db: Db, { client, index }: OpenSearchTarget): VectorSearch {
  const vectors = vectorIndexOf(index);
  const inboxName = sql(db, 'SELECT name FROM inboxes WHERE id = ?').pluck();
  const search = async (body: unknown): Promise<VectorHit[]> => {
    const response = await client.request<HitsResponse>(
      'POST',
      `/${vectors}/_search?allow_partial_search_results=false`,
      body,
    );
    assertComplete(response);
    return response.hits.hits.map((h) => ({ chunkId: h._source.chunk_id, distance: distanceOf(h._score) }));
  };
  return {
    where: `the cluster's k-NN index ${vectors}`,
    async knn(embedding: Float32Array, filter: KnnFilter): Promise<VectorHit[]> {
      const inbox = inboxName.get(filter.inboxId) as string | undefined;
      if (inbox === undefined || filter.kinds.length === 0) return [];
      const k = Math.min(4096, Math.max(1, filter.k));
      const date = {
        ...(filter.after != null ? { gte: filter.after } : {}),
        ...(filter.before != null ? { lt: filter.before } : {}),
      };
      const clauses = [
        { term: { inbox } },
        { terms: { kind: filter.kinds } },
        ...(Object.keys(date).length > 0 ? [{ range: { date } }] : []),
        ...(filter.hasAttachment ? [{ term: { has_attachment: true } }] : []),
      ];
      // HNSW's candidate list is k per shard: a wider one finds more of the exact nearest
      // (bench:vectors; see docs/opensearch.md).
      const candidates = Math.min(4096, Math.max(k, KNN_CANDIDATES));
      return search({
        size: k,
        _source: ['chunk_id'],
        query: {
          knn: {
            vector: { vector: Array.from(embedding), k: candidates, filter: { bool: { filter: clauses } } },
          },
        },
      });
    },
    async distances(embedding: Float32Array, chunkIds: readonly number[]): Promise<VectorHit[]> {
      if (chunkIds.length === 0) return [];
      const rows = sql(
        db,
        `SELECT c.id AS chunkId, i.name AS inbox FROM rag_chunks c JOIN inboxes i ON i.id = c.inbox_id
         WHERE c.id IN (SELECT value FROM json_each(?))`,
      ).all(JSON.stringify(chunkIds)) as Array<{ chunkId: number; inbox: string }>;
      if (rows.length === 0) return [];
      // Exact scores of the named chunks: the k-NN plugin's scoring script over an ids query.
      return search({
        size: rows.length,
        _source: ['chunk_id'],
        query: {
          script_score: {
            query: { ids: { values: rows.map((r) => vectorId(r.inbox, r.chunkId)) } },
            script: {
              source: 'knn_score',
              lang: 'knn',
              params: { field: 'vector', query_value: Array.from(embedding), space_type: 'cosinesimil' },
            },
          },
        },
      });
    },
  };
}

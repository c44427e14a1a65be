// The vector leg's index on the cluster, written: chunk embeddings in a k-NN index beside the
// message index (`<index>-vectors`), copied by the same full copy and drained from the
// archive's vector outbox (rag/vector-feed.ts) like its messages. The k-NN plugin's Lucene
// engine (HNSW): its faiss and nmslib engines need native libraries the Maven artifact does
// not ship. Searching it is knn-search.ts, which a process that only retrieves loads alone.

import { randomUUID } from 'node:crypto';
import { describeError } from '../../core/errors.js';
import {
  type FedVector,
  fedVectors,
  feedsVectors,
  finishVectorCopy,
  removeFromVectorOutbox,
  requeueStoredVectors,
  startVectorFeed,
  storedVectorKeys,
  vectorOutboxDepth,
  vectorOutboxHead,
} from '../../rag/vector-feed.js';
import { vectorModel } from '../../rag/vectors.js';
import { clusterFeed, type Db } from '../../store/index.js';
import { OpenSearchClient } from './client.js';
import { vectorId, vectorIndexOf } from './knn-search.js';
import type { IndexOptions } from './mapping.js';
import type { OpenSearchTarget } from './search.js';
import { type BulkAction, deleteOtherGenerations, sendBulk } from './writer.js';

/** Vectors read and sent at a time. */
const BATCH = 500;

interface VectorDocument {
  readonly uid: string;
  readonly inbox: string;
  readonly chunk_id: number;
  readonly kind: string;
  readonly date: number;
  readonly has_attachment: boolean;
  readonly vector: number[];
  /** The copy (the feed) that wrote it: a copy deletes the documents of other generations. */
  readonly generation: string;
}

function documentOf(vector: FedVector, generation: string): VectorDocument {
  return {
    uid: vectorId(vector.inbox, vector.chunkId),
    inbox: vector.inbox,
    chunk_id: vector.chunkId,
    kind: vector.kind,
    date: vector.date,
    has_attachment: vector.hasAttachment,
    vector: Array.from(vector.embedding),
    generation,
  };
}

function vectorIndexBody(model: string, dimensions: number, options: IndexOptions): unknown {
  return {
    settings: {
      index: { knn: true },
      number_of_shards: options.shards ?? 3,
      number_of_replicas: options.replicas ?? 1,
    },
    mappings: {
      dynamic: 'strict',
      // Searches read the vectors from the index itself (the graph, doc values); kept in the
      // source they would be stored once more as JSON text (bench:vectors, 20k vectors of 384
      // with a replica: 389 MB, 357 MB without). The archive holds them for any copy made again.
      _source: { excludes: ['vector'] },
      // Vectors of another model are not comparable: a drain that finds another model here
      // makes the index again (as prepareVectorTable does the archive's table).
      _meta: { model, dimensions },
      properties: {
        uid: { type: 'keyword' },
        inbox: { type: 'keyword' },
        chunk_id: { type: 'long' },
        kind: { type: 'keyword' },
        date: { type: 'long' },
        has_attachment: { type: 'boolean' },
        generation: { type: 'keyword' },
        vector: {
          type: 'knn_vector',
          dimension: dimensions,
          method: { name: 'hnsw', engine: 'lucene', space_type: 'cosinesimil' },
        },
      },
    },
  };
}

/** The shards and replicas of an existing index. */
async function shapeOf(client: OpenSearchClient, index: string): Promise<IndexOptions> {
  const settings = await client.request<
    Record<string, { settings: { index: { number_of_shards: string; number_of_replicas: string } } }>
  >('GET', `/${index}/_settings`);
  const own = Object.values(settings)[0]?.settings.index;
  return own ? { shards: Number(own.number_of_shards), replicas: Number(own.number_of_replicas) } : {};
}

/**
 * Makes the k-NN index fit the archive's embedding model: created when missing, made again
 * when it holds another model's vectors, shaped as `shape` says (a drain has no reindex
 * options: it shapes it as the message index). Returns whether it (re)created the index.
 */
async function ensureVectorIndex(
  client: OpenSearchClient,
  index: string,
  model: { model: string; dimensions: number },
  shape: () => Promise<IndexOptions>,
): Promise<boolean> {
  if (await client.exists(`/${index}`)) {
    const mappings = await client.request<
      Record<string, { mappings?: { _meta?: { model?: string; dimensions?: number } } }>
    >('GET', `/${index}/_mapping`);
    const meta = Object.values(mappings)[0]?.mappings?._meta;
    if (meta?.model === model.model && meta.dimensions === model.dimensions) return false;
    await client.request('DELETE', `/${index}`);
  }
  await client.request(
    'PUT',
    `/${index}?wait_for_active_shards=all`,
    vectorIndexBody(model.model, model.dimensions, await shape()),
  );
  return true;
}

export interface VectorCopy {
  readonly indexed: number;
  readonly deleted: number;
}

/**
 * Copies every stored vector to the k-NN index of `target` and makes the archive feed it from
 * now on; documents the copy did not write (chunks gone since) are deleted, as syncArchive
 * does for messages. An archive without vectors yet copies none: its first embeddings are
 * drained into an index made then.
 */
export async function syncVectors(
  db: Db,
  { client, index }: OpenSearchTarget,
  options: IndexOptions = {},
): Promise<VectorCopy> {
  const through = startVectorFeed(db);
  const model = vectorModel(db);
  if (model === null) return { indexed: 0, deleted: 0 };
  const vectors = vectorIndexOf(index);
  await ensureVectorIndex(client, vectors, model, async () => options);
  // The feed's generation (the message copy's): vectors a drain writes meanwhile carry it
  // too, so the cleanup below keeps them.
  const generation = clusterFeed(db)?.generation ?? randomUUID();
  const ids = storedVectorKeys(db).map((v) => v.chunkId);
  for (let i = 0; i < ids.length; i += BATCH) {
    const batch = [...fedVectors(db, ids.slice(i, i + BATCH)).values()];
    const rejected = await sendBulk(
      client,
      vectors,
      batch.map((v) => ({ document: documentOf(v, generation) })),
    );
    if (rejected) throw new Error(`vector ${rejected.position} refused: ${JSON.stringify(rejected.error)}`);
  }
  await client.request('POST', `/${vectors}/_refresh`);
  const deleted = await deleteOtherGenerations(client, vectors, generation);
  finishVectorCopy(db, through);
  return { indexed: ids.length, deleted };
}

export interface VectorDrain {
  readonly sent: number;
  readonly waiting: number;
  readonly error?: string;
}

/**
 * Sends the vector outbox of an archive that feeds a cluster, in order: each chunk's vector as
 * the archive holds it now (under the feed's generation), or its deletion. Undefined when the
 * archive feeds no cluster's vectors (no full copy of them was made: `reindex --backend
 * opensearch` makes one). As the message drain: what the cluster did not accept stays queued.
 */
export async function drainVectorOutbox(
  db: Db,
  options: { client?: OpenSearchClient; batch?: number } = {},
): Promise<VectorDrain | undefined> {
  const feed = clusterFeed(db);
  if (!feed || !feedsVectors(db)) return undefined;
  if (vectorOutboxDepth(db) === 0) return { sent: 0, waiting: 0 };
  const client = options.client ?? new OpenSearchClient({ nodes: feed.nodes });
  const index = vectorIndexOf(feed.index);
  let sent = 0;
  try {
    const model = vectorModel(db);
    // Another model's index is made again, and every stored vector sent to it.
    if (model && (await ensureVectorIndex(client, index, model, () => shapeOf(client, feed.index))))
      requeueStoredVectors(db);
    for (;;) {
      const entries = vectorOutboxHead(db, options.batch ?? BATCH);
      if (entries.length === 0) break;
      const actions = entries.map(
        (e): BulkAction<VectorDocument> =>
          e.vector
            ? { document: documentOf(e.vector, feed.generation) }
            : { delete: vectorId(e.inbox, e.chunkId) },
      );
      const rejected = model ? await sendBulk(client, index, actions) : undefined;
      const accepted = rejected ? entries.slice(0, rejected.position) : entries;
      removeFromVectorOutbox(
        db,
        accepted.map((e) => e.seq),
      );
      sent += accepted.length;
      if (rejected)
        throw new Error(
          `the cluster refused the vector of chunk ${entries[rejected.position]?.chunkId} (${rejected.status}): ${JSON.stringify(rejected.error)}`,
        );
    }
  } catch (error) {
    return { sent, waiting: vectorOutboxDepth(db), error: describeError(error) };
  }
  return { sent, waiting: vectorOutboxDepth(db) };
}

// The vector leg on a real one-node OpenSearch cluster with the k-NN plugin (Lucene HNSW),
// started here: the archive's vectors copied and then fed (new embeddings, deleted chunks, a
// new model), the cluster's neighbours and distances against the archive's own vec0 index
// under the same filters, retrieval through either giving the same answer, and a cluster that
// cannot answer failing the question rather than shortening it.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ClusterState,
  freeBasePort,
  nodeUrls,
  startCluster,
  stopCluster,
} from '../../../scripts/cluster.mjs';
import { runCliAsync } from '../../../test/e2e/cli.js';
import { isMailsiftError } from '../../core/errors.js';
import type { Mailsift } from '../../engine.js';
import { embedPending } from '../../rag/embed.js';
import { openAiEmbedder } from '../../rag/embedder.js';
import { type RetrievalResult, retrieve } from '../../rag/retrieve.js';
import { deleteThroughHooks, loopbackEnv, openGrowingArchive, useLoopback } from '../../rag/test-helpers.js';
import { vectorOutboxDepth } from '../../rag/vector-feed.js';
import { archiveVectors } from '../../rag/vector-search.js';
import { sql } from '../../store/index.js';
import { checkCluster } from './check.js';
import { OpenSearchClient } from './client.js';
import { clusterVectors, vectorId, vectorIndexOf } from './knn-search.js';
import type { OpenSearchTarget } from './search.js';
import { syncVectors } from './vectors.js';
import { syncArchive } from './writer.js';

const loopback = useLoopback();
let cluster: ClusterState | undefined;
let engine: Mailsift;
let folder: string;
let target: OpenSearchTarget;

/** The chunk ids the cluster's k-NN index holds, after a refresh. */
async function clusterChunkIds(): Promise<number[]> {
  const index = vectorIndexOf(target.index);
  await target.client.request('POST', `/${index}/_refresh`);
  const page = await target.client.request<{ hits: { hits: Array<{ _source: { chunk_id: number } }> } }>(
    'POST',
    `/${index}/_search`,
    { size: 10_000, _source: ['chunk_id'], query: { match_all: {} } },
  );
  return page.hits.hits.map((h) => h._source.chunk_id).sort((a, b) => a - b);
}

const archiveChunkIds = (): number[] =>
  sql(engine.archive.db, 'SELECT rowid FROM rag_vectors ORDER BY rowid').pluck().all() as number[];

/** A second embedding model: 32 dimensions where the first has 64. */
const otherModel = () =>
  openAiEmbedder({ url: loopback.server().url, model: 'loopback-other', dimensions: 32, maxRetries: 0 });

const inboxId = (): number =>
  sql(engine.archive.db, "SELECT id FROM inboxes WHERE name = 'work'").pluck().get() as number;

beforeAll(async () => {
  const basePort = await freeBasePort(1);
  [cluster, { engine, folder }] = await Promise.all([
    startCluster({ nodes: 1, basePort }),
    openGrowingArchive(),
  ]);
  target = {
    client: new OpenSearchClient({ nodes: nodeUrls(cluster), timeoutMs: 20_000 }),
    index: 'knn-mail',
  };
  await embedPending(engine, loopback.embedder());
  const db = engine.archive.db;
  await syncArchive(db, target, { replicas: 0 });
  await syncVectors(db, target, { replicas: 0, shards: 2 });
}, 180_000);

afterAll(async () => {
  engine?.close();
  if (cluster) await stopCluster(cluster.basePort);
});

describe('the vector leg on an OpenSearch k-NN index', () => {
  it('copies every stored vector, and finds the same neighbours as the archive under the same filters', async () => {
    expect(archiveChunkIds().length).toBeGreaterThan(3);
    expect(await clusterChunkIds()).toEqual(archiveChunkIds());
    const db = engine.archive.db;
    const [question] = await loopback.embedder().embed(['quando parte il terzo turno'], 'query');
    const embedding = question as Float32Array;
    const onCluster = clusterVectors(db, target);
    const onArchive = archiveVectors(db);
    const dates = sql(db, 'SELECT date FROM rag_vectors ORDER BY date').pluck().all() as number[];
    const middle = dates[Math.floor(dates.length / 2)] as number;
    for (const filter of [
      { inboxId: inboxId(), kinds: ['summary'], k: 50 },
      { inboxId: inboxId(), kinds: ['detail', 'attachment'], k: 5 },
      { inboxId: inboxId(), kinds: ['detail'], k: 50, after: middle },
      { inboxId: inboxId(), kinds: ['detail'], k: 50, before: middle },
      { inboxId: inboxId() + 1000, kinds: ['detail'], k: 50 },
    ]) {
      const expected = await onArchive.knn(embedding, filter);
      const found = await onCluster.knn(embedding, filter);
      expect(found.map((h) => h.chunkId)).toEqual(expected.map((h) => h.chunkId));
      for (const [i, hit] of found.entries())
        expect(hit.distance).toBeCloseTo(expected[i]?.distance ?? -1, 4);
    }
    const some = archiveChunkIds().slice(0, 4);
    const exact = await onArchive.distances(embedding, some);
    const scored = await onCluster.distances(embedding, some);
    expect(new Map(scored.map((h) => [h.chunkId, h.distance]))).toEqual(
      new Map(exact.map((h) => [h.chunkId, expect.closeTo(h.distance, 4)])),
    );
  });

  it('retrieves the same answer through the cluster as through the archive, and says where it searched', async () => {
    const embedder = loopback.embedder();
    const question = 'quando parte il terzo turno?';
    const local = await retrieve(engine, question, { inbox: 'work', embedder });
    const remote = await retrieve(engine, question, {
      inbox: 'work',
      embedder,
      vectors: clusterVectors(engine.archive.db, target),
    });
    expect(remote.mode).toBe('hybrid');
    expect(remote.messages.map((m) => m.messageId)).toEqual(local.messages.map((m) => m.messageId));
    expect(remote.passages.map((p) => p.text)).toEqual(local.passages.map((p) => p.text));
    expect(remote.notes).toContain(
      `vectors searched in the cluster's k-NN index ${vectorIndexOf(target.index)}`,
    );
    // Vector-only: the cluster's neighbours alone rank the same messages.
    const [alone, aloneLocal] = await Promise.all([
      retrieve(engine, question, {
        inbox: 'work',
        embedder,
        mode: 'vector',
        vectors: clusterVectors(engine.archive.db, target),
      }),
      retrieve(engine, question, { inbox: 'work', embedder, mode: 'vector' }),
    ]);
    expect(alone.messages.length).toBeGreaterThan(0);
    expect(alone.messages.map((m) => m.messageId)).toEqual(aloneLocal.messages.map((m) => m.messageId));
  });

  it('feeds new embeddings and deleted chunks to the cluster after each pass', async () => {
    const before = archiveChunkIds();
    await engine.ingest([folder], { inbox: 'work', workers: 0 });
    await embedPending(engine, loopback.embedder());
    expect(vectorOutboxDepth(engine.archive.db)).toBeGreaterThan(0);
    const drained = await engine.feedCluster();
    expect(drained?.vectors).toMatchObject({ waiting: 0 });
    expect(drained?.vectors?.error).toBeUndefined();
    const grown = archiveChunkIds();
    expect(grown.length).toBeGreaterThan(before.length);
    expect(await clusterChunkIds()).toEqual(grown);

    const [victim] = sql(engine.archive.db, 'SELECT message_id FROM messages ORDER BY id LIMIT 1')
      .pluck()
      .all() as string[];
    deleteThroughHooks(engine, victim as string);
    await embedPending(engine, loopback.embedder());
    await engine.feedCluster();
    const shrunk = archiveChunkIds();
    expect(shrunk).not.toEqual(grown);
    expect(await clusterChunkIds()).toEqual(shrunk);
    expect(vectorOutboxDepth(engine.archive.db)).toBe(0);
  });

  it('check compares the chunk vectors too, and names one the cluster lost', async () => {
    const db = engine.archive.db;
    const before = await checkCluster(db, target);
    expect(before.vectors).toMatchObject({
      archive: archiveChunkIds().length,
      missing: { count: 0 },
      extra: { count: 0 },
    });
    expect(before).toMatchObject({ missing: { count: 0 }, extra: { count: 0 } });
    expect(before.ok).toBe(true);
    const [lost] = archiveChunkIds();
    const index = vectorIndexOf(target.index);
    await target.client.request(
      'DELETE',
      `/${index}/_doc/${encodeURIComponent(vectorId('work', lost as number))}?refresh=true`,
    );
    const after = await checkCluster(db, target);
    expect(after.ok).toBe(false);
    expect(after.vectors?.missing).toEqual({ count: 1, examples: [`work chunk ${lost}`] });
    expect(after.missing.count).toBe(0);
    // The next copy puts it back.
    await syncVectors(db, target);
    expect((await checkCluster(db, target)).ok).toBe(true);
  });

  it('makes the index again for another model, with every vector re-sent', async () => {
    const other = otherModel();
    await embedPending(engine, other);
    await engine.feedCluster();
    const index = vectorIndexOf(target.index);
    const mapping = await target.client.request<Record<string, { mappings: { _meta: unknown } }>>(
      'GET',
      `/${index}/_mapping`,
    );
    expect(mapping[index]?.mappings._meta).toEqual({ model: other.id, dimensions: 32 });
    expect(await clusterChunkIds()).toEqual(archiveChunkIds());
    const [question] = await other.embed(['terzo turno'], 'query');
    const filter = { inboxId: inboxId(), kinds: ['summary'], k: 10 };
    const expected = await archiveVectors(engine.archive.db).knn(question as Float32Array, filter);
    const found = await clusterVectors(engine.archive.db, target).knn(question as Float32Array, filter);
    expect(found.map((h) => h.chunkId)).toEqual(expected.map((h) => h.chunkId));
  });

  it('through the CLI: reindex copies the vectors, retrieve on the opensearch backend searches them', async () => {
    const env = {
      ...loopbackEnv(loopback.server().url, { llm: false }),
      MAILSIFT_EMBEDDER_MODEL: 'loopback-other',
      MAILSIFT_EMBEDDER_DIMENSIONS: '32',
      MAILSIFT_DB: engine.archive.path,
      MAILSIFT_OPENSEARCH_NODES: target.client.nodes.join(','),
      MAILSIFT_OPENSEARCH_INDEX: 'knn-cli',
    };
    const reindexed = await runCliAsync(
      ['--json', 'reindex', '--backend', 'opensearch', '--replicas', '0'],
      env,
    );
    expect(reindexed.status, reindexed.stderr).toBe(0);
    expect(JSON.parse(reindexed.stdout)).toMatchObject({ vectors: { indexed: archiveChunkIds().length } });
    const status = await runCliAsync(['--json', 'status'], env);
    expect(JSON.parse(status.stdout)).toMatchObject({
      cluster: { index: 'knn-cli', waiting: 0, vectorsWaiting: 0 },
    });
    const question = 'quando parte il terzo turno?';
    const onCluster = await runCliAsync(['--json', 'retrieve', '--inbox', 'work', question], {
      ...env,
      MAILSIFT_BACKEND: 'opensearch',
    });
    expect(onCluster.status, onCluster.stderr).toBe(0);
    const remote = JSON.parse(onCluster.stdout) as RetrievalResult;
    expect(remote.mode).toBe('hybrid');
    expect(remote.notes).toContain("vectors searched in the cluster's k-NN index knn-cli-vectors");
    const onArchive = await runCliAsync(['--json', 'retrieve', '--inbox', 'work', question], env);
    const local = JSON.parse(onArchive.stdout) as RetrievalResult;
    expect(local.notes.join(' ')).not.toMatch(/k-NN/);
    expect(remote.messages.map((m) => m.messageId)).toEqual(local.messages.map((m) => m.messageId));
  });

  it('fails the question with index_unavailable when the cluster cannot answer', async () => {
    const embedder = otherModel();
    if (cluster) await stopCluster(cluster.basePort);
    cluster = undefined;
    const down = {
      client: new OpenSearchClient({ nodes: target.client.nodes, timeoutMs: 2_000 }),
      index: target.index,
    };
    const failure = await retrieve(engine, 'quando parte il terzo turno?', {
      inbox: 'work',
      embedder,
      vectors: clusterVectors(engine.archive.db, down),
    }).catch((error: unknown) => error);
    expect(isMailsiftError(failure) && failure.code).toBe('index_unavailable');
  });
});

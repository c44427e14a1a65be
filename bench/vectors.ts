// npm run bench:vectors — the vector leg's two indexes side by side: the archive's sqlite-vec
// table (exact: every vector of the partition scanned) and the cluster's k-NN index (Lucene
// HNSW, approximate) on a 3-node loopback cluster (started here unless
// MAILSIFT_OPENSEARCH_NODES names one). --vectors N (default 100,000) chunk vectors of
// --dims D (default 384, MiniLM's) in clusters the way embeddings of a mailbox's topics are,
// a tenth of them summaries; bulk copy throughput to the cluster; then --queries Q questions
// near the topics: the nearest 10 details with no filter and with a date filter, the 50
// nearest summaries, and the exact scoring of 200 named chunks (the within-threads step),
// each timed on both with the cluster's recall@10 against the exact answer.

import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { clusterVectors, syncVectors, vectorIndexOf } from '../src/backend/opensearch/index.js';
import { Rng } from '../src/corpus/prng.js';
import { Mailsift } from '../src/engine.js';
import { archiveVectors, type VectorHit, type VectorSearch } from '../src/rag/index.js';
import type { KnnFilter } from '../src/rag/vectors.js';
import { prepareVectorTable, storeVectors } from '../src/rag/vectors.js';
import { MessageStore, sql } from '../src/store/index.js';
import { benchCluster } from './cluster.js';
import { loadAverages, numberArg, percentile } from './measure.js';

const say = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

function normal(next: () => number): number {
  return Math.sqrt(-2 * Math.log(next() || 1e-12)) * Math.cos(2 * Math.PI * next());
}

function unit(vector: Float32Array): Float32Array {
  const norm = Math.hypot(...vector) || 1;
  return vector.map((x) => x / norm);
}

/** A point near `centre`: topics are clusters, a message one point of its topic's. */
function near(centre: Float32Array, spread: number, next: () => number): Float32Array {
  return unit(centre.map((x) => x + spread * normal(next)));
}

const TOPICS = 1_000;
const DAY = 86_400;
const START = 1_577_836_800; // 2020-01-01

async function timed(
  label: string,
  queries: readonly Float32Array[],
  archive: (q: Float32Array) => Promise<VectorHit[]>,
  cluster: (q: Float32Array) => Promise<VectorHit[]>,
): Promise<void> {
  const archiveMs: number[] = [];
  const clusterMs: number[] = [];
  let recalled = 0;
  let expected = 0;
  for (const q of queries.slice(0, 5)) await Promise.all([archive(q), cluster(q)]);
  for (const q of queries) {
    let start = performance.now();
    const exact = await archive(q);
    archiveMs.push(performance.now() - start);
    start = performance.now();
    const found = await cluster(q);
    clusterMs.push(performance.now() - start);
    const top = new Set(exact.slice(0, 10).map((h) => h.chunkId));
    expected += top.size;
    recalled += found.slice(0, 10).filter((h) => top.has(h.chunkId)).length;
  }
  const f = (ms: number[], p: number): string =>
    percentile(
      ms.sort((a, b) => a - b),
      p,
    )
      .toFixed(1)
      .padStart(7);
  say(
    `${label.padEnd(34)} archive (vec0) p50 ${f(archiveMs, 50)} p95 ${f(archiveMs, 95)} ms | cluster (HNSW) p50 ${f(clusterMs, 50)} p95 ${f(clusterMs, 95)} ms | recall@10 ${((100 * recalled) / Math.max(1, expected)).toFixed(1)}%`,
  );
}

async function main(): Promise<void> {
  const count = numberArg('vectors', 'BENCH_VECTORS', 100_000);
  const dims = numberArg('dims', 'BENCH_DIMS', 384);
  const queryCount = numberArg('queries', 'BENCH_QUERIES', 200);
  const dir = join(process.cwd(), '.bench');
  const path = join(dir, `vectors-${count}-${dims}.db`);
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
  const engine = Mailsift.open(path);
  const db = engine.archive.db;
  const seeded = new Rng(42);
  const next = (): number => seeded.next();
  const topics = Array.from({ length: TOPICS }, () =>
    unit(Float32Array.from({ length: dims }, () => normal(next))),
  );
  const inboxId = new MessageStore(engine.archive).inbox('bench').id;
  prepareVectorTable(db, 'bench-vectors', dims);
  let started = performance.now();
  const chunk = sql(
    db,
    `INSERT INTO rag_chunks (id, inbox_id, thread_id, kind, hash, text, tokens, meta)
     VALUES (?, ?, ?, ?, '', '', 0, '{}')`,
  );
  for (let from = 1; from <= count; from += 5_000) {
    const rows = Array.from({ length: Math.min(5_000, count - from + 1) }, (_, i) => {
      const id = from + i;
      const topic = id % TOPICS;
      const kind = id % 10 === 0 ? 'summary' : 'detail';
      return {
        chunkId: id,
        inboxId,
        kind,
        date: START + Math.floor(next() * 5 * 365) * DAY,
        hasAttachment: id % 7 === 0,
        embedding: near(topics[topic] as Float32Array, 0.08, next),
        thread: `t${topic}-${Math.floor(id / 20)}`,
      };
    });
    db.transaction(() => {
      for (const row of rows) chunk.run(row.chunkId, inboxId, row.thread, row.kind);
      storeVectors(db, rows);
    })();
  }
  // No backlog: these vectors are stored already.
  db.exec('DELETE FROM embedding_backlog');
  say(
    `mailsift vector benchmark — ${count.toLocaleString('en')} vectors of ${dims} dimensions in ${TOPICS} topics, ${queryCount} questions, load ${loadAverages()}`,
  );
  say(`stored in the archive in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const { target, started: cluster, stop } = await benchCluster('bench-knn');
  try {
    if (cluster) say(`cluster: 3 nodes green in ${(cluster.greenMs / 1000).toFixed(1)} s`);
    await target.client.request('DELETE', `/${vectorIndexOf(target.index)}`).catch(() => {});
    started = performance.now();
    const copy = await syncVectors(db, target, { shards: 3, replicas: 1 });
    const copyS = (performance.now() - started) / 1000;
    // The store without the translog, which holds every document whole until a flush.
    await target.client.request('POST', `/${vectorIndexOf(target.index)}/_flush`);
    const size = await target.client.request<Array<{ 'store.size': string }>>(
      'GET',
      `/_cat/indices/${vectorIndexOf(target.index)}?format=json&bytes=mb&h=store.size`,
    );
    say(
      `bulk copy to the cluster: ${copy.indexed.toLocaleString('en')} vectors in ${copyS.toFixed(1)} s = ${Math.round(copy.indexed / copyS)} vectors/s (3 shards, 1 replica; store ${size[0]?.['store.size']} MB with replicas)`,
    );
    const onArchive: VectorSearch = archiveVectors(db);
    const onCluster: VectorSearch = clusterVectors(db, target);
    const queries = Array.from({ length: queryCount }, (_, i) =>
      near(topics[(i * 7919) % TOPICS] as Float32Array, 0.1, next),
    );
    const both = (filter: KnnFilter) =>
      [(q: Float32Array) => onArchive.knn(q, filter), (q: Float32Array) => onCluster.knn(q, filter)] as const;
    await timed('details, k 10', queries, ...both({ inboxId, kinds: ['detail', 'attachment'], k: 10 }));
    await timed(
      'details, k 10, the last year only',
      queries,
      ...both({ inboxId, kinds: ['detail', 'attachment'], k: 10, after: START + 4 * 365 * DAY }),
    );
    await timed('summaries, k 50', queries, ...both({ inboxId, kinds: ['summary'], k: 50 }));
    const named = (q: Float32Array): number[] => {
      const seed = Math.floor(Math.abs(q[0] ?? 0) * 1e6);
      return Array.from({ length: 200 }, (_, i) => 1 + ((seed + i * 104_729) % count));
    };
    await timed(
      'scoring 200 named chunks',
      queries,
      async (q) => (await onArchive.distances(q, named(q))).sort((a, b) => a.distance - b.distance),
      async (q) => (await onCluster.distances(q, named(q))).sort((a, b) => a.distance - b.distance),
    );
  } finally {
    await stop();
    engine.close();
  }
}

await main();

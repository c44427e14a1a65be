// npm run bench:search -- --backend opensearch: the search benchmark's archive copied to a
// 3-node loopback cluster (started here unless MAILSIFT_OPENSEARCH_NODES names one), then
// the same query kinds timed on both backends side by side, bulk indexing throughput, and
// what losing a node costs: the time to the first index_unavailable (no replica), and the
// time until answers are complete again (one replica: promotion; none: the node restarted);
// and the read commands (a message, a thread) from each backend.

import {
  listMessages as listOpenSearch,
  type OpenSearchTarget,
  searchMessages as searchOpenSearch,
  syncArchive,
} from '../src/backend/opensearch/index.js';
import { getMessage, getThread } from '../src/backend/opensearch/reader.js';
import { isMailsiftError } from '../src/core/errors.js';
import type { Mailsift } from '../src/engine.js';
import { clearRankCache, listMessages, searchMessages } from '../src/search/index.js';
import { benchCluster, type ClusterScript } from './cluster.js';
import { percentile } from './measure.js';

export interface OpenSearchBench {
  readonly engine: Mailsift;
  /** The query kinds of bench/search.ts, by name. */
  readonly sets: Readonly<Record<string, readonly string[]>>;
  readonly print: (line: string) => void;
  /** Each started node's JVM heap in MB. */
  readonly heapMb: number;
}

const INDEX = 'bench';

function stats(sorted: readonly number[]): string {
  const f = (p: number): string => percentile(sorted, p).toFixed(1).padStart(7);
  return `p50 ${f(50)}  p95 ${f(95)}  p99 ${f(99)} ms`;
}

interface Timed {
  /** Milliseconds of the answered runs, sorted. */
  readonly ms: number[];
  /** Runs the backend refused with index_unavailable (a cluster out of heap or queue answers 429). */
  readonly refused: number;
}

/** Runs each query once (after five warm-ups), one after another. */
async function timeRuns(runs: ReadonlyArray<() => unknown>): Promise<Timed> {
  const refusedAsUnavailable = (error: unknown): void => {
    if (!isMailsiftError(error) || error.code !== 'index_unavailable') throw error;
    refused++;
  };
  let refused = 0;
  for (const run of runs.slice(0, 5)) await Promise.resolve(run()).catch(refusedAsUnavailable);
  refused = 0;
  const ms: number[] = [];
  for (const run of runs) {
    const started = process.hrtime.bigint();
    try {
      await run();
      ms.push(Number(process.hrtime.bigint() - started) / 1e6);
    } catch (error) {
      refusedAsUnavailable(error);
    }
  }
  return { ms: ms.sort((a, b) => a - b), refused };
}

const timedStats = ({ ms, refused }: Timed): string =>
  `${stats(ms)}${refused > 0 ? `  (${refused} refused: index_unavailable)` : ''}`;

async function sideBySide(
  print: OpenSearchBench['print'],
  label: string,
  sqlite: ReadonlyArray<() => unknown>,
  opensearch: ReadonlyArray<() => Promise<unknown>>,
): Promise<void> {
  const s = await timeRuns(sqlite);
  const o = await timeRuns(opensearch);
  print(
    `${label.padEnd(20)} n=${String(sqlite.length).padEnd(4)} sqlite ${timedStats(s)} | opensearch ${timedStats(o)}`,
  );
}

/** Polls `probe` until it resolves (true) or until `until` says stop; milliseconds taken. */
async function timeUntil(probe: () => Promise<boolean>, timeoutMs = 120_000): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (await probe()) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 50));
  }
  return Number.NaN;
}

const unavailable = (target: OpenSearchTarget, q: string) => (): Promise<boolean> =>
  searchOpenSearch(target, { q, limit: 100 }).then(
    () => false,
    (e: unknown) => isMailsiftError(e) && e.code === 'index_unavailable',
  );

const answersAll = (target: OpenSearchTarget, q: string, expected: number) => (): Promise<boolean> =>
  searchOpenSearch(target, { q, limit: 100 }).then(
    (page) => page.count === expected,
    () => false,
  );

/** Restarts a killed node and waits until the cluster has every node again; milliseconds. */
async function rejoin(cluster: ClusterScript, basePort: number, index: number): Promise<number> {
  const before = cluster.readState(basePort);
  // Searches fail over to the other copy at once: wait for the cluster to drop the node first.
  if (before) await cluster.waitForHealth(before, { status: 'yellow', nodes: before.nodes.length - 1 });
  const started = Date.now();
  const state = cluster.restartNode(basePort, index);
  await cluster.waitForHealth(state, { status: 'green', timeoutMs: 180_000 });
  return Date.now() - started;
}

async function nodeLoss(
  cluster: ClusterScript,
  basePort: number,
  target: OpenSearchTarget,
  q: string,
  print: OpenSearchBench['print'],
): Promise<void> {
  const complete = (await searchOpenSearch(target, { q, limit: 100 })).count;
  const pid = (index: number): number =>
    cluster.readState(basePort)?.nodes.find((n) => n.index === index)?.pid ?? Number.NaN;
  // One replica: a node's shards have copies elsewhere; measure until answers are complete.
  process.kill(pid(2), 'SIGKILL');
  const promoted = await timeUntil(answersAll(target, q, complete));
  print(`node loss, 1 replica:  complete answers again after ${promoted} ms (replicas promoted)`);
  print(
    `                       the node restarted and the cluster green again after ${await rejoin(cluster, basePort, 2)} ms`,
  );
  // No replica: a lost shard makes every search an error until its node is back. (Node 2
  // is back first: two of three cluster-manager nodes lost would also lose the quorum.)
  await target.client.request('PUT', `/${INDEX}/_settings`, { index: { number_of_replicas: 0 } });
  await target.client.request('GET', `/_cluster/health/${INDEX}?wait_for_status=green&timeout=60s`);
  process.kill(pid(1), 'SIGKILL');
  const detected = await timeUntil(unavailable(target, q));
  print(`node loss, 0 replicas: index_unavailable after ${detected} ms`);
  const restarted = Date.now();
  cluster.restartNode(basePort, 1);
  const back = await timeUntil(answersAll(target, q, complete), 180_000);
  print(
    `                       complete answers ${Number.isNaN(back) ? 'not within 180 s' : `${((Date.now() - restarted) / 1000).toFixed(1)} s`} after restarting the node`,
  );
}

export async function benchOpenSearch({ engine, sets, print, heapMb }: OpenSearchBench): Promise<void> {
  const { target, started, stop } = await benchCluster(INDEX, heapMb);
  try {
    if (started)
      print(`cluster: 3 nodes (heap ${heapMb} MB each) green in ${(started.greenMs / 1000).toFixed(1)} s`);
    await target.client.request('DELETE', `/${INDEX}`).catch(() => {});
    const syncStarted = Date.now();
    const report = await syncArchive(engine.archive.db, target, { shards: 3, replicas: 1 });
    const syncMs = Date.now() - syncStarted;
    const size = await target.client.request<Array<{ 'store.size': string }>>(
      'GET',
      `/_cat/indices/${INDEX}?format=json&bytes=mb&h=store.size`,
    );
    print(
      `bulk indexing:        ${report.indexed.toLocaleString('en')} messages in ${(syncMs / 1000).toFixed(1)} s = ${Math.round(report.indexed / (syncMs / 1000))} msg/s (3 shards, 1 replica; store ${size[0]?.['store.size']} MB with replicas)`,
    );
    const db = engine.archive.db;
    for (const [kind, list] of Object.entries(sets)) {
      await sideBySide(
        print,
        kind,
        list.map((q) => () => {
          clearRankCache(db);
          return searchMessages(db, { q });
        }),
        list.map((q) => () => searchOpenSearch(target, { q })),
      );
    }
    const senders = sets['address prefix'] ?? [];
    const lists: Array<Record<string, unknown>> = senders.map(
      (from, i) =>
        [
          {},
          { from },
          { after: '2024-01-01', before: '2024-07-01', hasAttachment: true },
          { labels: ['seen'], limit: 50 },
        ][i % 4] as Record<string, unknown>,
    );
    await sideBySide(
      print,
      'filtered lists',
      lists.map((params) => () => listMessages(db, params)),
      lists.map((params) => () => listOpenSearch(target, params)),
    );
    // The read commands: a message (show) and its thread, by Message-ID, from the stored
    // fields of each document against the archive's tables.
    const sample = db
      .prepare('SELECT message_id FROM messages ORDER BY id % 97, id LIMIT ?')
      .pluck()
      .all(senders.length || 50) as string[];
    await sideBySide(
      print,
      'show (message)',
      sample.map((id) => () => engine.getMessage(id)),
      sample.map((id) => () => getMessage(target, id)),
    );
    await sideBySide(
      print,
      'thread',
      sample.map((id) => () => engine.getThread(id)),
      sample.map((id) => () => getThread(target, id)),
    );
    const q = (sets['two words'] ?? [])[0] ?? 'invoice';
    if (started) await nodeLoss(started.script, started.basePort, target, q, print);
  } finally {
    await stop();
  }
}

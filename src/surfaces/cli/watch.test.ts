// Watch cycles drain what waits for the user's models, against the loopback OpenAI-compatible
// server: the embedding backlog through startWatch with the CLI's drain, a failing embedder
// that the loop outlives, LLM summaries, the per-cycle bound, and the built `mailsift watch`.

import { spawn } from 'node:child_process';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { CLI } from '../../../test/e2e/cli.js';
import { MailsiftError } from '../../core/errors.js';
import type { Mailsift } from '../../engine.js';
import { type BacklogDrain, type CycleResult, DEFAULT_THRESHOLDS, startWatch } from '../../health/index.js';
import {
  backlogSize,
  type ChatModel,
  type Embedder,
  embedderProbe,
  summaryBacklog,
} from '../../rag/index.js';
import {
  chunkRows,
  countRows,
  loopbackEnv,
  openGrowingArchive,
  useLoopback,
} from '../../rag/test-helpers.js';
import { type DrainLimits, drainBacklogs } from './drain.js';
import { withDrainLease } from './drain-lease.js';

const DECIDED = 'Anna Keller proposed three budget options; Marco Bianchi chose option B on 5 June.';

const count = countRows;

/** The budget thread, then the paraphrase messages added to its folder for the watch to sync. */
async function growingArchive() {
  const { engine, folder } = await openGrowingArchive();
  return { engine, plan: [{ inbox: 'work', paths: [folder] }] };
}

/** Runs the watch loop until it has completed `cycles` cycles, and their results. */
function watchFor(
  engine: Mailsift,
  plan: ReadonlyArray<{ inbox: string; paths: string[] }>,
  cycles: number,
  options: { embedder?: Embedder; drain: () => Promise<BacklogDrain> },
): Promise<CycleResult[]> {
  return new Promise((resolve, reject) => {
    const results: CycleResult[] = [];
    const watcher = startWatch(engine, {
      plan,
      thresholds: DEFAULT_THRESHOLDS,
      ...(options.embedder ? { embedder: embedderProbe(engine, options.embedder) } : {}),
      drain: options.drain,
      intervalMs: 1,
      onCycle: (result) => {
        results.push(result);
        if (results.length === cycles) void watcher.stop().then(() => resolve(results));
      },
      onError: reject,
    });
  });
}

/** The watch loop draining as `mailsift watch` does. */
function drainFor(
  engine: Mailsift,
  plan: ReadonlyArray<{ inbox: string; paths: string[] }>,
  providers: { embedder: Embedder; llm?: ChatModel },
  cycles: number,
  limits: DrainLimits = {},
): Promise<CycleResult[]> {
  return watchFor(engine, plan, cycles, {
    embedder: providers.embedder,
    drain: () => drainBacklogs(engine, providers, limits),
  });
}

/** `mailsift watch` (built CLI) on one source into inbox work, cycling hourly, printing JSON. */
function watchCli(source: string, db: string, env: NodeJS.ProcessEnv) {
  return spawn(
    process.execPath,
    [CLI, 'watch', '--source', source, '--inbox', 'work', '--interval', '1h', '--json', '--db', db],
    { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
}

/** The first cycle's report `mailsift watch --json` prints, as one (indented) JSON document. */
function firstCycle(stdout: NodeJS.ReadableStream): Promise<Record<string, unknown>> {
  let text = '';
  return new Promise((resolve) => {
    stdout.on('data', (data: Buffer) => {
      text += data.toString('utf8');
      try {
        resolve(JSON.parse(text));
      } catch {
        // not complete yet
      }
    });
  });
}

const backlogCheck = (result: CycleResult) =>
  result.report.inboxes[0]?.checks.find((c) => c.name === 'embedding_backlog');

describe('watch cycles drain the embedding and summary backlogs', () => {
  const { server, embedder, llm } = useLoopback();

  it('syncs the added messages, then embeds every chunk: the backlog is empty and the vectors there', async () => {
    const { engine, plan } = await growingArchive();
    const [cycle] = await drainFor(engine, plan, { embedder: embedder() }, 1);
    expect(count(engine, 'messages')).toBe(9);
    expect(cycle?.drained?.embedding).toMatchObject({ remaining: 0, reset: false });
    expect(cycle?.drained?.embedding?.embedded).toBe(count(engine, 'rag_chunks'));
    expect(cycle?.drained?.summaries).toBeUndefined();
    expect(backlogSize(engine)).toEqual({ pendingChunks: 0, threadsAwaitingChunks: 0 });
    expect(count(engine, 'rag_vectors')).toBe(count(engine, 'rag_chunks'));
    expect(backlogCheck(cycle as CycleResult)).toMatchObject({ status: 'ok', value: 0 });
    engine.close();
  });

  it('reports an embedder that is down in the cycle and its health check, and the next cycle embeds', async () => {
    const { engine, plan } = await growingArchive();
    server().faults.push('500');
    const [failed, next] = await drainFor(engine, plan, { embedder: embedder() }, 2);
    expect(failed?.drained?.embedding?.embedded).toBe(0);
    expect(failed?.drained?.embedding?.error).toContain('500');
    expect(backlogCheck(failed as CycleResult)?.status).toBe('warn');
    expect(backlogCheck(failed as CycleResult)?.message).toContain('last error: ');
    expect(next?.drained?.embedding).toMatchObject({ remaining: 0 });
    expect(next?.drained?.embedding?.error).toBeUndefined();
    expect(backlogCheck(next as CycleResult)).toMatchObject({ status: 'ok', value: 0 });
    expect(count(engine, 'rag_vectors')).toBe(count(engine, 'rag_chunks'));
    engine.close();
  });

  it('has the LLM write the due thread summaries, then embeds them', async () => {
    const { engine, plan } = await growingArchive();
    server().chat = () => DECIDED;
    const [cycle] = await drainFor(engine, plan, { embedder: embedder(), llm: llm() }, 1);
    const threads = count(engine, 'threads');
    expect(cycle?.drained?.summaries).toEqual({ written: threads, failed: 0, remaining: 0 });
    const summaries = chunkRows(engine).filter((c) => c.kind === 'summary');
    expect(summaries).toHaveLength(threads);
    expect(summaries.every((c) => c.text.endsWith(`\n${DECIDED}`))).toBe(true);
    expect(summaryBacklog(engine).pending).toBe(0);
    expect(backlogSize(engine).pendingChunks).toBe(0);
    expect(count(engine, 'rag_vectors')).toBe(count(engine, 'rag_chunks'));
    engine.close();
  });

  it('bounds each cycle, and leaves summaries for the cycles after the vectors', async () => {
    const { engine, plan } = await growingArchive();
    server().chat = () => DECIDED;
    const results = await drainFor(engine, plan, { embedder: embedder(), llm: llm() }, 8, {
      maxChunks: 4,
      maxSummaries: 2,
    });
    const chunks = count(engine, 'rag_chunks');
    const threads = count(engine, 'threads');
    const embedded = results.map((r) => r.drained?.embedding?.embedded ?? 0);
    const written = results.map((r) => r.drained?.summaries?.written ?? 0);
    expect(embedded.every((n) => n <= 4)).toBe(true);
    // While chunks remain after a cycle's four, the LLM waits.
    const first = results.findIndex((r) => r.drained?.summaries !== undefined);
    expect(first).toBe(Math.ceil(chunks / 4) - 1);
    expect(results.slice(first).every((r) => (r.drained?.summaries?.written ?? 0) <= 2)).toBe(true);
    expect(written.reduce((a, b) => a + b)).toBe(threads);
    expect(backlogSize(engine).pendingChunks).toBe(0);
    expect(summaryBacklog(engine).pending).toBe(0);
    engine.close();
  });

  it('reports a drain that throws in the cycle, and the loop goes on', async () => {
    const { engine, plan } = await growingArchive();
    let calls = 0;
    const results = await watchFor(engine, plan, 2, {
      drain: async () => {
        calls++;
        throw new MailsiftError('bad_database', 'attempt to write a readonly database', { param: 'db' });
      },
    });
    expect(calls).toBe(2);
    expect(results.map((r) => r.drainError)).toEqual([
      'attempt to write a readonly database',
      'attempt to write a readonly database',
    ]);
    // The sync before it and the checks after it still ran.
    expect(count(engine, 'messages')).toBe(9);
    expect(results[1]?.report.inboxes.map((i) => i.inbox)).toEqual(['work']);
    engine.close();
  });

  it("mailsift watch (built CLI) leaves the drain to a process that holds the archive's lease", async () => {
    const { engine, plan } = await growingArchive();
    // This test process plays the server in the middle of a pass.
    let release = (): void => undefined;
    const held = withDrainLease(engine.archive.db, () => new Promise<void>((done) => (release = done)));
    const child = watchCli(
      plan[0]?.paths[0] as string,
      engine.archive.path,
      loopbackEnv(server().url, { llm: false }),
    );
    const cycle = await firstCycle(child.stdout);
    const exit = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    release();
    await held;
    expect(cycle).toMatchObject({ busy: `${hostname()} pid ${process.pid}` });
    expect(cycle.embedding).toBeUndefined();
    // The sync still ran; the chunks wait for the holder.
    expect(count(engine, 'messages')).toBe(9);
    expect(backlogSize(engine).pendingChunks + backlogSize(engine).threadsAwaitingChunks).toBeGreaterThan(0);
    engine.close();
  });

  it('mailsift watch (built CLI) prints the cycle with what it embedded and summarised, and stops on SIGTERM', async () => {
    const { engine, plan } = await growingArchive();
    const db = engine.archive.path;
    engine.close();
    server().chat = () => DECIDED;
    const child = watchCli(plan[0]?.paths[0] as string, db, loopbackEnv(server().url));
    const cycle = await firstCycle(child.stdout);
    const exit = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(cycle).toMatchObject({
      status: 'ok',
      embedding: { remaining: 0 },
      // The budget thread and the five paraphrase messages, one thread each.
      summaries: { written: 6, failed: 0, remaining: 0 },
    });
  });
});

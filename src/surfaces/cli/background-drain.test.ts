// The servers' background drain against the loopback OpenAI-compatible server: a served
// archive whose backlogs empty while it answers, decisions validated by the LLM, a failing
// embedder and LLM shown by /v1/health and retried, a stop in the middle of a pass, and one
// drain at a time per archive.

import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { findDecisions } from '../../decisions/index.js';
import type { Mailsift } from '../../engine.js';
import { Mailsift as Engine } from '../../engine.js';
import { checkHealth, DEFAULT_THRESHOLDS } from '../../health/index.js';
import {
  backlogSize,
  chunkingStatus,
  chunkOptionsFor,
  embedderProbe,
  embedPending,
  summaryBacklog,
  summaryProbe,
  vectorModel,
  withChunkSize,
} from '../../rag/index.js';
import { countRows, openGrowingArchive, useLoopback } from '../../rag/test-helpers.js';
import { type RunningServer, startServer } from '../http/index.js';
import { DECISION_FIXTURES } from '../http/test-support.js';
import { type BackgroundDrainOptions, type DrainPass, startBackgroundDrain } from './background-drain.js';
import type { DrainProviders } from './drain.js';
import { afterDrainLease, withDrainLease } from './drain-lease.js';

const DECIDED = 'Anna Keller proposed three budget options; Marco Bianchi chose option B on 5 June.';
const QUESTION = 'which budget option did Marco choose?';

const count = countRows;

/** The budget thread and the five paraphrase messages: six threads, nothing chunked or embedded. */
async function pendingArchive() {
  const { engine, folder } = await openGrowingArchive();
  await engine.ingest([folder], { inbox: 'work', workers: 0 });
  return engine;
}

/** A running drain whose passes are kept, and a way to wait for the first pass that satisfies a test. */
function observedDrain(
  engine: Mailsift,
  providers: DrainProviders,
  options: Omit<BackgroundDrainOptions, 'onPass'>,
) {
  const passes: DrainPass[] = [];
  const waiting: Array<{ test: (pass: DrainPass) => boolean; resolve: (pass: DrainPass) => void }> = [];
  const drain = startBackgroundDrain(engine, providers, {
    ...options,
    onPass: (pass) => {
      passes.push(pass);
      for (const w of waiting.splice(0)) {
        if (w.test(pass)) w.resolve(pass);
        else waiting.push(w);
      }
    },
  });
  return {
    passes,
    next: (test: (pass: DrainPass) => boolean) =>
      new Promise<DrainPass>((resolve) => waiting.push({ test, resolve })),
    stop: () => drain.stop(),
  };
}

describe('the background drain of a server', () => {
  const { server: loopback, embedder, llm } = useLoopback();

  async function serve(engine: Mailsift, providers: DrainProviders) {
    return startServer(engine, {
      host: '127.0.0.1',
      port: 0,
      auth: false,
      providers,
      health: {
        thresholds: DEFAULT_THRESHOLDS,
        ...(providers.embedder ? { embedder: embedderProbe(engine, providers.embedder) } : {}),
        ...(providers.llm ? { summaries: summaryProbe(engine, providers.llm) } : {}),
      },
    });
  }
  /** The checks of /v1/health, as a server answers its first health request (later ones are cached for 5 s). */
  const health = async (server: RunningServer) => {
    const body = (await (await fetch(`${server.url}/v1/health`)).json()) as {
      inboxes: Array<{ checks: Array<{ name: string; status: string; message: string; value: number }> }>;
    };
    return Object.fromEntries(body.inboxes[0]?.checks.map((c) => [c.name, c]) ?? []);
  };
  /** The same checks computed now. */
  const checksNow = (engine: Mailsift, providers: DrainProviders) =>
    Object.fromEntries(
      (
        checkHealth(engine, DEFAULT_THRESHOLDS, new Date(), {
          ...(providers.embedder ? { embedder: embedderProbe(engine, providers.embedder) } : {}),
          ...(providers.llm ? { summaries: summaryProbe(engine, providers.llm) } : {}),
        }).inboxes[0]?.checks ?? []
      ).map((c) => [c.name, c]),
    );
  const retrieve = async (server: RunningServer) =>
    (await (
      await fetch(`${server.url}/v1/inboxes/work/retrieve`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ question: QUESTION }),
      })
    ).json()) as { mode: string; degraded?: string; messages: unknown[] };

  it('empties the embedding and summary backlogs in bounded passes while the archive is served', async () => {
    const engine = await pendingArchive();
    loopback().chat = () => DECIDED;
    const providers = { embedder: embedder(), llm: llm() };
    const server = await serve(engine, providers);
    // Before the drain: keyword-only, and the health endpoint says what waits.
    const before = await retrieve(server);
    expect(before.mode).toBe('keyword');
    expect(before.degraded).toMatch(/no vectors of openai:loopback-64 yet/);
    const drain = observedDrain(engine, providers, { intervalMs: 5, maxChunks: 4, maxSummaries: 2 });
    const done = drain.next(
      (p) => p.drained.summaries?.remaining === 0 && p.drained.embedding?.remaining === 0,
    );
    // Requests are answered all along.
    let drained = false;
    const answered: string[] = [];
    void done.then(() => {
      drained = true;
    });
    while (!drained) answered.push((await retrieve(server)).mode);
    await drain.stop();
    expect(answered.length).toBeGreaterThan(0);
    const { passes } = drain;
    expect(passes.every((p) => p.error === undefined && (p.drained.embedding?.embedded ?? 0) <= 4)).toBe(
      true,
    );
    expect(passes.every((p) => (p.drained.summaries?.written ?? 0) <= 2)).toBe(true);
    expect(passes.filter((p) => p.drained.summaries).length).toBeGreaterThanOrEqual(3);
    // A pass stopped at a limit is followed by a short rest; the last, with nothing left, by the interval.
    expect(passes.at(-1)?.nextInMs).toBe(5);
    expect(backlogSize(engine)).toEqual({ pendingChunks: 0, threadsAwaitingChunks: 0 });
    expect(summaryBacklog(engine).pending).toBe(0);
    expect(count(engine, 'rag_vectors')).toBe(count(engine, 'rag_chunks'));
    const after = await retrieve(server);
    expect(after.mode).toBe('hybrid');
    expect(after.degraded).toBeUndefined();
    const checks = await health(server);
    expect(checks.embedding_backlog).toMatchObject({ status: 'ok', value: 0 });
    expect(checks.summary_backlog).toMatchObject({
      status: 'ok',
      message: '0 thread summaries waiting for openai:summariser',
      value: 0,
    });
    await server.close();
  });

  it('shows a failing embedder in /v1/health, backs off doubling, then drains when it answers again', async () => {
    const engine = await pendingArchive();
    const providers = { embedder: embedder() };
    const server = await serve(engine, providers);
    loopback().faults.push(...Array<'500'>(50).fill('500'));
    const drain = observedDrain(engine, providers, { intervalMs: 10 });
    await drain.next(() => drain.passes.length === 2);
    const failing = await health(server);
    expect(failing.embedding_backlog?.status).toBe('warn');
    expect(failing.embedding_backlog?.message).toMatch(/last error: embedder at .* answered 500/);
    loopback().faults.length = 0;
    const recovered = await drain.next((p) => p.error === undefined);
    await drain.stop();
    const failed = drain.passes.slice(0, -1);
    expect(failed.every((p) => /embedder at .* answered 500/.test(p.error ?? ''))).toBe(true);
    expect(failed.map((p) => p.nextInMs)).toEqual(failed.map((_, i) => 10 * 2 ** i));
    expect(recovered).toMatchObject({ nextInMs: 10, drained: { embedding: { remaining: 0 } } });
    // What the failing passes chunked stayed queued and is embedded now.
    expect(count(engine, 'rag_vectors')).toBe(count(engine, 'rag_chunks'));
    expect(checksNow(engine, providers).embedding_backlog).toMatchObject({ status: 'ok', value: 0 });
    await server.close();
  });

  it('shows summaries the LLM failed in /v1/health, and writes them once their backoff has passed', async () => {
    const engine = await pendingArchive();
    const providers = { llm: llm() };
    const server = await serve(engine, providers);
    loopback().chat = () => DECIDED;
    loopback().faults.push('500');
    // The first thread fails and backs off; the next pass writes the five others.
    const drain = observedDrain(engine, providers, { intervalMs: 5 });
    const first = await drain.next(() => true);
    expect(first.drained.summaries).toMatchObject({ written: 0, failed: 1, remaining: 6 });
    expect(first.drained.summaries?.error).toMatch(/llm at .* answered 500/);
    expect(first.nextInMs).toBe(5);
    await drain.next((p) => (p.drained.summaries?.written ?? 0) > 0);
    await drain.stop();
    const failing = await health(server);
    expect(failing.summary_backlog).toMatchObject({ status: 'warn', value: 1 });
    expect(failing.summary_backlog?.message).toMatch(
      /^1 thread summary waiting for openai:summariser: 1 failing, retried with backoff; last error: llm at .* answered 500/,
    );
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toContain('mailsift_summary_backlog{inbox="work"} 1\n');
    expect(metrics).toContain('mailsift_summaries_failing{inbox="work"} 1\n');
    // The clock passes the failed thread's backoff.
    engine.archive.db.exec('UPDATE rag_summary_backlog SET retry_at = 0');
    const retry = observedDrain(engine, providers, { intervalMs: 5 });
    expect((await retry.next(() => true)).drained.summaries).toEqual({ written: 1, failed: 0, remaining: 0 });
    await retry.stop();
    expect(summaryBacklog(engine)).toEqual({ pending: 0, failing: 0, lastError: null });
    expect(checksNow(engine, providers).summary_backlog).toMatchObject({ status: 'ok', value: 0 });
    await server.close();
  });

  it('has the LLM validate the decisions the rules found, off the ingest, in passes beside the summaries', async () => {
    const engine = await pendingArchive();
    await engine.ingest([DECISION_FIXTURES], { inbox: 'team', workers: 0 });
    const decided = () => findDecisions(engine.archive.db, { inbox: 'team' }).decisions;
    // Stored by the ingest as the rules found them, each waiting for the LLM.
    expect(decided().map((d) => d.method)).toEqual(Array(8).fill('rules'));
    // A judge that confirms each decision by quoting the first line of its first message.
    loopback().chat = ({ messages }) => {
      const prompt = messages.at(-1)?.content ?? '';
      const first = /<mail id="([^"]+)"[^>]*>\n([^\n]+)/.exec(prompt);
      if (!first) return DECIDED;
      return JSON.stringify({
        decision: true,
        statement: `Settled in ${first[1]}.`,
        quotes: [{ messageId: first[1], quote: first[2] }],
      });
    };
    const providers = { llm: llm() };
    const drain = observedDrain(engine, providers, { intervalMs: 5, maxSummaries: 3 });
    const done = await drain.next((p) => p.drained.decisions?.remaining === 0);
    await drain.stop();
    expect(drain.passes.every((p) => (p.drained.decisions?.accepted ?? 0) <= 3)).toBe(true);
    expect(done.drained.summaries).toBeDefined();
    expect(decided().map((d) => d.method)).toEqual(Array(8).fill('llm'));
    expect(decided().every((d) => /^Settled in [\w-]+@[\w.-]+\.$/.test(d.statement))).toBe(true);
    expect(checksNow(engine, providers).summary_backlog?.message).not.toMatch(/decision/);
  });

  it('waits for a quiet moment of the server it runs in before chunking and each embedder call', async () => {
    const engine = await pendingArchive();
    const embeddings = () => loopback().requests.filter((r) => r.path === '/v1/embeddings').length;
    const before = embeddings();
    let quiet = false;
    let asked = 0;
    let whileBusy = { sent: -1, chunks: -1 };
    const requests = {
      quietFor: () => {
        asked++;
        if (asked === 3) whileBusy = { sent: embeddings() - before, chunks: count(engine, 'rag_chunks') };
        return quiet;
      },
    };
    const drain = observedDrain(engine, { embedder: embedder() }, { intervalMs: 5, requests });
    while (asked < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    // Held back while requests kept coming: nothing chunked or sent.
    expect(whileBusy).toEqual({ sent: 0, chunks: 0 });
    expect(backlogSize(engine).threadsAwaitingChunks).toBe(6);
    quiet = true;
    await drain.next((p) => p.drained.embedding?.remaining === 0);
    await drain.stop();
    expect(embeddings() - before).toBeGreaterThan(0);
    expect(count(engine, 'rag_vectors')).toBe(count(engine, 'rag_chunks'));
    engine.close();
  });

  it('re-chunks and re-embeds an archive whose chunk size was changed, with nothing else waiting', async () => {
    const engine = await pendingArchive();
    await embedPending(engine, embedder());
    expect(backlogSize(engine)).toEqual({ pendingChunks: 0, threadsAwaitingChunks: 0 });
    const chunks = count(engine, 'rag_chunks');
    const smaller = withChunkSize(embedder(), { chunkTokens: 96, chunkOverlapTokens: 16 });
    const drain = observedDrain(engine, { embedder: smaller }, { intervalMs: 5 });
    const pass = await drain.next((p) => p.drained.embedding?.remaining === 0);
    await drain.stop();
    expect(drain.passes.some((p) => p.chunked.threads > 0)).toBe(true);
    expect(pass.drained.embedding?.embedded).toBeGreaterThan(0);
    expect(count(engine, 'rag_chunks')).toBeGreaterThan(chunks);
    expect(count(engine, 'rag_vectors')).toBe(count(engine, 'rag_chunks'));
    expect(chunkingStatus(engine.archive.db, chunkOptionsFor(smaller)).rechunkPending).toBe(false);
    engine.close();
  });

  it('stops in the middle of a pass: the call in flight is dropped, the backlog keeps its chunks', async () => {
    const engine = await pendingArchive();
    loopback().faults.push('hang');
    const requests = loopback().requests.length;
    const drain = startBackgroundDrain(engine, { embedder: embedder() }, { intervalMs: 5 });
    while (loopback().requests.length === requests) await new Promise((r) => setTimeout(r, 5));
    const queued = backlogSize(engine).pendingChunks;
    expect(queued).toBe(count(engine, 'rag_chunks'));
    await drain.stop();
    expect(backlogSize(engine).pendingChunks).toBe(queued);
    expect(vectorModel(engine.archive.db)).toBeNull();
    // Stopped, not failed: the embedder's health shows no error.
    expect(embedderProbe(engine, embedder()).lastError()).toBeNull();
    // Released: the next drain takes the lease.
    expect(await withDrainLease(engine.archive.db, async () => 'mine')).toEqual({ ran: true, value: 'mine' });
    engine.close();
  });
});

describe('one drain at a time per archive', () => {
  it('refuses the lease to another connection while a pass holds it, and frees it when the pass ends', async () => {
    const engine = await pendingArchive();
    const other = Engine.open(engine.archive.path);
    let release = (): void => undefined;
    const first = withDrainLease(engine.archive.db, () => new Promise<void>((done) => (release = done)));
    expect(await withDrainLease(other.archive.db, async () => 'second')).toEqual({
      ran: false,
      holder: `${hostname()} pid ${process.pid}`,
    });
    release();
    expect(await first).toEqual({ ran: true, value: undefined });
    expect(await withDrainLease(other.archive.db, async () => 'second')).toEqual({
      ran: true,
      value: 'second',
    });
    other.close();
    engine.close();
  });

  it('makes mailsift embed wait for the pass another process holds, then run its own', async () => {
    const engine = await pendingArchive();
    const other = Engine.open(engine.archive.path);
    const order: string[] = [];
    let release = (): void => undefined;
    const first = withDrainLease(engine.archive.db, async () => {
      await new Promise<void>((done) => (release = done));
      order.push('server pass');
    });
    const waited: string[] = [];
    const second = afterDrainLease(
      other.archive.db,
      async () => {
        order.push('embed');
        return 'embedded';
      },
      (holder) => {
        waited.push(holder);
        release();
      },
    );
    expect(await second).toBe('embedded');
    await first;
    expect(waited).toEqual([`${hostname()} pid ${process.pid}`]);
    expect(order).toEqual(['server pass', 'embed']);
    other.close();
    engine.close();
  });

  it('takes over the lease of a process that died holding it', async () => {
    const engine = await pendingArchive();
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    }).stdout;
    engine.archive.db
      .prepare(
        `CREATE TABLE IF NOT EXISTS scratch.drain_lease (id INTEGER PRIMARY KEY CHECK (id = 1),
         holder TEXT NOT NULL, host TEXT NOT NULL, pid INTEGER NOT NULL, renewed_at INTEGER NOT NULL)`,
      )
      .run();
    engine.archive.db
      .prepare('INSERT INTO scratch.drain_lease VALUES (1, ?, ?, ?, ?)')
      .run(`${hostname()}:${dead}:x`, hostname(), Number(dead), Date.now());
    expect(await withDrainLease(engine.archive.db, async () => 'taken')).toEqual({
      ran: true,
      value: 'taken',
    });
    engine.close();
  });
});

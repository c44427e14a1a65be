// `mailsift serve` (built CLI) drains the backlogs in the background with the loopback server
// as embedder and LLM: the served archive's backlogs empty while it answers, and SIGTERM in the
// middle of a pass exits at once, leaving the backlog queued and the drain lease free.

import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../../../test/e2e/cli.js';
import { Mailsift } from '../../engine.js';
import { backlogSize, summaryBacklog } from '../../rag/index.js';
import { type Loopback, startLoopback } from '../../rag/openai-loopback.js';
import { loopbackEnv, openGrowingArchive } from '../../rag/test-helpers.js';

const DECIDED = 'Anna Keller proposed three budget options; Marco Bianchi chose option B on 5 June.';

/** An archive of six threads, nothing chunked or embedded, closed for the server to open. */
async function pendingArchive(): Promise<string> {
  const { engine, folder } = await openGrowingArchive();
  await engine.ingest([folder], { inbox: 'work', workers: 0 });
  const path = engine.archive.path;
  engine.close();
  return path;
}

interface Served {
  readonly child: ChildProcess;
  readonly url: string;
  /** Resolves with the first drain log line that `test` accepts. */
  drainLine(test: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  readonly exit: Promise<number | null>;
}

async function serve(db: string, loopback: Loopback, ...flags: string[]): Promise<Served> {
  const child = spawn(
    process.execPath,
    [CLI, 'serve', '--db', db, '--port', '0', '--no-auth', '--json', '--quiet', ...flags],
    {
      env: { ...process.env, ...loopbackEnv(loopback.url), MAILSIFT_EMBEDDER_MAX_RETRIES: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exit = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const lines: Array<Record<string, unknown>> = [];
  const waiting: Array<{
    test: (line: Record<string, unknown>) => boolean;
    resolve: (line: Record<string, unknown>) => void;
  }> = [];
  createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', (text) => {
    const line = JSON.parse(text) as Record<string, unknown>;
    if (line.event !== 'drain') return;
    lines.push(line);
    for (const w of waiting.splice(0)) w.test(line) ? w.resolve(line) : waiting.push(w);
  });
  const [chunk] = (await once(child.stdout as NodeJS.ReadableStream, 'data')) as [Buffer];
  const { url } = JSON.parse(chunk.toString('utf8')) as { url: string };
  return {
    child,
    url,
    exit,
    drainLine: (test) =>
      new Promise((resolve) => {
        const seen = lines.find(test);
        if (seen) resolve(seen);
        else waiting.push({ test, resolve });
      }),
  };
}

describe('mailsift serve drains the backlogs in the background (built CLI)', () => {
  let loopback: Loopback;
  beforeAll(async () => {
    loopback = await startLoopback();
  });
  afterAll(() => loopback.close());

  it('embeds and summarises a served archive in bounded passes, and answers hybrid once it is done', async () => {
    const db = await pendingArchive();
    // The configured LLM writes summaries and, being an endpoint, refines questions too.
    loopback.chat = (request) =>
      request.messages[0]?.content.startsWith('You prepare searches')
        ? JSON.stringify({ rephrasings: ['the option Marco picked for the Q3 budget'] })
        : DECIDED;
    const served = await serve(
      db,
      loopback,
      '--max-chunks',
      '4',
      '--max-summaries',
      '2',
      '--drain-interval',
      '1h',
    );
    const last = await served.drainLine((l) => l.chunksPending === 0 && l.summariesWaiting === 0);
    expect(last).toMatchObject({ event: 'drain', nextInMs: 3_600_000 });
    const reply = (await (
      await fetch(`${served.url}/v1/inboxes/work/retrieve`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ question: 'which budget option did Marco choose?' }),
      })
    ).json()) as { mode: string; degraded?: string; refinement?: unknown };
    expect(reply).toMatchObject({ mode: 'hybrid' });
    expect(reply.degraded).toBeUndefined();
    expect(reply.refinement).toEqual({
      by: 'openai:summariser',
      rephrasings: ['the option Marco picked for the Q3 budget'],
    });
    served.child.kill('SIGTERM');
    expect(await served.exit).toBe(0);
    const engine = Mailsift.open(db);
    expect(backlogSize(engine)).toEqual({ pendingChunks: 0, threadsAwaitingChunks: 0 });
    expect(summaryBacklog(engine).pending).toBe(0);
    engine.close();
  });

  it('drains with several workers one at a time: never two provider calls in flight', async () => {
    const db = await pendingArchive();
    // Its own loopback: the in-flight count covers this server's calls only.
    const own = await startLoopback();
    own.chat = () => DECIDED;
    const served = await serve(db, own, '--workers', '2', '--max-chunks', '4', '--drain-interval', '0.1s');
    await served.drainLine((l) => l.chunksPending === 0 && l.summariesWaiting === 0);
    served.child.kill('SIGTERM');
    expect(await served.exit).toBe(0);
    await own.close();
    // Each pass makes one call at a time (8 chunks per embedding request, one summary at a time).
    expect(own.maxInFlight()).toBe(1);
    expect(own.requests.filter((r) => r.path === '/v1/chat/completions')).toHaveLength(6);
    const engine = Mailsift.open(db);
    expect(backlogSize(engine)).toEqual({ pendingChunks: 0, threadsAwaitingChunks: 0 });
    expect(summaryBacklog(engine).pending).toBe(0);
    engine.close();
  });

  it('exits on SIGTERM in the middle of a pass, the embedder call dropped and the backlog kept', async () => {
    const db = await pendingArchive();
    loopback.faults.push('hang');
    const before = loopback.requests.length;
    const served = await serve(db, loopback);
    // The pass is waiting for the embedder, which never answers.
    while (!loopback.requests.slice(before).some((r) => r.path === '/v1/embeddings'))
      await new Promise((resolve) => setTimeout(resolve, 10));
    served.child.kill('SIGTERM');
    expect(await served.exit).toBe(0);
    const engine = Mailsift.open(db);
    const chunks = engine.archive.db.prepare('SELECT count(*) FROM rag_chunks').pluck().get() as number;
    expect(chunks).toBeGreaterThan(0);
    expect(backlogSize(engine).pendingChunks).toBe(chunks);
    expect(engine.archive.db.prepare('SELECT count(*) FROM scratch.drain_lease').pluck().get()).toBe(0);
    engine.close();
  });
});

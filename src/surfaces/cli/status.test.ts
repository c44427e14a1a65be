import { execFile } from 'node:child_process';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli } from '../../../test/e2e/cli.js';
import { tempDir } from '../../../test/temp.js';
import { Mailsift } from '../../engine.js';
import { type Loopback, startLoopback } from '../../rag/openai-loopback.js';
import { loopbackEnv, RAG_FIXTURES } from '../../rag/test-helpers.js';
import { withDrainLease } from './drain-lease.js';

describe('mailsift status: the embedding backlog (built CLI)', () => {
  let server: Loopback;
  beforeAll(async () => {
    server = await startLoopback();
  });
  afterAll(() => server.close());

  /**
   * A fresh archive holding the budget thread, ingested without embedding; `run` is the built CLI
   * on it, `runAsync` the same (with `env` or other variables) for commands the loopback must
   * answer while they run.
   */
  function budgetArchive(env: NodeJS.ProcessEnv) {
    const db = join(tempDir('mailsift-status-'), 'a.db');
    const run = (...args: string[]) => runCli([...args, '--db', db], env);
    const runAsync = (args: string[], vars = env) =>
      promisify(execFile)(process.execPath, [CLI, ...args, '--db', db], { env: { ...process.env, ...vars } });
    expect(run('ingest', join(RAG_FIXTURES, 'budget-thread'), '--inbox', 'work', '--no-embed').status).toBe(
      0,
    );
    return { db, run, runAsync };
  }

  it('counts changed threads not yet chunked, so it never says 0 waiting while work remains', async () => {
    const { run, runAsync } = budgetArchive(loopbackEnv(server.url, { llm: false }));

    const stored = JSON.parse(run('status', '--json').stdout);
    expect(stored.health.inboxes[0]).toMatchObject({
      inbox: 'work',
      embeddingBacklog: 0,
      threadsAwaitingChunks: 1,
    });
    expect(run('status').stdout).toContain(
      'work embedding_backlog: 0 chunk(s) waiting for openai:loopback-64, 1 changed thread(s) not yet chunked',
    );

    // Asynchronously: the loopback embedder answers from this process.
    await runAsync(['embed']);
    const drained = JSON.parse(run('status', '--check', '--json').stdout);
    expect(drained.inboxes[0]).toMatchObject({ embeddingBacklog: 0, threadsAwaitingChunks: 0 });
  });

  it('shows the chunk size in use, and a re-chunk pending once it changes until embed rebuilds', async () => {
    const env = loopbackEnv(server.url, { llm: false });
    const { db, runAsync } = budgetArchive(env);
    const smaller = { ...env, MAILSIFT_EMBEDDER_CHUNK_TOKENS: '128' };
    const embed = (vars: NodeJS.ProcessEnv) => runAsync(['embed'], vars);
    await embed(env);
    const approximate = 'of the approximate (words x 1.3) tokenizer';
    expect(runCli(['status', '--db', db], env).stdout).toContain(
      `chunks: 256 tokens (overlap 40) ${approximate}\n`,
    );

    expect(runCli(['status', '--db', db], smaller).stdout).toContain(
      `chunks: 128 tokens (overlap 40) ${approximate}; re-chunk pending: the chunks were built at 256 tokens (overlap 40)`,
    );
    expect(JSON.parse(runCli(['status', '--json', '--db', db], smaller).stdout).chunking).toMatchObject({
      configured: { targetTokens: 128, overlapTokens: 40, tokenizer: 'approximate' },
      recorded: { targetTokens: 256 },
      rechunkPending: true,
    });
    expect((await embed(smaller)).stdout).toMatch(/embedded [1-9]\d* chunks, 0 pending/);
    expect(runCli(['status', '--db', db], smaller).stdout).not.toContain('re-chunk pending');

    const refused = runCli(['status', '--db', db], { ...env, MAILSIFT_EMBEDDER_CHUNK_TOKENS: '16' });
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain('embedder.chunkTokens must be an integer of at least 64 tokens, got 16');
  });

  it('reports the thread summaries waiting for the LLM, and embed writes them', async () => {
    const env = { ...loopbackEnv(server.url), MAILSIFT_LLM_MODEL: 'loopback-chat' };
    server.chat = () => 'Anna Keller proposed three budget options; Marco Bianchi chose option B on 5 June.';
    const { db, run, runAsync } = budgetArchive(env);
    // Chunks are built lazily: the first embed run builds them and queues the summary.
    await runAsync(['embed'], {
      ...env,
      MAILSIFT_LLM_URL: 'http://127.0.0.1:9/v1',
      MAILSIFT_LLM_MAX_RETRIES: '0',
    });
    expect(JSON.parse(run('status', '--json').stdout).summaries).toMatchObject({ pending: 1, failing: 1 });
    expect(run('status').stdout).toContain(
      '1 thread summaries awaiting the LLM (mailsift serve, watch or embed writes them), 1 failing: ',
    );
    // The health checks (status --check, /v1/health, watch) warn with the LLM's error.
    expect(run('status', '--check').stdout).toMatch(
      /warn work summary_backlog: 1 thread summary waiting for openai:loopback-chat: 1 failing, retried with backoff; last error: llm at http:\/\/127\.0\.0\.1:9\/v1\/chat\/completions is unreachable/,
    );

    // Past its backoff, the next run writes it with the LLM that is up now.
    const engine = Mailsift.open(db);
    engine.archive.db.prepare('UPDATE rag_summary_backlog SET retry_at = 0').run();
    engine.close();
    const { stdout } = await runAsync(['embed']);
    expect(stdout).toContain('wrote 1 thread summaries with the LLM, 0 waiting');
    expect(JSON.parse(run('status', '--json').stdout).summaries).toEqual({
      pending: 0,
      failing: 0,
      lastError: null,
    });
    const retrieved = await runAsync(['retrieve', 'what did Marco choose for the budget?', '--json']);
    expect(retrieved.stdout).toContain('chose option B on 5 June');
  });

  it('ingest leaves the embedding to a process already draining the archive, and says which', async () => {
    const { db, run, runAsync } = budgetArchive(loopbackEnv(server.url, { llm: false }));
    // This test process plays a server in the middle of a pass.
    const engine = Mailsift.open(db);
    let release = (): void => undefined;
    const held = withDrainLease(engine.archive.db, () => new Promise<void>((done) => (release = done)));
    const calls = server.requests.length;
    const { stdout } = await runAsync([
      'ingest',
      join(RAG_FIXTURES, 'budget-thread'),
      '--inbox',
      'work',
      '--json',
    ]);
    release();
    await held;
    engine.close();
    expect(JSON.parse(stdout).embedding).toEqual({
      error: `${hostname()} pid ${process.pid} is draining this archive`,
    });
    expect(server.requests.length).toBe(calls);
    expect(JSON.parse(run('status', '--json').stdout).health.inboxes[0]).toMatchObject({
      threadsAwaitingChunks: 1,
    });
  });
});

import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli } from '../../../test/e2e/cli.js';
import { type Loopback, startLoopback } from '../../rag/openai-loopback.js';
import { RAG_FIXTURES } from '../../rag/test-helpers.js';

describe('mailsift status: the embedding backlog (built CLI)', () => {
  let server: Loopback;
  beforeAll(async () => {
    server = await startLoopback();
  });
  afterAll(() => server.close());

  it('counts changed threads not yet chunked, so it never says 0 waiting while work remains', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'mailsift-status-')), 'a.db');
    const env = {
      MAILSIFT_EMBEDDER_KIND: 'openai',
      MAILSIFT_EMBEDDER_URL: server.url,
      MAILSIFT_EMBEDDER_MODEL: 'loopback-64',
    };
    const run = (...args: string[]) => runCli([...args, '--db', db], env);
    expect(run('ingest', join(RAG_FIXTURES, 'budget-thread'), '--inbox', 'work', '--no-embed').status).toBe(
      0,
    );

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
    await promisify(execFile)(process.execPath, [CLI, 'embed', '--db', db], {
      env: { ...process.env, ...env },
    });
    const drained = JSON.parse(run('status', '--check', '--json').stdout);
    expect(drained.inboxes[0]).toMatchObject({ embeddingBacklog: 0, threadsAwaitingChunks: 0 });
  });
});

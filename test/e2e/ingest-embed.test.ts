// `mailsift ingest` with an embedder configured: new chunks are embedded once the messages
// are stored; with the embedder down, ingest still succeeds and the backlog keeps them.

import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Loopback, startLoopback } from '../../src/rag/openai-loopback.js';
import { tempDir } from '../temp.js';
import { CLI } from './cli.js';

const run = promisify(execFile);
const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'threading', 'late-parent');

describe('ingest with an embedder configured', () => {
  let server: Loopback;
  beforeAll(async () => {
    server = await startLoopback();
  });
  afterAll(async () => {
    await server.close();
  });

  const ingest = (db: string, url: string) =>
    run(process.execPath, [CLI, 'ingest', FIXTURES, '--db', db, '--json'], {
      env: { ...process.env, MAILSIFT_EMBEDDER_URL: url, MAILSIFT_EMBEDDER_MODEL: 'loopback-64' },
    });

  it('embeds the new chunks after storing the messages', async () => {
    const db = join(tempDir('mailsift-embed-'), 'a.db');
    const { stdout } = await ingest(db, server.url);
    const report = JSON.parse(stdout) as {
      added: number;
      embedding: { embedded: number; remaining: number };
    };
    expect(report.added).toBe(4);
    expect(report.embedding.embedded).toBeGreaterThan(0);
    expect(report.embedding.remaining).toBe(0);
    expect(server.requests.length).toBeGreaterThan(0);
  });

  it('stores everything and keeps the backlog when the embedder is unreachable', async () => {
    const db = join(tempDir('mailsift-embed-'), 'b.db');
    const { stdout } = await ingest(db, 'http://127.0.0.1:9/v1');
    const report = JSON.parse(stdout) as {
      added: number;
      embedding: { embedded: number; remaining: number; error: string };
    };
    expect(report.added).toBe(4);
    expect(report.embedding).toMatchObject({ embedded: 0 });
    expect(report.embedding.remaining).toBeGreaterThan(0);
    expect(report.embedding.error).toMatch(/unreachable/);
  });
});

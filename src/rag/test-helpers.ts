// Test support: a fresh archive with one fixture folder of test/fixtures/rag ingested.

import { cpSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { tempDir } from '../../test/temp.js';
import { Mailsift } from '../engine.js';
import { type ChatModel, openAiChat } from './chat.js';
import { type Embedder, openAiEmbedder } from './embedder.js';
import { type Loopback, startLoopback } from './openai-loopback.js';

export const RAG_FIXTURES = resolve(import.meta.dirname, '../../test/fixtures/rag');

export interface FixtureArchive {
  readonly engine: Mailsift;
  /** A private copy of the fixture folder: tests may delete files and ingest again. */
  readonly folder: string;
}

export async function openFixtureArchive(name: string, inbox = 'work'): Promise<FixtureArchive> {
  const root = tempDir('mailsift-rag-');
  const folder = join(root, name);
  cpSync(join(RAG_FIXTURES, name), folder, { recursive: true });
  const engine = Mailsift.open(join(root, 'archive.db'));
  await engine.ingest([folder], { inbox, workers: 0 });
  return { engine, folder };
}

export interface ChunkRow {
  id: number;
  kind: string;
  text: string;
  tokens: number;
  meta: string;
}

export function chunkRows(engine: Mailsift): ChunkRow[] {
  return engine.archive.db
    .prepare('SELECT id, kind, text, tokens, meta FROM rag_chunks ORDER BY id')
    .all() as ChunkRow[];
}

export const countRows = (engine: Mailsift, table: string): number =>
  (engine.archive.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

/** Deletes a message as the store does: every index hook, in one transaction. */
export function deleteThroughHooks(engine: Mailsift, messageId: string): void {
  const db = engine.archive.db;
  const rowid = engine.getMessage(messageId).rowid;
  db.transaction(() => {
    for (const hook of engine.archive.hooks) hook.onDelete?.(db, rowid);
  })();
}

/** The budget thread ingested into inbox work, and the paraphrase messages added to its folder for a sync to store: six threads then. */
export async function openGrowingArchive(): Promise<FixtureArchive> {
  const archive = await openFixtureArchive('budget-thread');
  cpSync(join(RAG_FIXTURES, 'paraphrase'), archive.folder, { recursive: true });
  return archive;
}

/**
 * A loopback OpenAI-compatible server for the calling test file (started before its tests,
 * closed after), with an embedder and an LLM on it that do not retry.
 */
export function useLoopback(): {
  readonly server: () => Loopback;
  readonly embedder: () => Embedder;
  readonly llm: () => ChatModel;
} {
  let server: Loopback | undefined;
  beforeAll(async () => {
    server = await startLoopback();
  });
  afterAll(() => server?.close());
  const running = (): Loopback => {
    if (!server) throw new Error('the loopback server starts before the tests');
    return server;
  };
  return {
    server: running,
    embedder: () => openAiEmbedder({ url: running().url, model: 'loopback-64', maxRetries: 0 }),
    llm: () => openAiChat({ url: running().url, model: 'summariser', maxRetries: 0 }),
  };
}

/** The MAILSIFT_* variables that configure a CLI process with the loopback server as embedder (and LLM). */
export function loopbackEnv(url: string, { llm = true } = {}): NodeJS.ProcessEnv {
  return {
    MAILSIFT_EMBEDDER_KIND: 'openai',
    MAILSIFT_EMBEDDER_URL: url,
    MAILSIFT_EMBEDDER_MODEL: 'loopback-64',
    ...(llm ? { MAILSIFT_LLM_KIND: 'openai', MAILSIFT_LLM_URL: url, MAILSIFT_LLM_MODEL: 'summariser' } : {}),
  };
}

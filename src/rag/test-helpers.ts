// Test support: a fresh archive with one fixture folder of test/fixtures/rag ingested.

import { cpSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tempDir } from '../../test/temp.js';
import { Mailsift } from '../engine.js';

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

// Test support: archives built by ingesting the realistic fixtures of test/fixtures/search
// through the real pipeline, with the keyword index registered as the engine will.

import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Mailsift } from '../engine.js';
import { ensureKeywordIndex, keywordIndexHook } from '../index/index.js';
import { type Db, MessageStore } from '../store/index.js';

export const FIXTURES = join(import.meta.dirname, '../../test/fixtures/search');

export interface TestArchive {
  readonly engine: Mailsift;
  readonly db: Db;
  readonly root: string;
  /** Ingests fixture files (by base name, without .eml) into `inbox`. */
  add(names: readonly string[], inbox?: string): Promise<void>;
  rowidOf(messageId: string): number;
  deleteMessage(messageId: string): void;
  close(): void;
}

export function allFixtures(): string[] {
  return readdirSync(FIXTURES)
    .filter((f) => f.endsWith('.eml'))
    .map((f) => f.slice(0, -4))
    .sort();
}

export async function openTestArchive(
  names: readonly string[] = allFixtures(),
  inbox = 'work',
): Promise<TestArchive> {
  const root = mkdtempSync(join(tmpdir(), 'mailsift-search-'));
  const engine = Mailsift.open(join(root, 'archive.db'));
  // As the engine does on open (a no-op once Mailsift.open does it itself).
  ensureKeywordIndex(engine.archive.db);
  if (!engine.archive.hooks.includes(keywordIndexHook)) engine.archive.hooks.push(keywordIndexHook);
  const db = engine.archive.db;
  let batch = 0;
  const archive: TestArchive = {
    engine,
    db,
    root,
    async add(list, into = inbox) {
      const dir = join(root, `batch-${batch++}`);
      mkdirSync(dir);
      for (const name of list) copyFileSync(join(FIXTURES, `${name}.eml`), join(dir, `${name}.eml`));
      await engine.ingest([dir], { inbox: into, workers: 0 });
    },
    rowidOf(messageId) {
      const row = db.prepare('SELECT id FROM messages WHERE message_id = ?').get(messageId) as
        | { id: number }
        | undefined;
      if (!row) throw new Error(`no message ${messageId}`);
      return row.id;
    },
    deleteMessage(messageId) {
      const rowid = archive.rowidOf(messageId);
      db.transaction(() => new MessageStore(engine.archive).deleteMessage(rowid))();
    },
    close() {
      engine.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
  if (names.length > 0) await archive.add(names);
  return archive;
}

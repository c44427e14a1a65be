// Test support: archives built by ingesting the realistic fixtures of test/fixtures/search
// through the real pipeline, with the keyword index registered as the engine will.

import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Mailsift } from '../engine.js';
import { ensureKeywordIndex, keywordIndexHook } from '../index/index.js';
import { type Db, MessageStore } from '../store/index.js';
import type { RankContext } from './ranked-query.js';

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

/** Add, delete and close through one engine; `close` leaves the files. */
type Handle = Pick<TestArchive, 'engine' | 'db' | 'add' | 'rowidOf' | 'deleteMessage'> & {
  readonly closeEngine: () => void;
};

function handle(path: string, root: string, inbox: string): Handle {
  const engine = Mailsift.open(path);
  // As the engine does on open (a no-op once Mailsift.open does it itself).
  ensureKeywordIndex(engine.archive.db);
  if (!engine.archive.hooks.includes(keywordIndexHook)) engine.archive.hooks.push(keywordIndexHook);
  const db = engine.archive.db;
  const rowidOf = (messageId: string): number => {
    const row = db.prepare('SELECT id FROM messages WHERE message_id = ?').get(messageId) as
      | { id: number }
      | undefined;
    if (!row) throw new Error(`no message ${messageId}`);
    return row.id;
  };
  return {
    engine,
    db,
    async add(list, into = inbox) {
      const dir = mkdtempSync(join(root, 'batch-'));
      for (const name of list) copyFileSync(join(FIXTURES, `${name}.eml`), join(dir, `${name}.eml`));
      await engine.ingest([dir], { inbox: into, workers: 0 });
    },
    rowidOf,
    deleteMessage(messageId) {
      const rowid = rowidOf(messageId);
      db.transaction(() => new MessageStore(engine.archive).deleteMessage(rowid))();
    },
    closeEngine: () => engine.close(),
  };
}

export async function openTestArchive(
  names: readonly string[] = allFixtures(),
  inbox = 'work',
): Promise<TestArchive> {
  const root = mkdtempSync(join(tmpdir(), 'mailsift-search-'));
  const { closeEngine, ...own } = handle(join(root, 'archive.db'), root, inbox);
  const archive: TestArchive = {
    ...own,
    root,
    close() {
      closeEngine();
      rmSync(root, { recursive: true, force: true });
    },
  };
  if (names.length > 0) await archive.add(names);
  return archive;
}

/** Another engine (its own connection) on the same archive file, as a second process would be. */
export function openWriter(archive: TestArchive, inbox = 'work'): Omit<TestArchive, 'root'> {
  const { closeEngine, ...own } = handle(join(archive.root, 'archive.db'), archive.root, inbox);
  return { ...own, close: closeEngine };
}

/** A ranking context over every inbox, dated 2026 (the fixtures are from 2024), with `overrides`. */
export function rankContext(overrides: Partial<RankContext>): RankContext {
  return {
    inboxId: 0,
    after: null,
    before: null,
    origin: Date.UTC(2026, 0, 1),
    watermark: Number.MAX_SAFE_INTEGER,
    maxBoost: 1.5,
    halfLifeDays: 30,
    ...overrides,
  };
}

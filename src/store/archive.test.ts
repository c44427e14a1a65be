import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openArchive, PAGE_SIZE } from './archive.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mailsift-archive-'));
  dirs.push(dir);
  return join(dir, 'archive.db');
}

describe('opening an archive', () => {
  it('creates a new archive with large pages in WAL mode, and keeps an existing one as it is', () => {
    const fresh = openArchive(tempPath());
    expect(fresh.db.pragma('page_size', { simple: true })).toBe(PAGE_SIZE);
    expect(fresh.db.pragma('journal_mode', { simple: true })).toBe('wal');
    fresh.close();

    // A file already written with 4 KB pages (as archives were before): its page size is fixed.
    const path = tempPath();
    const old = new Database(path);
    old.pragma('page_size = 4096');
    old.exec('CREATE TABLE scratch (x); DROP TABLE scratch');
    old.close();
    const existing = openArchive(path);
    expect(existing.db.pragma('page_size', { simple: true })).toBe(4096);
    expect(existing.db.prepare('SELECT count(*) FROM messages').pluck().get()).toBe(0);
    existing.close();
  });

  it('keeps disposable read-path state in a scratch database beside it, replaced when unreadable', () => {
    const path = tempPath();
    const archive = openArchive(path);
    archive.db.exec('CREATE TABLE scratch.kept (x); INSERT INTO scratch.kept VALUES (1)');
    // Not in the archive itself: other connections keep their page cache across these writes.
    expect(
      archive.db.prepare("SELECT count(*) FROM main.sqlite_schema WHERE name = 'kept'").pluck().get(),
    ).toBe(0);
    archive.close();
    const again = openArchive(path);
    expect(again.db.prepare('SELECT x FROM scratch.kept').pluck().get()).toBe(1);
    again.close();

    writeFileSync(`${path}-scratch`, 'not a database, e.g. a file cut short by a full disk');
    rmSync(`${path}-scratch-wal`, { force: true });
    const healed = openArchive(path);
    expect(
      healed.db.prepare("SELECT count(*) FROM scratch.sqlite_schema WHERE name = 'kept'").pluck().get(),
    ).toBe(0);
    healed.db.exec('CREATE TABLE scratch.kept (x)');
    healed.close();
  });
});

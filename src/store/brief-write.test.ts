// The read path's optional writes to the scratch database go through while an ingest holds
// the main archive's write lock, and give up (false, nothing written) when the scratch
// database itself stays locked past the wait.

import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/temp.js';
import { type Archive, openArchive } from './archive.js';
import { writeBriefly } from './brief-write.js';

describe('writeBriefly', () => {
  const open: Array<{ close(): void }> = [];
  afterEach(() => {
    for (const handle of open.splice(0)) handle.close();
  });

  function archiveWithWriter(locked: 'main' | 'scratch'): { archive: Archive; writer: Database.Database } {
    const path = join(tempDir('mailsift-brief-write-'), 'archive.db');
    const archive = openArchive(path);
    archive.db.exec('CREATE TABLE IF NOT EXISTS scratch.brief_test (x)');
    // Another process's ingest batch (or another server worker's scratch write), in progress.
    const writer = new Database(locked === 'main' ? path : `${path}-scratch`);
    writer.exec('BEGIN IMMEDIATE');
    open.push({ close: () => writer.exec('ROLLBACK') }, writer, archive);
    return { archive, writer };
  }

  const rows = (archive: Archive): number =>
    archive.db.prepare('SELECT count(*) FROM scratch.brief_test').pluck().get() as number;

  /** A read path's scratch write (a frozen order, a shared head): one row. */
  const writeRow = (archive: Archive): boolean =>
    writeBriefly(archive.db, 50, () => {
      archive.db.prepare('INSERT INTO scratch.brief_test VALUES (1)').run();
    });

  it('writes the scratch database while another connection holds the archive write lock', () => {
    const { archive } = archiveWithWriter('main');
    const written = writeRow(archive);
    expect(written).toBe(true);
    expect(rows(archive)).toBe(1);
  });

  it('gives up, writing nothing, when the scratch database stays locked', () => {
    const { archive } = archiveWithWriter('scratch');
    const written = writeRow(archive);
    expect(written).toBe(false);
    expect(rows(archive)).toBe(0);
    expect(archive.db.pragma('busy_timeout', { simple: true })).toBe(5000);
  });
});

// What the archive remembers of a source on a server: per folder what its last complete sync
// saw (`source_folders`), how it logs in (`sources.credential`, a method, never a secret) and
// its last error, which `status` shows and the next successful run clears.

import type { FolderState, StoredFolder } from '../core/types.js';
import { type Db, sql } from './archive.js';

/**
 * The source's folder states with what the archive holds in each folder now (locations and
 * failures): an incremental sync checks its count of changes against it.
 */
export function loadFolderStates(db: Db, sourceId: number): StoredFolder[] {
  const rows = sql(
    db,
    `SELECT folder, uid_validity, uid_next, highest_modseq, messages FROM source_folders
     WHERE source_id = ? ORDER BY folder`,
  ).all(sourceId) as Array<{
    folder: string;
    uid_validity: string;
    uid_next: number;
    highest_modseq: string | null;
    messages: number;
  }>;
  if (rows.length === 0) return [];
  // One pass over the source's rows each, not one per folder.
  const stored = new Map<string, number>();
  for (const table of ['locations', 'failures'])
    for (const { folder, n } of sql(
      db,
      `SELECT folder, count(*) AS n FROM ${table} WHERE source_id = ? GROUP BY folder`,
    ).all(sourceId) as Array<{ folder: string; n: number }>)
      stored.set(folder, (stored.get(folder) ?? 0) + n);
  return rows.map((row) => ({
    folder: row.folder,
    uidValidity: row.uid_validity,
    uidNext: row.uid_next,
    highestModseq: row.highest_modseq,
    messages: row.messages,
    stored: stored.get(row.folder) ?? 0,
  }));
}

/** Replaces the source's folder states; call inside the transaction that completes its sync. */
export function saveFolderStates(db: Db, sourceId: number, states: readonly FolderState[], at: number): void {
  sql(db, 'DELETE FROM source_folders WHERE source_id = ?').run(sourceId);
  const insert = sql(
    db,
    `INSERT INTO source_folders (source_id, folder, uid_validity, uid_next, highest_modseq, messages, synced_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const s of states)
    insert.run(sourceId, s.folder, s.uidValidity, s.uidNext, s.highestModseq, s.messages, at);
}

/** How the source at `path` logged in last, in any inbox; undefined for a source never synced. */
export function recordedCredential(db: Db, path: string): string | undefined {
  const row = sql(
    db,
    'SELECT credential FROM sources WHERE path = ? AND credential IS NOT NULL ORDER BY id LIMIT 1',
  ).get(path) as { credential: string } | undefined;
  return row?.credential;
}

/** The folders the last complete syncs of the source at `path` saw, in name order. */
export function recordedFolders(db: Db, path: string): string[] {
  return sql(
    db,
    `SELECT DISTINCT f.folder FROM source_folders f JOIN sources s ON s.id = f.source_id
     WHERE s.path = ? ORDER BY f.folder`,
  )
    .pluck()
    .all(path) as string[];
}

export function saveCredential(db: Db, sourceId: number, credential: string): void {
  sql(db, 'UPDATE sources SET credential = ? WHERE id = ?').run(credential, sourceId);
}

/**
 * Records why a run over the source failed (or clears it with null). Only a source already
 * recorded is updated: a first run that fails (wrong password) leaves nothing behind.
 */
export function saveSourceError(db: Db, path: string, inboxName: string, error: string | null): void {
  sql(
    db,
    `UPDATE sources SET last_error = ?, last_error_at = ?
     WHERE path = ? AND inbox_id = (SELECT id FROM inboxes WHERE name = ?)`,
  ).run(error?.slice(0, 2000) ?? null, error === null ? null : Date.now(), path, inboxName);
}

// Optional writes from the read path (frozen search orders, shared ranked heads): a short
// write transaction that gives up rather than queue a request behind an ingest batch.

import type { Db } from './archive.js';

/** A write that cannot happen now: a read-only connection, or the lock held past the wait. */
function unwritable(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_BUSY'));
}

/**
 * Runs `write` in its own transaction, waiting at most `waitMs` for the lock. Returns false,
 * having written nothing, when the archive cannot be written now. Call it outside any read
 * transaction: upgrading one fails whenever another connection wrote since it began.
 *
 * The transaction is DEFERRED, so only the databases `write` writes are locked, each at its
 * first write: BEGIN IMMEDIATE takes the write lock of every attached database, the main
 * archive included, so a scratch-only write waited out `waitMs` behind every ingest batch
 * (measured: a repeated search 4 ms alone, 266 ms while `mailsift ingest` wrote). `write`
 * must therefore write before it reads, or a read could see a state another writer then
 * changes before the lock is taken.
 */
export function writeBriefly(db: Db, waitMs: number, write: () => void): boolean {
  const wait = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma(`busy_timeout = ${Math.min(wait, waitMs)}`);
  try {
    db.transaction(write).deferred();
    return true;
  } catch (error) {
    if (unwritable(error)) return false;
    throw error;
  } finally {
    db.pragma(`busy_timeout = ${wait}`);
  }
}

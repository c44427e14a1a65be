// Frozen relevance orders. When a first page has a next one, the head of its ranked order
// is stored beside the archive (scratch.search_snapshots) and the page token names it, so
// every later page — from any process — follows the order page 1 saw, whatever bm25 says
// since.

import { MailsiftError } from '../core/errors.js';
import { nodeCrypto } from '../core/node-crypto.js';
import { type Db, sql, writeBriefly } from '../store/index.js';
import { cachedSnapshot, keepSnapshot } from './rank-cache.js';
import type { RankedRow } from './ranked-query.js';

/**
 * Pages of rows page 1 ranks and freezes. Ranking costs about the same for 10 rows or
 * 10,000 (bm25 is computed for every match either way) but returning, hashing and storing
 * them does not; an order is extended when paging reaches its end.
 */
export const SNAPSHOT_PAGES = 10;
/** How long a token's frozen order stays valid; an agent pages within minutes. */
export const SNAPSHOT_TTL_MS = 3_600_000;
/** Snapshots kept at most (24 bytes per entry: a thousand-row order is 24 KB). */
const MAX_SNAPSHOTS = 256;
/** Longest a first page waits for the write lock (an ingest batch) before paging live. */
const WRITE_WAIT_MS = 250;
/**
 * A stored order written this recently is not written again: an agent repeating a first
 * page (or a busy server) would otherwise take the write lock on every request. Its
 * tokens then live at least SNAPSHOT_TTL_MS − REFRESH_MS.
 */
const REFRESH_MS = 60_000;

export interface Snapshot {
  readonly id: string;
  readonly createdAt: number;
  readonly inboxId: number;
  readonly kind: string;
  readonly fingerprint: string;
  /** Rows in rank order; in thread mode each is the thread's best message. */
  readonly rows: readonly RankedRow[];
  /** Thread mode: "inboxId:threadId" of each row when frozen. */
  readonly threads: readonly string[] | null;
  /** False when the ranking goes on past the frozen rows. */
  readonly complete: boolean;
}

export type SnapshotDraft = Omit<Snapshot, 'id' | 'createdAt'>;

function pack(rows: readonly RankedRow[]): Buffer {
  const values = new Float64Array(rows.length * 3);
  rows.forEach((row, i) => {
    values[i * 3] = row.score;
    values[i * 3 + 1] = row.date;
    values[i * 3 + 2] = row.rowid;
  });
  return Buffer.from(values.buffer);
}

function unpack(blob: Buffer): RankedRow[] {
  // Copied: a Float64Array view needs 8-byte alignment, which a driver buffer need not have.
  const values = new Float64Array(Uint8Array.from(blob).buffer);
  const rows: RankedRow[] = [];
  for (let i = 0; i + 2 < values.length; i += 3)
    rows.push({ score: values[i] as number, date: values[i + 1] as number, rowid: values[i + 2] as number });
  return rows;
}

/**
 * The id is a hash of the frozen content, so a token can be signed before the row is
 * written, and identical first pages (an agent repeating itself) share one row.
 */
export function snapshotId(draft: SnapshotDraft): string {
  return nodeCrypto()
    .createHash('sha256')
    .update(JSON.stringify([draft.kind, draft.inboxId, draft.fingerprint, draft.complete, draft.threads]))
    .update(pack(draft.rows))
    .digest('base64url')
    .slice(0, 22);
}

/**
 * Stores a frozen order (and prunes expired and surplus ones) in its own short write
 * transaction, after the page's read transaction: upgrading that one to a writer would
 * fail whenever another connection wrote since it began. Returns false when the archive
 * cannot be written now, in which case paging falls back to live scores.
 */
export function saveSnapshot(db: Db, id: string, draft: SnapshotDraft, now = Date.now()): boolean {
  const stored = sql(db, 'SELECT created_at FROM scratch.search_snapshots WHERE id = ?').pluck().get(id) as
    | number
    | undefined;
  if (stored !== undefined && stored >= now - REFRESH_MS) {
    keepSnapshot(db, { id, createdAt: stored, ...draft });
    return true;
  }
  const written = writeBriefly(db, WRITE_WAIT_MS, () => {
    sql(db, 'DELETE FROM scratch.search_snapshots WHERE created_at < ?').run(now - SNAPSHOT_TTL_MS);
    sql(
      db,
      `INSERT INTO scratch.search_snapshots (id, created_at, inbox_id, kind, fingerprint, complete, ranked, threads)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET created_at = excluded.created_at`,
    ).run(
      id,
      now,
      draft.inboxId,
      draft.kind,
      draft.fingerprint,
      draft.complete ? 1 : 0,
      pack(draft.rows),
      draft.threads?.join('\n') ?? null,
    );
    sql(
      db,
      'DELETE FROM scratch.search_snapshots WHERE id IN (SELECT id FROM scratch.search_snapshots ORDER BY created_at DESC LIMIT -1 OFFSET ?)',
    ).run(MAX_SNAPSHOTS);
  });
  if (!written) return false;
  keepSnapshot(db, { id, createdAt: now, ...draft });
  return true;
}

function expired(): MailsiftError {
  return new MailsiftError('invalid_page_token', 'page token expired: run the search again', {
    param: 'pageToken',
  });
}

interface SnapshotRow {
  created_at: number;
  inbox_id: number;
  kind: string;
  fingerprint: string;
  complete: number;
  ranked: Buffer;
  threads: string | null;
}

/**
 * The frozen order a token names, checked against the token's binding. A missing or
 * expired one is an error: paging on in another order would repeat or skip messages.
 */
export function loadSnapshot(
  db: Db,
  id: string,
  expected: { readonly kind: string; readonly inboxId: number; readonly fingerprint: string },
  now = Date.now(),
): Snapshot {
  const snapshot = cachedSnapshot(db, id, () => {
    const row = sql(
      db,
      'SELECT created_at, inbox_id, kind, fingerprint, complete, ranked, threads FROM scratch.search_snapshots WHERE id = ?',
    ).get(id) as SnapshotRow | undefined;
    if (!row) return undefined;
    return {
      id,
      createdAt: row.created_at,
      inboxId: row.inbox_id,
      kind: row.kind,
      fingerprint: row.fingerprint,
      rows: unpack(row.ranked),
      threads: row.threads === null ? null : row.threads.split('\n'),
      complete: row.complete === 1,
    };
  });
  if (!snapshot || snapshot.createdAt < now - SNAPSHOT_TTL_MS) throw expired();
  if (
    snapshot.kind !== expected.kind ||
    snapshot.inboxId !== expected.inboxId ||
    snapshot.fingerprint !== expected.fingerprint
  ) {
    throw new MailsiftError('invalid_page_token', 'pageToken belongs to another query', {
      param: 'pageToken',
    });
  }
  return snapshot;
}

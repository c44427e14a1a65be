// Later pages read from a frozen order: entries whose messages were deleted (or since
// marked spam/trash) are passed over, threads merged into an earlier entry's thread are
// passed over, and nothing that was not frozen appears. A capped order is extended from
// the live ranking when a page reaches its end, never repeating a frozen entry.

import { type Db, sql } from '../store/index.js';
import type { Match } from './match.js';
import { type RankContext, type RankedRow, threadMember, topMessages, topThreads } from './ranked-query.js';
import { SNAPSHOT_PAGES, type Snapshot, type SnapshotDraft, snapshotId } from './snapshot.js';

export type Mode = 'messages' | 'threads';

export interface Slice {
  readonly rows: RankedRow[];
  /** True when another row follows the last one. */
  readonly more: boolean;
  /** Snapshot entries served or passed over, for the next token. */
  readonly offset: number;
}

/** Rowids of `ids` that still exist and may be shown. */
function visible(db: Db, ids: readonly number[]): Set<number> {
  const rows = sql(
    db,
    `SELECT rowid FROM keyword_docs WHERE rowid IN (SELECT value FROM json_each(?))
     AND untrusted = 0 AND excluded = 0`,
  )
    .pluck()
    .all(JSON.stringify(ids)) as number[];
  return new Set(rows);
}

/** Current "inboxId:threadId" of frozen thread keys, following merges through thread_aliases. */
function currentThreads(db: Db, keys: readonly string[]): string[] {
  const pairs = keys.map((key) => {
    const at = key.indexOf(':');
    return [Number(key.slice(0, at)), key.slice(at + 1)] as const;
  });
  const aliases = new Map<string, string>();
  const rows = sql(
    db,
    'SELECT inbox_id AS inbox, old_id AS old, new_id AS id FROM thread_aliases WHERE old_id IN (SELECT value FROM json_each(?))',
  ).all(JSON.stringify(pairs.map(([, id]) => id))) as Array<{ inbox: number; old: string; id: string }>;
  for (const row of rows) aliases.set(`${row.inbox}:${row.old}`, `${row.inbox}:${row.id}`);
  return keys.map((key) => aliases.get(key) ?? key);
}

const CHUNK = 256;

/** Up to n frozen message rows from `offset` that still exist. */
function messageSlice(db: Db, snapshot: Snapshot, offset: number, n: number): Slice {
  const rows: RankedRow[] = [];
  let at = offset;
  let next = offset;
  while (at < snapshot.rows.length) {
    const chunk = snapshot.rows.slice(at, at + Math.min(CHUNK, Math.max(n + 1, 32)));
    const alive = visible(
      db,
      chunk.map((r) => r.rowid),
    );
    for (const row of chunk) {
      at++;
      if (!alive.has(row.rowid)) continue;
      if (rows.length === n) return { rows, more: true, offset: next };
      rows.push(row);
      next = at;
    }
  }
  return { rows, more: false, offset: snapshot.rows.length };
}

/**
 * Up to n frozen threads from `offset`. A thread keeps its place while any message of it
 * still matches (shown through that message when its best one is gone); one merged into
 * a thread frozen earlier is passed over, since that thread was or will be served there.
 */
function threadSlice(
  db: Db,
  ctx: RankContext,
  match: Match,
  snapshot: Snapshot,
  offset: number,
  n: number,
): Slice {
  const frozen = snapshot.threads ?? [];
  const seen = new Set(currentThreads(db, frozen.slice(0, offset)));
  const rows: RankedRow[] = [];
  let at = offset;
  let next = offset;
  while (at < snapshot.rows.length) {
    const size = Math.min(CHUNK, Math.max(n + 1, 32));
    const chunk = snapshot.rows.slice(at, at + size);
    const keys = currentThreads(db, frozen.slice(at, at + size));
    const alive = visible(
      db,
      chunk.map((r) => r.rowid),
    );
    for (const [i, row] of chunk.entries()) {
      at++;
      const key = keys[i] as string;
      if (seen.has(key)) continue;
      seen.add(key);
      let shown: RankedRow | undefined = alive.has(row.rowid) ? { ...row, thread: key } : undefined;
      if (!shown) {
        const split = key.indexOf(':');
        const member = threadMember(db, ctx, match, Number(key.slice(0, split)), key.slice(split + 1));
        if (member) shown = { ...member, score: row.score, thread: key };
      }
      if (!shown) continue;
      if (rows.length === n) return { rows, more: true, offset: next };
      rows.push(shown);
      next = at;
    }
  }
  return { rows, more: false, offset: snapshot.rows.length };
}

/** What a snapshot entry stands for: its message, or its thread as it is now. */
function frozenKeys(db: Db, mode: Mode, snapshot: Snapshot): Set<string> {
  return new Set(
    mode === 'messages'
      ? snapshot.rows.map((r) => String(r.rowid))
      : currentThreads(db, snapshot.threads ?? []),
  );
}

/**
 * A capped order extended on demand: the live ranking, deep enough to hold as many rows
 * again as the order has (at least SNAPSHOT_PAGES pages), minus what the order already holds,
 * appended. Nothing frozen is served twice, and nothing that matched when page 1 was
 * served is skipped: every unfrozen match stays in the live ranking until an extension
 * reaches it, and the one that reaches the ranking's end completes the order.
 */
function extendSnapshot(
  db: Db,
  ctx: RankContext,
  mode: Mode,
  match: Match,
  snap: Snapshot,
  n: number,
): Snapshot {
  // Doubles the served part and keeps the one row past it, as page 1 does.
  const depth = snap.rows.length + Math.max(snap.rows.length - 1, n * SNAPSHOT_PAGES);
  const live = (mode === 'messages' ? topMessages : topThreads)(db, ctx, match, depth);
  const frozen = frozenKeys(db, mode, snap);
  const added = live.rows.filter(
    (row) => !frozen.has(mode === 'messages' ? String(row.rowid) : (row.thread as string)),
  );
  const draft: SnapshotDraft = {
    inboxId: snap.inboxId,
    kind: snap.kind,
    fingerprint: snap.fingerprint,
    rows: [...snap.rows, ...added],
    threads: snap.threads && [...snap.threads, ...added.map((row) => row.thread as string)],
    complete: !live.more,
  };
  return { ...draft, id: snapshotId(draft), createdAt: Date.now() };
}

export interface SnapshotSlice extends Slice {
  /** The order extended for this page, to be stored before its token is handed out. */
  readonly extended: Snapshot | null;
}

/**
 * Up to n rows after `offset` of a frozen order, extending it when the page reaches the
 * end of a capped one.
 */
export function snapshotPage(
  db: Db,
  ctx: RankContext,
  mode: Mode,
  match: Match,
  frozen: Snapshot,
  offset: number,
  n: number,
): SnapshotSlice {
  let snap = frozen;
  for (;;) {
    const slice =
      mode === 'messages' ? messageSlice(db, snap, offset, n) : threadSlice(db, ctx, match, snap, offset, n);
    if (slice.more || snap.complete) return { ...slice, extended: snap === frozen ? null : snap };
    snap = extendSnapshot(db, ctx, mode, match, snap, n);
  }
}

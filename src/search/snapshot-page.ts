// Later pages read from a frozen order: entries whose messages were deleted (or since
// marked spam/trash) are passed over, threads merged into an earlier entry's thread are
// passed over, and nothing that was not frozen appears. Past a capped snapshot's end,
// pages continue on live scores, still never repeating a frozen entry.

import { type Db, sql } from '../store/index.js';
import type { KeysetPosition } from './page-token.js';
import { type RankContext, type RankedRow, rankMessages, rankThreads, threadMember } from './ranked-query.js';
import type { Snapshot } from './snapshot.js';

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
  match: string,
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

/**
 * Live ranking after `position`, leaving out what `frozen` holds: used past the end of a
 * capped snapshot, where order is best-effort but frozen entries are never served twice.
 */
function liveAfter(
  db: Db,
  ctx: RankContext,
  mode: Mode,
  match: string,
  position: KeysetPosition,
  n: number,
  frozen: Set<string>,
): { rows: RankedRow[]; more: boolean } {
  const rank = mode === 'messages' ? rankMessages : rankThreads;
  const keyOf = (row: RankedRow): string =>
    mode === 'messages' ? String(row.rowid) : (row.thread as string);
  const rows: RankedRow[] = [];
  let from = position;
  for (;;) {
    const batch = rank(db, ctx, match, from, n + 1);
    for (const row of batch) {
      if (frozen.has(keyOf(row))) continue;
      if (rows.length === n) return { rows, more: true };
      rows.push(row);
    }
    const last = batch[batch.length - 1];
    if (!last || batch.length < n + 1) return { rows, more: false };
    from = last;
  }
}

/**
 * Up to n rows after `offset` of a frozen order. Past a capped snapshot's end, rows come
 * live after `position` (the last row served) or, on the page that crosses it, after the
 * snapshot's last entry.
 */
export function snapshotPage(
  db: Db,
  ctx: RankContext,
  mode: Mode,
  match: string,
  snapshot: { readonly frozen: Snapshot; readonly offset: number; readonly position: KeysetPosition },
  n: number,
): Slice {
  const { frozen: snap, offset } = snapshot;
  const slice =
    mode === 'messages' ? messageSlice(db, snap, offset, n) : threadSlice(db, ctx, match, snap, offset, n);
  const tail = snap.rows[snap.rows.length - 1];
  if (slice.more || snap.complete || !tail) return slice;
  const frozen = new Set(
    mode === 'messages' ? snap.rows.map((r) => String(r.rowid)) : currentThreads(db, snap.threads ?? []),
  );
  const from = offset >= snap.rows.length ? snapshot.position : tail;
  const live = liveAfter(db, ctx, mode, match, from, n - slice.rows.length, frozen);
  return { rows: [...slice.rows, ...live.rows], more: live.more, offset: snap.rows.length };
}

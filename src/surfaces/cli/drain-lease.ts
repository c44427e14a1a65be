// One drain of the embedding and summary backlogs at a time per archive, across processes
// (serve workers, mcp, watch, embed): a lease row held while a pass runs, renewed by a heartbeat and
// taken over when its holder died. It lives in the scratch database: a commit to the archive
// would make every other connection drop its page cache.

import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Db, SCRATCH, sql } from '../../store/index.js';

/** A lease not renewed for this long is free: its holder hangs or died on another host. */
export const LEASE_STALE_MS = 60_000;
const HEARTBEAT_MS = LEASE_STALE_MS / 4;

export type Leased<T> =
  | { readonly ran: true; readonly value: T }
  /** Another holder is draining: `holder` names its host and process. */
  | { readonly ran: false; readonly holder: string };

interface LeaseRow {
  holder: string;
  host: string;
  pid: number;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function ensureLeaseTable(db: Db): void {
  db.exec(`CREATE TABLE IF NOT EXISTS ${SCRATCH}.drain_lease (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    holder TEXT NOT NULL,
    host TEXT NOT NULL,
    pid INTEGER NOT NULL,
    renewed_at INTEGER NOT NULL
  )`);
}

/** Takes or renews the lease for `me`; false while another live holder has it. */
function acquire(db: Db, me: string): boolean {
  const row = sql(db, `SELECT holder, host, pid FROM ${SCRATCH}.drain_lease WHERE id = 1`).get() as
    | LeaseRow
    | undefined;
  // A holder on this host whose process is gone (killed mid-pass) frees it at once.
  const dead = row && row.host === hostname() && !alive(row.pid) ? row.holder : '';
  // One statement, so two processes racing for a free lease cannot both win it.
  const taken = sql(
    db,
    `INSERT INTO ${SCRATCH}.drain_lease (id, holder, host, pid, renewed_at) VALUES (1, @me, @host, @pid, @now)
     ON CONFLICT (id) DO UPDATE SET holder = excluded.holder, host = excluded.host, pid = excluded.pid,
       renewed_at = excluded.renewed_at
     WHERE holder = excluded.holder OR holder = @dead OR renewed_at < @now - @stale`,
  ).run({ me, host: hostname(), pid: process.pid, now: Date.now(), dead, stale: LEASE_STALE_MS });
  return taken.changes === 1;
}

/** The current holder, as `host pid N`, for a log line. */
function holderOf(db: Db): string {
  const row = sql(db, `SELECT host, pid FROM ${SCRATCH}.drain_lease WHERE id = 1`).get() as
    | LeaseRow
    | undefined;
  return row ? `${row.host} pid ${row.pid}` : 'another process';
}

/** Runs `pass` holding the archive's drain lease, or reports who holds it; releases it after. */
export async function withDrainLease<T>(db: Db, pass: () => Promise<T>): Promise<Leased<T>> {
  ensureLeaseTable(db);
  const me = `${hostname()}:${process.pid}:${randomUUID()}`;
  if (!acquire(db, me)) return { ran: false, holder: holderOf(db) };
  // A long pass (a local model writing summaries) keeps the lease alive between its steps.
  const heartbeat = setInterval(() => {
    try {
      if (db.open) acquire(db, me);
    } catch {
      // The scratch file busy past its timeout: the next beat renews it, well before it is stale.
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();
  try {
    return { ran: true, value: await pass() };
  } finally {
    clearInterval(heartbeat);
    if (db.open) sql(db, `DELETE FROM ${SCRATCH}.drain_lease WHERE holder = ?`).run(me);
  }
}

/** How often a caller that must drain (mailsift embed) looks whether the lease is free. */
const WAIT_POLL_MS = 250;

/**
 * Runs `pass` holding the lease, waiting while another process holds it (a server's passes
 * rest between them, so the wait ends at its next rest); `onWait` hears who, once.
 */
export async function afterDrainLease<T>(
  db: Db,
  pass: () => Promise<T>,
  onWait: (holder: string) => void,
): Promise<T> {
  let told = false;
  for (;;) {
    const leased = await withDrainLease(db, pass);
    if (leased.ran) return leased.value;
    if (!told) onWait(leased.holder);
    told = true;
    await sleep(WAIT_POLL_MS);
  }
}

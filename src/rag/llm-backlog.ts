// What the background LLM tasks share (thread summaries, decisions to validate): each waits in
// a backlog table of its own (key, attempts, retry_at, error) beside the rows it rewrites, is
// retried after a failure on the same backoff, and is counted the same way for health.

import { type Db, sql } from '../store/index.js';

/** Waiting items of one backlog, and its failures. */
export interface LlmBacklog {
  readonly pending: number;
  /** Of those, the ones whose last attempt failed (each retried after its backoff). */
  readonly failing: number;
  /** The error of the failure tried last; null when none fails. */
  readonly lastError: string | null;
}

/** A backlog table, its key column, and the table of the rows it points at (with an inbox_id). */
export interface BacklogTables {
  readonly backlog: string;
  readonly key: string;
  readonly rows: string;
}

/** The backlog of one inbox, or of the whole archive. */
export function llmBacklog(db: Db, { backlog, key, rows }: BacklogTables, inbox?: string): LlmBacklog {
  const scope = (row: string, alias: string): string =>
    inbox === undefined
      ? ''
      : `JOIN inboxes ${alias} ON ${alias}.id = ${row}.inbox_id AND ${alias}.name = @inbox`;
  // The failure retried last is the newest one: backoffs only grow.
  const query = sql(
    db,
    `SELECT count(*) AS pending, count(b.error) AS failing,
       (SELECT b2.error FROM ${backlog} b2 JOIN ${rows} r2 ON r2.id = b2.${key} ${scope('r2', 'i2')}
        WHERE b2.error IS NOT NULL ORDER BY b2.retry_at DESC LIMIT 1) AS lastError
     FROM ${backlog} b JOIN ${rows} r ON r.id = b.${key} ${scope('r', 'i')}`,
  );
  return (inbox === undefined ? query.get() : query.get({ inbox })) as LlmBacklog;
}

const RETRY_BASE_MS = 60_000;
const RETRY_MAX_MS = 6 * 3600_000;

/** How long a task waits after its `attempts`-th failure: 1 min, doubling, at most 6 h. */
export const retryDelay = (attempts: number): number => Math.min(RETRY_BASE_MS * 2 ** attempts, RETRY_MAX_MS);

/** Records a failed attempt of the backlog item `id`: its error, and when to try it again. */
export function recordAttemptFailed(
  db: Db,
  { backlog, key }: BacklogTables,
  item: { readonly id: number; readonly attempts: number },
  error: string,
  now: number,
): void {
  sql(db, `UPDATE ${backlog} SET attempts = attempts + 1, retry_at = ?, error = ? WHERE ${key} = ?`).run(
    now + retryDelay(item.attempts),
    error,
    item.id,
  );
}

// Eval runs kept in the archive: one row per run (timestamp, fingerprint, summary) and one
// per question, so each run can be compared with the previous run of the same question set.

import { type Db, sql } from '../store/index.js';

export function ensureEvalTables(db: Db): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS eval_runs (
      id INTEGER PRIMARY KEY,
      -- Hash of the question file's path, its entry ids and the inbox: runs are compared
      -- only with runs of the same set against the same inbox.
      set_key TEXT NOT NULL,
      set_path TEXT NOT NULL,
      inbox TEXT,
      started_at INTEGER NOT NULL,
      fingerprint TEXT NOT NULL,
      config_json TEXT NOT NULL,
      summary_json TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS eval_runs_set ON eval_runs (set_key, id);
    CREATE TABLE IF NOT EXISTS eval_results (
      run_id INTEGER NOT NULL REFERENCES eval_runs(id) ON DELETE CASCADE,
      question_id TEXT NOT NULL,
      rank INTEGER,
      pass INTEGER NOT NULL,
      status TEXT NOT NULL,
      PRIMARY KEY (run_id, question_id)
    ) WITHOUT ROWID;
  `);
}

export interface StoredOutcome {
  readonly rank: number | null;
  readonly pass: boolean;
  readonly status: string;
}

export interface StoredRun {
  readonly id: number;
  readonly startedAt: string;
  readonly fingerprint: string;
  readonly outcomes: ReadonlyMap<string, StoredOutcome>;
}

export interface NewRun {
  readonly setKey: string;
  readonly setPath: string;
  readonly inbox: string | null;
  readonly startedAt: Date;
  readonly fingerprint: string;
  readonly config: unknown;
  readonly summary: unknown;
  readonly outcomes: ReadonlyArray<StoredOutcome & { readonly id: string }>;
}

/** The latest stored run of a question set, or null for its first run. */
export function previousRun(db: Db, setKey: string): StoredRun | null {
  const run = sql(
    db,
    'SELECT id, started_at, fingerprint FROM eval_runs WHERE set_key = ? ORDER BY id DESC LIMIT 1',
  ).get(setKey) as { id: number; started_at: number; fingerprint: string } | undefined;
  if (!run) return null;
  const rows = sql(db, 'SELECT question_id, rank, pass, status FROM eval_results WHERE run_id = ?').all(
    run.id,
  ) as Array<{ question_id: string; rank: number | null; pass: number; status: string }>;
  return {
    id: run.id,
    startedAt: new Date(run.started_at).toISOString(),
    fingerprint: run.fingerprint,
    outcomes: new Map(
      rows.map((r) => [r.question_id, { rank: r.rank, pass: r.pass === 1, status: r.status }]),
    ),
  };
}

export function saveRun(db: Db, run: NewRun): number {
  return db.transaction(() => {
    const id = Number(
      sql(
        db,
        `INSERT INTO eval_runs (set_key, set_path, inbox, started_at, fingerprint, config_json, summary_json)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        run.setKey,
        run.setPath,
        run.inbox,
        run.startedAt.getTime(),
        run.fingerprint,
        JSON.stringify(run.config),
        JSON.stringify(run.summary),
      ).lastInsertRowid,
    );
    const insert = sql(
      db,
      'INSERT INTO eval_results (run_id, question_id, rank, pass, status) VALUES (?, ?, ?, ?, ?)',
    );
    for (const o of run.outcomes) insert.run(id, o.id, o.rank, o.pass ? 1 : 0, o.status);
    return id;
  })();
}

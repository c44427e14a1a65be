// The backlogs waiting for the user's models: what an embedder reports (chunks waiting, last
// error) and an LLM's thread summaries and decisions (waiting, failing), and the samples kept in the archive
// so a backlog that keeps growing can be told from a large one.

import { type Db, sql } from '../store/index.js';

/** What the RAG layer's embedder exposes to health checks; absent until one is configured. */
export interface EmbedderProbe {
  readonly name: string;
  /** Chunks of the inbox built and queued, not yet embedded. */
  backlog(inbox: string): number;
  /** Threads of the inbox changed since their chunks were built: work not yet in backlog(). */
  threadsAwaitingChunks(inbox: string): number;
  /** The embedder's last error, or null. */
  lastError(): string | null;
}

/** What the RAG layer reports of the thread summaries waiting for the LLM; absent without one. */
export interface SummaryProbe {
  readonly name: string;
  backlog(inbox: string): {
    /** Thread summaries still extractive, waiting for the LLM. */
    readonly pending: number;
    /** Of those, the ones whose last attempt failed (each retried after its backoff). */
    readonly failing: number;
    readonly lastError: string | null;
    /** Decisions the rules found, waiting for the same LLM to validate them, failing likewise. */
    readonly decisions?: {
      readonly pending: number;
      readonly failing: number;
      readonly lastError: string | null;
    };
  };
}

/** Which backlog a sample measures: each has its own history. */
export type BacklogSeries = 'embedding' | 'summaries';
const SAMPLES: Record<BacklogSeries, string> = {
  embedding: 'health_backlog_samples',
  summaries: 'health_summary_samples',
};

/** Samples older than this are pruned: growth is judged over minutes, not days. */
const SAMPLE_RETENTION_MS = 24 * 3600 * 1000;

export function ensureHealthTables(db: Db): void {
  for (const table of Object.values(SAMPLES))
    db.exec(`
      CREATE TABLE IF NOT EXISTS ${table} (
        inbox TEXT NOT NULL,
        at INTEGER NOT NULL,
        backlog INTEGER NOT NULL,
        PRIMARY KEY (inbox, at)
      ) WITHOUT ROWID;
    `);
}

export function recordBacklogSample(
  db: Db,
  inbox: string,
  backlog: number,
  at: Date,
  series: BacklogSeries = 'embedding',
): void {
  ensureHealthTables(db);
  const table = SAMPLES[series];
  sql(db, `INSERT OR REPLACE INTO ${table} (inbox, at, backlog) VALUES (?, ?, ?)`).run(
    inbox,
    at.getTime(),
    backlog,
  );
  sql(db, `DELETE FROM ${table} WHERE inbox = ? AND at < ?`).run(inbox, at.getTime() - SAMPLE_RETENTION_MS);
}

/**
 * Seconds the backlog has grown without ever shrinking, up to `now`; 0 when it is not
 * growing. Judged from the samples: the run of non-decreasing values ending at the newest
 * sample, counted only when the newest value is above the run's first.
 */
export function backlogGrowingSeconds(
  db: Db,
  inbox: string,
  now: Date,
  series: BacklogSeries = 'embedding',
): number {
  ensureHealthTables(db);
  const samples = sql(
    db,
    `SELECT at, backlog FROM ${SAMPLES[series]} WHERE inbox = ? AND at <= ? ORDER BY at DESC`,
  ).all(inbox, now.getTime()) as Array<{ at: number; backlog: number }>;
  const newest = samples[0];
  if (!newest) return 0;
  let start = newest;
  for (const sample of samples.slice(1)) {
    if (sample.backlog > start.backlog) break;
    start = sample;
  }
  return newest.backlog > start.backlog ? (now.getTime() - start.at) / 1000 : 0;
}

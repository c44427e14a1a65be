// Pipeline health: per inbox and per source, is each stage keeping up? Each check is
// ok, warn or fail with a message; thresholds come from the caller (see thresholds.ts).

import { CLEANER_VERSION } from '../clean/index.js';
import { Mailsift } from '../engine.js';
import { checkIndex } from '../index/index.js';
import { type Db, skippedFiles, sql } from '../store/index.js';
import {
  backlogGrowingSeconds,
  type EmbedderProbe,
  recordBacklogSample,
  type SummaryProbe,
} from './backlog.js';
import type { HealthThresholds } from './thresholds.js';

export type CheckStatus = 'ok' | 'warn' | 'fail';
export type CheckName =
  | 'sync'
  | 'source_count'
  | 'unindexed'
  | 'embedding_backlog'
  | 'summary_backlog'
  | 'cleaner'
  | 'index_consistency'
  | 'ingest_failures';

export interface HealthCheck {
  readonly name: CheckName;
  readonly status: CheckStatus;
  readonly message: string;
  /** The figure the status was judged on (age in seconds, count), when there is one. */
  readonly value: number | null;
}

export interface SourceHealth {
  readonly path: string;
  readonly kind: string;
  readonly lastSyncAt: string | null;
  readonly lastSyncAgeSeconds: number | null;
  /** Messages the source held at its last run (null: never completed one). */
  readonly seenAtSource: number | null;
  readonly stored: number;
  readonly failed: number;
  /** Files its last complete run passed over as not mail (status lists them per kind). */
  readonly skipped: number;
  readonly checks: readonly HealthCheck[];
}

export interface InboxHealth {
  readonly inbox: string;
  readonly messages: number;
  readonly unindexed: number;
  /** Chunks waiting for the embedder; null: no embedder configured. */
  readonly embeddingBacklog: number | null;
  /** Changed threads whose chunks are not built (so not in embeddingBacklog) yet; null: no embedder. */
  readonly threadsAwaitingChunks: number | null;
  /** Thread summaries waiting for the LLM, and how many of those failed; null: no LLM configured. */
  readonly summaryBacklog: number | null;
  readonly summariesFailing: number | null;
  readonly failuresByReason: ReadonlyArray<{ readonly reason: string; readonly count: number }>;
  readonly checks: readonly HealthCheck[];
  readonly sources: readonly SourceHealth[];
}

export interface HealthReport {
  /** The worst status of every check. */
  readonly status: CheckStatus;
  readonly checkedAt: string;
  /** Archive-wide checks (store/index consistency). */
  readonly checks: readonly HealthCheck[];
  readonly inboxes: readonly InboxHealth[];
}

export interface HealthOptions {
  readonly embedder?: EmbedderProbe;
  /** The LLM that writes thread summaries; absent: summaries stay extractive, nothing waits. */
  readonly summaries?: SummaryProbe;
  /** false skips the store/index comparison (it reads the whole FTS index). */
  readonly consistency?: boolean;
}

const RANK: Record<CheckStatus, number> = { ok: 0, warn: 1, fail: 2 };
export const worst = (statuses: Iterable<CheckStatus>): CheckStatus => {
  let result: CheckStatus = 'ok';
  for (const s of statuses) if (RANK[s] > RANK[result]) result = s;
  return result;
};

const check = (
  name: CheckName,
  status: CheckStatus,
  message: string,
  value: number | null = null,
): HealthCheck => ({
  name,
  status,
  message,
  value,
});
const count = (db: Db, text: string, ...args: unknown[]): number =>
  (sql(db, text).get(...args) as { n: number }).n;

function age(seconds: number): string {
  if (seconds < 120) return `${Math.round(seconds)} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  if (seconds < 172_800) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86_400)} days`;
}

/** Failure reasons grouped by their first words, numbers blanked, so one cause is one line. */
export function reasonGroup(reason: string): string {
  const head = reason.split(/[:(\n]/)[0] ?? reason;
  return head.trim().split(/\s+/).slice(0, 5).join(' ').replace(/\d+/g, 'N') || '(no reason)';
}

function sourceHealth(db: Db, source: SourceRow, t: HealthThresholds, now: Date): SourceHealth {
  const stored = count(db, 'SELECT count(*) AS n FROM locations WHERE source_id = ?', source.id);
  const failed = count(db, 'SELECT count(*) AS n FROM failures WHERE source_id = ?', source.id);
  const completed = source.last_run_completed_at;
  const ageSeconds = completed === null ? null : Math.max(0, (now.getTime() - completed) / 1000);
  const sync =
    ageSeconds === null
      ? check('sync', 'fail', 'never completed a sync')
      : check(
          'sync',
          ageSeconds >= t.syncFailAfter ? 'fail' : ageSeconds >= t.syncWarnAfter ? 'warn' : 'ok',
          `last completed sync ${age(ageSeconds)} ago`,
          Math.round(ageSeconds),
        );
  const seen = completed === null ? null : source.last_seen_count;
  const skipped = skippedFiles(source.last_skipped);
  // Skipped files are expected (server indexes, sync state), but named: never silent.
  const notMail =
    skipped.length === 0
      ? ''
      : `; skipped as not mail: ${skipped.map((s) => `${s.count} ${s.kind}`).join(', ')}`;
  const counted =
    seen === null
      ? check('source_count', 'ok', 'the source has not reported a count')
      : check(
          'source_count',
          seen === stored + failed ? 'ok' : 'warn',
          `${seen} seen at the source, ${stored} stored, ${failed} failed${notMail}`,
          seen - stored - failed,
        );
  return {
    path: source.path,
    kind: source.kind,
    lastSyncAt: completed === null ? null : new Date(completed).toISOString(),
    lastSyncAgeSeconds: ageSeconds === null ? null : Math.round(ageSeconds),
    seenAtSource: seen,
    stored,
    failed,
    skipped: skipped.reduce((total, s) => total + s.count, 0),
    checks: [sync, counted],
  };
}

/** Waiting summaries judged as the embedding backlog is: size, growth, and failures. */
function summaryCheck(
  db: Db,
  inbox: string,
  probe: SummaryProbe,
  t: HealthThresholds,
  now: Date,
): { check: HealthCheck; pending: number; failing: number } {
  const backlog = probe.backlog(inbox);
  const { pending } = backlog;
  recordBacklogSample(db, inbox, pending, now, 'summaries');
  const growing = backlogGrowingSeconds(db, inbox, now, 'summaries');
  // A decision the LLM fails to validate fails as a summary does: the same LLM, the same warning.
  const decisions = backlog.decisions;
  const failing = backlog.failing + (decisions?.failing ?? 0);
  const lastError = backlog.failing > 0 ? backlog.lastError : (decisions?.lastError ?? backlog.lastError);
  const problems = [
    pending > t.summaryBacklogWarn ? `over ${t.summaryBacklogWarn}` : '',
    growing >= t.backlogGrowingFor ? `growing for ${age(growing)}` : '',
    t.summaryFailingWarn !== null && failing >= t.summaryFailingWarn && failing > 0
      ? `${failing} failing, retried with backoff; last error: ${lastError}`
      : '',
  ].filter(Boolean);
  const failures = failing > 0 && problems.length === 0 ? ` (${failing} failing, retried with backoff)` : '';
  const validating = decisions?.pending
    ? `, ${decisions.pending} decision${decisions.pending === 1 ? '' : 's'} to validate`
    : '';
  return {
    pending,
    failing,
    check: check(
      'summary_backlog',
      problems.length > 0 ? 'warn' : 'ok',
      `${pending} thread summar${pending === 1 ? 'y' : 'ies'}${validating} waiting for ${probe.name}${failures}${problems.length ? `: ${problems.join('; ')}` : ''}`,
      pending,
    ),
  };
}

/** Whether the inbox's messages were cleaned by older rules than this build's (after an upgrade). */
function cleanerCheck(inbox: { name: string; cleaner: number }): HealthCheck {
  const current = Number(CLEANER_VERSION);
  return inbox.cleaner < current
    ? check(
        'cleaner',
        'warn',
        `messages cleaned by the rules of cleaner version ${inbox.cleaner}; this build cleans with version ${current}: run \`mailsift reclean --inbox ${inbox.name}\``,
        inbox.cleaner,
      )
    : check('cleaner', 'ok', `cleaned with the current rules (version ${current})`, inbox.cleaner);
}

interface SourceRow {
  id: number;
  path: string;
  kind: string;
  last_run_completed_at: number | null;
  last_seen_count: number | null;
  last_skipped: string | null;
}

function inboxHealth(
  db: Db,
  inbox: { id: number; name: string; cleaner: number },
  t: HealthThresholds,
  now: Date,
  options: HealthOptions,
): InboxHealth {
  const messages = count(db, 'SELECT count(*) AS n FROM messages WHERE inbox_id = ?', inbox.id);
  const unindexed = count(
    db,
    `SELECT count(*) AS n FROM messages m
     WHERE m.inbox_id = ? AND NOT EXISTS (SELECT 1 FROM keyword_docs d WHERE d.rowid = m.id)`,
    inbox.id,
  );
  const unindexedStatus: CheckStatus =
    t.unindexedFail !== null && unindexed >= t.unindexedFail
      ? 'fail'
      : unindexed >= t.unindexedWarn && unindexed > 0
        ? 'warn'
        : 'ok';
  const checks = [
    check(
      'unindexed',
      unindexedStatus,
      `${unindexed} of ${messages} stored messages not in the keyword index`,
      unindexed,
    ),
    cleanerCheck(inbox),
  ];

  let embeddingBacklog: number | null = null;
  let threadsAwaitingChunks: number | null = null;
  if (!options.embedder) checks.push(check('embedding_backlog', 'ok', 'no embedder configured'));
  else {
    embeddingBacklog = options.embedder.backlog(inbox.name);
    threadsAwaitingChunks = options.embedder.threadsAwaitingChunks(inbox.name);
    // A thread awaiting chunks is at least one chunk of work: judged together, the check
    // cannot read 0 while changed threads wait to be chunked and embedded.
    const work = embeddingBacklog + threadsAwaitingChunks;
    recordBacklogSample(db, inbox.name, work, now);
    const growing = backlogGrowingSeconds(db, inbox.name, now);
    const error = options.embedder.lastError();
    const problems = [
      work > t.backlogWarn ? `over ${t.backlogWarn}` : '',
      growing >= t.backlogGrowingFor ? `growing for ${age(growing)}` : '',
      error ? `last error: ${error}` : '',
    ].filter(Boolean);
    const threads =
      threadsAwaitingChunks > 0 ? `, ${threadsAwaitingChunks} changed thread(s) not yet chunked` : '';
    checks.push(
      check(
        'embedding_backlog',
        problems.length > 0 ? 'warn' : 'ok',
        `${embeddingBacklog} chunk(s) waiting for ${options.embedder.name}${threads}${problems.length ? `: ${problems.join('; ')}` : ''}`,
        work,
      ),
    );
  }

  let summaryBacklog: number | null = null;
  let summariesFailing: number | null = null;
  if (!options.summaries) checks.push(check('summary_backlog', 'ok', 'no llm configured'));
  else {
    const summaries = summaryCheck(db, inbox.name, options.summaries, t, now);
    summaryBacklog = summaries.pending;
    summariesFailing = summaries.failing;
    checks.push(summaries.check);
  }

  const reasons = sql(
    db,
    'SELECT f.reason FROM failures f JOIN sources s ON s.id = f.source_id WHERE s.inbox_id = ?',
  )
    .pluck()
    .all(inbox.id) as string[];
  const groups = new Map<string, number>();
  for (const reason of reasons) groups.set(reasonGroup(reason), (groups.get(reasonGroup(reason)) ?? 0) + 1);
  const failuresByReason = [...groups]
    .map(([reason, n]) => ({ reason, count: n }))
    .sort((a, b) => b.count - a.count || (a.reason < b.reason ? -1 : 1));
  checks.push(
    check(
      'ingest_failures',
      t.failuresWarn !== null && reasons.length >= t.failuresWarn && reasons.length > 0 ? 'warn' : 'ok',
      reasons.length === 0
        ? 'no ingest failures'
        : `${reasons.length} failure(s): ${failuresByReason.map((g) => `${g.count}× ${g.reason}`).join('; ')}`,
      reasons.length,
    ),
  );

  const sources = (
    sql(db, 'SELECT * FROM sources WHERE inbox_id = ? ORDER BY path').all(inbox.id) as SourceRow[]
  ).map((s) => sourceHealth(db, s, t, now));
  return {
    inbox: inbox.name,
    messages,
    unindexed,
    embeddingBacklog,
    threadsAwaitingChunks,
    summaryBacklog,
    summariesFailing,
    failuresByReason,
    checks,
    sources,
  };
}

/** Missing rows are the `unindexed` check's business (with its own threshold); the rest is corruption. */
const MISSING_FROM_INDEX = 'messages missing from the index';

function consistencyCheck(db: Db): HealthCheck {
  try {
    const problems = checkIndex(db).problems.filter((p) => !p.startsWith(MISSING_FROM_INDEX));
    return problems.length === 0
      ? check('index_consistency', 'ok', 'store and keyword index agree', 0)
      : check('index_consistency', 'fail', problems.join('; '), problems.length);
  } catch (error) {
    return check('index_consistency', 'fail', `cannot check the keyword index: ${(error as Error).message}`);
  }
}

/** Runs every check. With an embedder or LLM, records backlog samples (growth needs history). */
export function checkHealth(
  target: Mailsift | Db,
  thresholds: HealthThresholds,
  now: Date = new Date(),
  options: HealthOptions = {},
): HealthReport {
  const db = target instanceof Mailsift ? target.archive.db : target;
  const inboxes = (
    sql(db, 'SELECT id, name, cleaner FROM inboxes ORDER BY name').all() as Array<{
      id: number;
      name: string;
      cleaner: number;
    }>
  ).map((inbox) => inboxHealth(db, inbox, thresholds, now, options));
  const checks = options.consistency === false ? [] : [consistencyCheck(db)];
  return {
    status: worst(eachCheck({ checks, inboxes }).map((c) => c.check.status)),
    checkedAt: now.toISOString(),
    checks,
    inboxes,
  };
}

export interface ScopedCheck {
  /** Stable identity of the check across reports: `archive/name`, `inbox/name`, `inbox/source/name`. */
  readonly key: string;
  readonly inbox: string | null;
  readonly source: string | null;
  readonly check: HealthCheck;
}

/** Every check of a report with its scope, archive-wide first. */
export function eachCheck(report: Pick<HealthReport, 'checks' | 'inboxes'>): ScopedCheck[] {
  const list: ScopedCheck[] = report.checks.map((c) => ({
    key: `archive/${c.name}`,
    inbox: null,
    source: null,
    check: c,
  }));
  for (const inbox of report.inboxes) {
    for (const c of inbox.checks)
      list.push({ key: `${inbox.inbox}/${c.name}`, inbox: inbox.inbox, source: null, check: c });
    for (const source of inbox.sources)
      for (const c of source.checks)
        list.push({
          key: `${inbox.inbox}/${source.path}/${c.name}`,
          inbox: inbox.inbox,
          source: source.path,
          check: c,
        });
  }
  return list;
}

// Archive statistics for `status`: totals and the same per inbox, plus recorded failures.

import type { SkippedFiles } from '../core/index.js';
import { type Db, sql } from './archive.js';
import { pendingExtractions } from './attachment-texts.js';

export interface InboxStats {
  readonly inbox: string;
  readonly messages: number;
  readonly threads: number;
  /** Copies seen beyond the first of each message (another folder, another source, same bytes twice). */
  readonly duplicates: number;
  /** Messages stored as variants of a reused Message-ID. */
  readonly variants: number;
  readonly failures: number;
  readonly sources: readonly SourceStats[];
}

export interface SourceStats {
  readonly path: string;
  readonly kind: string;
  readonly lastRunStartedAt: string | null;
  readonly lastRunCompletedAt: string | null;
  readonly lastSeenCount: number | null;
  /** Files the last complete run passed over as not mail, per kind. */
  readonly skipped: readonly SkippedFiles[];
  /** Why the last run over the source failed, and when; null once a run completes. */
  readonly lastError: string | null;
  readonly lastErrorAt: string | null;
  /** A server source's folders as its last complete sync saw them; empty for files. */
  readonly folders: ReadonlyArray<{ readonly folder: string; readonly messages: number }>;
}

export interface FailureRecord {
  readonly inbox: string;
  readonly source: string;
  readonly location: string;
  readonly folder: string;
  readonly reason: string;
  readonly at: string;
}

export interface ArchiveStats {
  readonly messages: number;
  readonly threads: number;
  readonly inboxes: number;
  readonly duplicates: number;
  readonly variants: number;
  readonly failures: number;
  /** Distinct attachments stored but not yet extracted (the extraction backlog). */
  readonly pendingAttachments: number;
  readonly perInbox: readonly InboxStats[];
  readonly failureList: readonly FailureRecord[];
}

/** A source's recorded `last_skipped` column; none before its first complete run under schema 8. */
export function skippedFiles(json: string | null): SkippedFiles[] {
  return json === null ? [] : (JSON.parse(json) as SkippedFiles[]);
}

const count = (db: Db, text: string, ...args: unknown[]): number =>
  (sql(db, text).get(...args) as { n: number }).n;
const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export function archiveStats(db: Db, options: { failureLimit?: number } = {}): ArchiveStats {
  const inboxes = sql(db, 'SELECT id, name FROM inboxes ORDER BY name').all() as Array<{
    id: number;
    name: string;
  }>;
  const perInbox = inboxes.map((inbox): InboxStats => {
    const messages = count(db, 'SELECT count(*) AS n FROM messages WHERE inbox_id = ?', inbox.id);
    const located = count(
      db,
      'SELECT count(*) AS n FROM locations l JOIN sources s ON s.id = l.source_id WHERE s.inbox_id = ?',
      inbox.id,
    );
    const sources = (
      sql(db, 'SELECT * FROM sources WHERE inbox_id = ? ORDER BY path').all(inbox.id) as Array<{
        id: number;
        path: string;
        kind: string;
        last_run_started_at: number | null;
        last_run_completed_at: number | null;
        last_seen_count: number | null;
        last_skipped: string | null;
        last_error: string | null;
        last_error_at: number | null;
      }>
    ).map((s) => ({
      path: s.path,
      kind: s.kind,
      lastRunStartedAt: iso(s.last_run_started_at),
      lastRunCompletedAt: iso(s.last_run_completed_at),
      lastSeenCount: s.last_seen_count,
      skipped: skippedFiles(s.last_skipped),
      lastError: s.last_error,
      lastErrorAt: iso(s.last_error_at),
      folders: sql(db, 'SELECT folder, messages FROM source_folders WHERE source_id = ? ORDER BY folder').all(
        s.id,
      ) as Array<{ folder: string; messages: number }>,
    }));
    return {
      inbox: inbox.name,
      messages,
      threads: count(db, 'SELECT count(*) AS n FROM threads WHERE inbox_id = ?', inbox.id),
      duplicates: Math.max(0, located - messages),
      variants: count(
        db,
        'SELECT count(*) AS n FROM messages WHERE inbox_id = ? AND variant_of IS NOT NULL',
        inbox.id,
      ),
      failures: count(
        db,
        'SELECT count(*) AS n FROM failures f JOIN sources s ON s.id = f.source_id WHERE s.inbox_id = ?',
        inbox.id,
      ),
      sources,
    };
  });
  const failureList = (
    sql(
      db,
      `SELECT i.name AS inbox, s.path AS source, f.key, f.folder, f.reason, f.at
       FROM failures f JOIN sources s ON s.id = f.source_id JOIN inboxes i ON i.id = s.inbox_id
       ORDER BY f.at DESC, f.id DESC LIMIT ?`,
    ).all(options.failureLimit ?? 100) as Array<{
      inbox: string;
      source: string;
      key: string;
      folder: string;
      reason: string;
      at: number;
    }>
  ).map((f) => ({
    inbox: f.inbox,
    source: f.source,
    location: f.key,
    folder: f.folder,
    reason: f.reason,
    at: new Date(f.at).toISOString(),
  }));
  const sum = (key: 'messages' | 'threads' | 'duplicates' | 'variants' | 'failures'): number =>
    perInbox.reduce((total, inbox) => total + inbox[key], 0);
  return {
    messages: sum('messages'),
    threads: sum('threads'),
    inboxes: inboxes.length,
    duplicates: sum('duplicates'),
    variants: sum('variants'),
    failures: sum('failures'),
    pendingAttachments: pendingExtractions(db),
    perInbox,
    failureList,
  };
}

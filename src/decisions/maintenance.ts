// Rebuilding the decisions table from the store (reindex), and checking that the two agree
// (check): every row says what it said when derived, links its evidence messages, and (deep)
// is what a fresh extraction of its thread finds.

import { type Db, sql } from '../store/index.js';
import { freshDecisions, syncDecisions } from './derive.js';
import { markEveryThread } from './schema.js';
import { type DecisionRow, recordHash, rulesRecord } from './table.js';

/** Derives every thread's decisions again. Decisions extracted unchanged keep their id and LLM phrasing. */
export function rebuildDecisions(db: Db): { threads: number; decisions: number } {
  db.transaction(() => {
    markEveryThread(db);
    // Threads that no longer hold a message, so that their rows go.
    db.exec(
      'INSERT OR IGNORE INTO decision_dirty_threads (inbox_id, thread_id) SELECT DISTINCT inbox_id, thread_id FROM decisions',
    );
  })();
  const threads = syncDecisions(db);
  return { threads, decisions: sql(db, 'SELECT count(*) FROM decisions').pluck().get() as number };
}

export interface DecisionCheck {
  readonly ok: boolean;
  readonly problems: string[];
}

const MAX_LISTED = 20;

/**
 * Compares the table with the store, after deriving the dirty threads as any read would.
 * `deep` extracts every thread again and compares (as slow as a rebuild, ~0.25 ms a message);
 * the default checks each row against the record it was derived as, and its links.
 */
export function checkDecisions(db: Db, options: { deep?: boolean } = {}): DecisionCheck {
  syncDecisions(db);
  const problems: string[] = [];
  const report = (label: string, ids: readonly (number | string)[]): void => {
    if (ids.length === 0) return;
    const shown = ids.slice(0, MAX_LISTED).join(', ');
    problems.push(
      `decisions: ${label}: ${ids.length} (${shown}${ids.length > MAX_LISTED ? ', …' : ''}); run reindex`,
    );
  };
  const rows = db
    .prepare(
      'SELECT d.*, i.name AS inbox FROM decisions d JOIN inboxes i ON i.id = d.inbox_id ORDER BY d.inbox_id, d.thread_id, d.ordinal',
    )
    .all() as DecisionRow[];
  report(
    'rows that differ from the record they were derived as',
    rows.filter((row) => recordHash(rulesRecord(row)) !== row.hash).map((row) => row.id),
  );
  report(
    'rows whose evidence messages are not linked',
    db
      .prepare(
        `SELECT d.id FROM decisions d, json_each(d.evidence) e
         WHERE NOT EXISTS (SELECT 1 FROM decision_messages l JOIN messages m ON m.id = l.message_rowid
                           WHERE l.decision_id = d.id AND m.inbox_id = d.inbox_id AND m.message_id = e.value ->> 'messageId')
         GROUP BY d.id ORDER BY d.id`,
      )
      .pluck()
      .all() as number[],
  );
  if (options.deep) {
    const stored = new Map<string, string[]>();
    for (const row of rows) {
      const key = `${row.inbox_id}\t${row.thread_id}`;
      stored.set(key, [...(stored.get(key) ?? []), row.hash]);
    }
    const threads = db
      .prepare(
        `SELECT DISTINCT m.inbox_id AS inboxId, i.name AS inbox, m.thread_id AS threadId
         FROM messages m JOIN inboxes i ON i.id = m.inbox_id`,
      )
      .all() as Array<{ inboxId: number; inbox: string; threadId: string }>;
    const differ: string[] = [];
    for (const { inboxId, inbox, threadId } of threads) {
      const key = `${inboxId}\t${threadId}`;
      const fresh = freshDecisions(db, { id: inboxId, name: inbox }, threadId).decisions.map(recordHash);
      if (fresh.join() !== (stored.get(key) ?? []).join()) differ.push(`${inbox}/${threadId}`);
      stored.delete(key);
    }
    report('threads whose rows differ from a fresh extraction', differ);
    report(
      'threads with rows but no messages',
      [...stored.keys()].map((k) => k.replace('\t', '/')),
    );
  }
  return { ok: problems.length === 0, problems };
}

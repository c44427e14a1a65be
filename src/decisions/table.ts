// Keeps the decisions table in step with the store. The hook runs inside the store's
// transactions and only does cheap work: it marks a changed message's thread dirty, and on
// delete removes the decisions the message is evidence of at once. syncDecisions derives
// dirty threads again later: at the end of an ingest (Mailsift.ingest) and before any read
// of the table, so a read never sees a stale row.

import { createHash } from 'node:crypto';
import { type Db, type IndexHook, loadThread, sql, threadMarking } from '../store/index.js';
import { extractDecisions } from './extract.js';
import { decisionThread } from './thread.js';
import type { DecisionRecord } from './types.js';

const marking = threadMarking('decision_dirty_threads');

export const decisionsIndexHook: IndexHook = {
  name: 'decisions',
  onInsert: marking.onInsert,
  flush: marking.flush,
  discard: marking.discard,
  onDelete(db, rowid) {
    marking.markMessage(db, rowid);
    removeDecisions(
      db,
      sql(db, 'SELECT decision_id FROM decision_messages WHERE message_rowid = ?')
        .pluck()
        .all(rowid) as number[],
    );
  },
};

/** Removes decisions with their evidence links and LLM backlog entries. */
function removeDecisions(db: Db, ids: readonly number[]): void {
  if (ids.length === 0) return;
  const json = JSON.stringify(ids);
  sql(db, 'DELETE FROM decision_messages WHERE decision_id IN (SELECT value FROM json_each(?))').run(json);
  sql(db, 'DELETE FROM decision_llm_backlog WHERE decision_id IN (SELECT value FROM json_each(?))').run(json);
  sql(db, 'DELETE FROM decisions WHERE id IN (SELECT value FROM json_each(?))').run(json);
}

/** A decisions row as read back (`SELECT d.*, i.name AS inbox`). */
export interface DecisionRow {
  readonly id: number;
  readonly inbox: string;
  readonly inbox_id: number;
  readonly thread_id: string;
  readonly ordinal: number;
  readonly hash: string;
  readonly decided_at: number;
  readonly kind: DecisionRecord['kind'];
  readonly status: DecisionRecord['status'];
  readonly superseded_by: string | null;
  readonly confidence: number;
  readonly statement: string;
  readonly evidence: string;
  readonly participants: string;
  readonly phrased: string | null;
}

/** The rules' record a row holds (its statement the rules' own, method 'rules'). */
export function rulesRecord(row: DecisionRow): DecisionRecord {
  return {
    inbox: row.inbox,
    threadId: row.thread_id,
    statement: row.statement,
    kind: row.kind,
    evidence: JSON.parse(row.evidence),
    participants: JSON.parse(row.participants),
    decidedAt: new Date(row.decided_at),
    confidence: row.confidence,
    status: row.status,
    supersededBy: row.superseded_by,
    method: 'rules',
  };
}

/** The decision a row says: the LLM's phrasing when it validated the record. */
export function decisionOf(row: DecisionRow): DecisionRecord {
  const rules = rulesRecord(row);
  return row.phrased === null ? rules : { ...rules, statement: row.phrased, method: 'llm' };
}

/** Identifies a rules' record by everything it says (its inbox is the row's). */
export function recordHash(record: DecisionRecord): string {
  const { inbox: _inbox, method: _method, decidedAt, ...said } = record;
  return createHash('sha256')
    .update(JSON.stringify({ ...said, decidedAt: decidedAt.getTime() }))
    .digest('hex')
    .slice(0, 32);
}

/** A thread's rules' records, extracted now from what the store holds. */
export function freshDecisions(
  db: Db,
  inbox: { readonly id: number; readonly name: string },
  threadId: string,
): { decisions: DecisionRecord[]; rowidOf: Map<string, number> } {
  const entries = loadThread(db, inbox.id, threadId);
  return {
    decisions: extractDecisions(decisionThread(inbox.name, threadId, entries)),
    rowidOf: new Map(entries.map((e) => [e.message.messageId, e.message.rowid])),
  };
}

const ROWS_OF_THREAD = `SELECT d.*, i.name AS inbox FROM decisions d JOIN inboxes i ON i.id = d.inbox_id
  WHERE d.inbox_id = ? AND d.thread_id = ? ORDER BY d.ordinal`;

/** The stored rows of one thread, in the extractor's order. */
export function threadRows(db: Db, inboxId: number, threadId: string): DecisionRow[] {
  return sql(db, ROWS_OF_THREAD).all(inboxId, threadId) as DecisionRow[];
}

/**
 * Derives one thread's decisions again. A stored decision whose record (recomputed from its
 * row, so an altered row does not pass) is extracted again keeps its id and LLM phrasing; new
 * ones are inserted and queued for the LLM; the rest are removed.
 */
function deriveThread(db: Db, inbox: { id: number; name: string }, threadId: string): void {
  const { decisions, rowidOf } = freshDecisions(db, inbox, threadId);
  const kept = new Map(threadRows(db, inbox.id, threadId).map((row) => [recordHash(rulesRecord(row)), row]));
  const insert = sql(
    db,
    `INSERT INTO decisions (inbox_id, thread_id, ordinal, hash, decided_at, kind, status, superseded_by,
       confidence, statement, evidence, participants)
     VALUES (@inbox, @thread, @ordinal, @hash, @decidedAt, @kind, @status, @supersededBy, @confidence,
       @statement, @evidence, @participants)`,
  );
  const link = sql(db, 'INSERT OR IGNORE INTO decision_messages (message_rowid, decision_id) VALUES (?, ?)');
  const enqueue = sql(db, 'INSERT OR IGNORE INTO decision_llm_backlog (decision_id) VALUES (?)');
  const reorder = sql(db, 'UPDATE decisions SET ordinal = ?, hash = ? WHERE id = ?');
  decisions.forEach((record, ordinal) => {
    const hash = recordHash(record);
    const row = kept.get(hash);
    if (row) {
      kept.delete(hash);
      if (row.ordinal !== ordinal || row.hash !== hash) reorder.run(ordinal, hash, row.id);
      return;
    }
    const id = Number(
      insert.run({
        inbox: inbox.id,
        thread: threadId,
        ordinal,
        hash,
        decidedAt: record.decidedAt.getTime(),
        kind: record.kind,
        status: record.status,
        supersededBy: record.supersededBy,
        confidence: record.confidence,
        statement: record.statement,
        evidence: JSON.stringify(record.evidence),
        participants: JSON.stringify(record.participants),
      }).lastInsertRowid,
    );
    for (const e of record.evidence) {
      const rowid = rowidOf.get(e.messageId);
      if (rowid !== undefined) link.run(rowid, id);
    }
    enqueue.run(id);
  });
  removeDecisions(
    db,
    [...kept.values()].map((row) => row.id),
  );
}

export interface DecisionSyncOptions {
  /** Only these threads, when dirty (a read derives what it is about to read). Default: every dirty thread. */
  readonly threads?: ReadonlyArray<{ readonly inboxId: number; readonly threadId: string }>;
  /** Only the dirty threads of this inbox. */
  readonly inboxId?: number;
}

/** Threads derived per transaction: a reader waits for one batch at most. */
const SYNC_BATCH = 200;

/** Derives the dirty threads again (all, one inbox's, or `threads`), a batch per transaction. Returns how many. */
export function syncDecisions(db: Db, options: DecisionSyncOptions = {}): number {
  const select = `SELECT d.inbox_id AS inboxId, d.thread_id AS threadId, i.name AS inbox
    FROM decision_dirty_threads d JOIN inboxes i ON i.id = d.inbox_id`;
  const next =
    options.threads !== undefined
      ? sql(
          db,
          `${select} JOIN json_each(@threads) t
           ON d.inbox_id = t.value ->> '$.inboxId' AND d.thread_id = t.value ->> '$.threadId' LIMIT @n`,
        )
      : options.inboxId !== undefined
        ? sql(db, `${select} WHERE d.inbox_id = @inbox LIMIT @n`)
        : sql(db, `${select} LIMIT @n`);
  const binds = {
    n: SYNC_BATCH,
    ...(options.threads === undefined ? {} : { threads: JSON.stringify(options.threads) }),
    ...(options.inboxId === undefined ? {} : { inbox: options.inboxId }),
  };
  const done = sql(db, 'DELETE FROM decision_dirty_threads WHERE inbox_id = ? AND thread_id = ?');
  let derived = 0;
  // Read first, outside a transaction: a read finding nothing dirty takes no write lock.
  while (next.all(binds).length > 0) {
    // IMMEDIATE: two server workers reading the same dirty thread would otherwise both read,
    // then fail to upgrade to the write lock (SQLITE_BUSY, no wait).
    derived += db
      .transaction(() => {
        const rows = next.all(binds) as Array<{ inboxId: number; threadId: string; inbox: string }>;
        for (const { inboxId, threadId, inbox } of rows) {
          deriveThread(db, { id: inboxId, name: inbox }, threadId);
          done.run(inboxId, threadId);
        }
        return rows.length;
      })
      .immediate();
  }
  return derived;
}

// The decisions table's rows and its store hook. The hook runs inside the store's
// transactions and only does cheap work: it marks a changed message's thread dirty, and on
// delete removes the decisions the message is evidence of at once. derive.ts derives dirty
// threads again later; this module loads without the extractor, for every process that opens
// the engine.

import { nodeCrypto } from '../core/node-crypto.js';
import { type Db, type IndexHook, sql, threadMarking } from '../store/index.js';
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
export function removeDecisions(db: Db, ids: readonly number[]): void {
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
  return nodeCrypto()
    .createHash('sha256')
    .update(JSON.stringify({ ...said, decidedAt: decidedAt.getTime() }))
    .digest('hex')
    .slice(0, 32);
}

const ROWS_OF_THREAD = `SELECT d.*, i.name AS inbox FROM decisions d JOIN inboxes i ON i.id = d.inbox_id
  WHERE d.inbox_id = ? AND d.thread_id = ? ORDER BY d.ordinal`;

/** The stored rows of one thread, in the extractor's order. */
export function threadRows(db: Db, inboxId: number, threadId: string): DecisionRow[] {
  return sql(db, ROWS_OF_THREAD).all(inboxId, threadId) as DecisionRow[];
}

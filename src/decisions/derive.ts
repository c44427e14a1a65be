// Derives the decisions of dirty threads again (table.ts marks them): at the end of an ingest
// (Mailsift.ingest) and before any read of the table (archive.ts), so a read never sees a
// stale row. A decision whose record did not change keeps its row.

import { type Db, loadThread, sql } from '../store/index.js';
import { extractDecisions } from './extract.js';
import { recordHash, removeDecisions, rulesRecord, threadRows } from './table.js';
import { decisionThread } from './thread.js';
import type { DecisionRecord } from './types.js';

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

/**
 * Derives one thread's decisions again. A stored decision whose record (recomputed from its
 * row, so an altered row does not pass) is extracted again keeps its id and LLM phrasing; new
 * ones are inserted and queued for the LLM; the rest are removed.
 */
function deriveThread(db: Db, inbox: { id: number; name: string }, threadId: string): void {
  // A decision is a reply settling another message: a thread of one message (most threads:
  // 3,544 of the 5,643 threads of bench:ingest's 10k synthetic messages) has none, and is not
  // read at all: deriving after that ingest took 14.5 s, 21% of it, and now 3.6 s, 5.8% (load ~9).
  const messages = sql(db, 'SELECT message_count FROM threads WHERE inbox_id = ? AND id = ?')
    .pluck()
    .get(inbox.id, threadId) as number | undefined;
  const { decisions, rowidOf } =
    (messages ?? 0) < 2
      ? { decisions: [], rowidOf: new Map<string, number>() }
      : freshDecisions(db, inbox, threadId);
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

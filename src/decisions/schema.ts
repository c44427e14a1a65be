// The decisions table and its companions, created idempotently beside the store's schema as
// the keyword and RAG layers create theirs: the table is derived from the store and owned by
// this module, which the store does not know.

import { type Db, threadMovedTrigger } from '../store/index.js';

const CREATE = `
  CREATE TABLE IF NOT EXISTS decisions (
    id INTEGER PRIMARY KEY,
    inbox_id INTEGER NOT NULL,
    thread_id TEXT NOT NULL,
    -- Position in the extractor's output for the thread (supersession order, retrieval's ties).
    ordinal INTEGER NOT NULL,
    -- Of the rules' record as extracted: a re-derived thread keeps the id (and the LLM's
    -- phrasing) of every decision whose record did not change; check compares it with the row.
    hash TEXT NOT NULL,
    decided_at INTEGER NOT NULL,
    kind TEXT NOT NULL,
    status TEXT NOT NULL,
    superseded_by TEXT,
    confidence REAL NOT NULL,
    statement TEXT NOT NULL,       -- the rules' statement
    evidence TEXT NOT NULL,        -- JSON DecisionEvidence[]
    participants TEXT NOT NULL,    -- JSON string[]
    phrased TEXT                   -- the LLM's statement once it validated the record (method 'llm')
  );
  CREATE INDEX IF NOT EXISTS decisions_thread ON decisions (inbox_id, thread_id, ordinal);
  CREATE INDEX IF NOT EXISTS decisions_decided ON decisions (inbox_id, decided_at, id);
  -- Each decision's evidence messages: a deleted message takes its decisions with it at once.
  CREATE TABLE IF NOT EXISTS decision_messages (
    message_rowid INTEGER NOT NULL,
    decision_id INTEGER NOT NULL,
    PRIMARY KEY (message_rowid, decision_id)
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS decision_messages_decision ON decision_messages (decision_id);
  -- Threads whose decisions must be derived again: written by the store hook, drained by syncDecisions.
  CREATE TABLE IF NOT EXISTS decision_dirty_threads (
    inbox_id INTEGER NOT NULL,
    thread_id TEXT NOT NULL,
    PRIMARY KEY (inbox_id, thread_id)
  ) WITHOUT ROWID;
  -- Decisions the configured LLM has not validated yet; a failed attempt keeps its error and
  -- waits until retry_at (ms since epoch), as the summary backlog does.
  CREATE TABLE IF NOT EXISTS decision_llm_backlog (
    decision_id INTEGER PRIMARY KEY,
    attempts INTEGER NOT NULL DEFAULT 0,
    retry_at INTEGER NOT NULL DEFAULT 0,
    error TEXT
  );
  ${threadMovedTrigger('decisions_thread_moved', 'decision_dirty_threads')}
`;

/**
 * Creates the decision tables when missing. An archive that already holds messages when they
 * are first created gets every thread marked dirty: the first read derives them all.
 */
export function ensureDecisionTables(db: Db): void {
  db.transaction(() => {
    const existed = db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'decisions'").get() !== undefined;
    db.exec(CREATE);
    if (!existed) markEveryThread(db);
  })();
}

/** Marks every stored thread dirty (a new table, reindex). */
export function markEveryThread(db: Db): void {
  db.exec(
    'INSERT OR IGNORE INTO decision_dirty_threads (inbox_id, thread_id) SELECT DISTINCT inbox_id, thread_id FROM messages',
  );
}

// The RAG layer's own tables (chunks, their message links, the embedding backlog, dirty
// threads, meta) and the sqlite-vec extension, created idempotently beside the store's schema.

import * as sqliteVec from 'sqlite-vec';
import { MailsiftError } from '../core/errors.js';
import { type Db, threadMovedTrigger } from '../store/index.js';
import { upgradeVectorTable } from './vectors.js';

const CREATE = `
  CREATE TABLE IF NOT EXISTS rag_chunks (
    id INTEGER PRIMARY KEY,
    inbox_id INTEGER NOT NULL,
    thread_id TEXT NOT NULL,
    kind TEXT NOT NULL,            -- 'summary' | 'detail' | 'attachment'
    hash TEXT NOT NULL,            -- of kind + built text: an unchanged chunk keeps its id and vector
                                   -- (an LLM-written summary keeps its extractive draft's hash)
    text TEXT NOT NULL,
    tokens INTEGER NOT NULL,
    meta TEXT NOT NULL             -- JSON ChunkMeta
  );
  CREATE INDEX IF NOT EXISTS rag_chunks_thread ON rag_chunks (inbox_id, thread_id);
  CREATE TABLE IF NOT EXISTS rag_chunk_messages (
    chunk_id INTEGER NOT NULL,
    message_rowid INTEGER NOT NULL,
    PRIMARY KEY (message_rowid, chunk_id)
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS rag_chunk_messages_chunk ON rag_chunk_messages (chunk_id);
  -- Chunks waiting for an embedding: persistent, so a restart or a dead embedder loses nothing.
  CREATE TABLE IF NOT EXISTS embedding_backlog (chunk_id INTEGER PRIMARY KEY);
  -- Summary chunks still extractive, waiting for the configured LLM to write them; a failed
  -- attempt keeps its error and waits until retry_at (ms since epoch).
  CREATE TABLE IF NOT EXISTS rag_summary_backlog (
    chunk_id INTEGER PRIMARY KEY,
    attempts INTEGER NOT NULL DEFAULT 0,
    retry_at INTEGER NOT NULL DEFAULT 0,
    error TEXT
  );
  -- Threads whose chunks must be rebuilt: written by the store hook (cheap), drained by syncChunks.
  CREATE TABLE IF NOT EXISTS rag_dirty_threads (
    inbox_id INTEGER NOT NULL,
    thread_id TEXT NOT NULL,
    PRIMARY KEY (inbox_id, thread_id)
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS rag_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  -- An embedded chunk's density (hubness.ts): measured when the chunk is embedded (or, for one
  -- embedded before densities were, when a question first meets it), dropped with its vector.
  CREATE TABLE IF NOT EXISTS rag_chunk_density (chunk_id INTEGER PRIMARY KEY, density REAL NOT NULL);
`;
/** Thread merges move messages between threads: both threads' chunks are rebuilt. */
const THREAD_MOVED = threadMovedTrigger('rag_thread_moved', 'rag_dirty_threads');

const loaded = new WeakSet<Db>();

/** Loads sqlite-vec into this connection (once). */
export function loadVectorExtension(db: Db): void {
  if (loaded.has(db)) return;
  try {
    sqliteVec.load(db);
  } catch (error) {
    throw new MailsiftError('internal', `cannot load sqlite-vec: ${(error as Error).message}`, {
      param: 'sqlite-vec',
      cause: error,
    });
  }
  loaded.add(db);
}

/**
 * Creates the RAG tables when missing. An archive that already holds messages when they are
 * first created gets every thread marked dirty, so the first sync chunks the whole archive;
 * one chunked before the summary backlog existed gets its summaries queued for the LLM; a
 * vector table of an older layout is rebuilt from its own vectors.
 */
export function ensureRagTables(db: Db): void {
  loadVectorExtension(db);
  db.transaction(() => {
    const exists = (name: string): boolean =>
      db.prepare('SELECT 1 FROM sqlite_schema WHERE name = ?').get(name) !== undefined;
    const existed = exists('rag_chunks');
    const summariesQueued = exists('rag_summary_backlog');
    db.exec(CREATE);
    db.exec(THREAD_MOVED);
    if (!existed)
      db.exec('INSERT OR IGNORE INTO rag_dirty_threads SELECT DISTINCT inbox_id, thread_id FROM messages');
    else if (!summariesQueued)
      db.exec(
        "INSERT OR IGNORE INTO rag_summary_backlog (chunk_id) SELECT id FROM rag_chunks WHERE kind = 'summary'",
      );
    upgradeVectorTable(db);
  })();
}

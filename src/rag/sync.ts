// Rebuilds the chunks of the threads the store hook (hook.ts) marked dirty: all before
// embedding, a question's top threads before retrieval, so ingest never pays for chunking a
// long thread per message.

import { createHash } from 'node:crypto';
import { type Db, loadThread, sql } from '../store/index.js';
import { buildThreadChunks, type ChunkOptions } from './chunk.js';
import { adoptChunking, chunkingOf } from './chunking.js';
import { removeChunks } from './hook.js';

const hashOf = (kind: string, text: string): string =>
  createHash('sha256').update(kind).update('\0').update(text).digest('hex').slice(0, 32);

/**
 * Rebuilds one thread's chunks. Chunks whose kind and text are unchanged keep their id and
 * vector (and take the current tokenizer's count); new ones go to the embedding backlog, a new
 * (extractive) summary also to the LLM's summary backlog; gone ones are removed with their vectors.
 */
function rebuildThread(db: Db, inboxId: number, threadId: string, options: ChunkOptions): number {
  const entries = loadThread(db, inboxId, threadId);
  const drafts = buildThreadChunks(entries, options);
  // An LLM-written summary keeps its draft's hash but not its text: its count is its own.
  const existing = sql(
    db,
    `SELECT c.id, c.hash, c.tokens, c.kind = 'summary' AND b.chunk_id IS NULL AS rewritten
     FROM rag_chunks c LEFT JOIN rag_summary_backlog b ON b.chunk_id = c.id
     WHERE c.inbox_id = ? AND c.thread_id = ?`,
  ).all(inboxId, threadId) as Array<{ id: number; hash: string; tokens: number; rewritten: number }>;
  const byHash = new Map(existing.map((r) => [r.hash, r]));
  const recount = sql(db, 'UPDATE rag_chunks SET tokens = ? WHERE id = ?');
  const insert = sql(
    db,
    'INSERT INTO rag_chunks (inbox_id, thread_id, kind, hash, text, tokens, meta) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const link = sql(db, 'INSERT OR IGNORE INTO rag_chunk_messages (chunk_id, message_rowid) VALUES (?, ?)');
  const enqueue = sql(db, 'INSERT OR IGNORE INTO embedding_backlog (chunk_id) VALUES (?)');
  const awaitLlm = sql(db, 'INSERT OR IGNORE INTO rag_summary_backlog (chunk_id) VALUES (?)');
  let added = 0;
  for (const draft of drafts) {
    const hash = hashOf(draft.kind, draft.text);
    const kept = byHash.get(hash);
    if (kept) {
      byHash.delete(hash);
      // Same text, counted by another tokenizer (a re-chunk after the embedder changed).
      if (kept.tokens !== draft.tokens && !kept.rewritten) recount.run(draft.tokens, kept.id);
      continue;
    }
    const id = Number(
      insert.run(inboxId, threadId, draft.kind, hash, draft.text, draft.tokens, JSON.stringify(draft.meta))
        .lastInsertRowid,
    );
    for (const rowid of draft.messageRowids) link.run(id, rowid);
    enqueue.run(id);
    if (draft.kind === 'summary') awaitLlm.run(id);
    added++;
  }
  removeChunks(
    db,
    [...byHash.values()].map((r) => r.id),
  );
  return added;
}

export interface SyncReport {
  readonly threads: number;
  readonly chunksAdded: number;
}

export interface SyncOptions extends ChunkOptions {
  /**
   * Only these threads (those that are dirty): a question rebuilds what it is about to read,
   * not every thread a fresh ingest left dirty. Default: every dirty thread.
   */
  readonly threads?: ReadonlyArray<{ readonly inboxId: number; readonly threadId: string }>;
  /**
   * Rebuild at most this many threads (default: all), so a caller that shares its event loop
   * (a server draining in the background) can chunk a large backlog in slices.
   */
  readonly limit?: number;
  /**
   * Record these options as the archive's chunking, re-chunking every thread when they differ
   * (default). A caller without an embedder passes false (see recordedChunkOptions).
   */
  readonly adopt?: boolean;
}

/**
 * Rebuilds the chunks of dirty threads (all, or `options.threads`), a few per transaction.
 * Chunk options other than those recorded with the archive's chunks first mark every chunked
 * thread dirty (adoptChunking): pass chunkOptionsFor(embedder), as every caller does.
 */
export function syncChunks(db: Db, options: SyncOptions = {}): SyncReport {
  const { threads: only, limit = Number.POSITIVE_INFINITY, adopt = true, ...chunkOptions } = options;
  if (adopt) adoptChunking(db, chunkingOf(chunkOptions));
  let threads = 0;
  let chunksAdded = 0;
  const next =
    only === undefined
      ? sql(db, 'SELECT inbox_id AS inboxId, thread_id AS threadId FROM rag_dirty_threads LIMIT @n')
      : sql(
          db,
          `SELECT d.inbox_id AS inboxId, d.thread_id AS threadId FROM rag_dirty_threads d
           JOIN json_each(@threads) t ON d.inbox_id = t.value ->> '$.inboxId' AND d.thread_id = t.value ->> '$.threadId'
           LIMIT @n`,
        );
  const done = sql(db, 'DELETE FROM rag_dirty_threads WHERE inbox_id = ? AND thread_id = ?');
  while (threads < limit) {
    const n = Math.min(200, limit - threads);
    const binds = only === undefined ? { n } : { n, threads: JSON.stringify(only) };
    const batch = next.all(binds) as Array<{ inboxId: number; threadId: string }>;
    if (batch.length === 0) break;
    db.transaction(() => {
      for (const { inboxId, threadId } of batch) {
        chunksAdded += rebuildThread(db, inboxId, threadId, chunkOptions);
        done.run(inboxId, threadId);
        threads++;
      }
    })();
  }
  return { threads, chunksAdded };
}

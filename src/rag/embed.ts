// Drains the embedding backlog: chunks not yet embedded, oldest first, in batches. The
// embedder is awaited outside any transaction; each batch's vectors are stored and its
// backlog rows cleared in one transaction, skipping chunks deleted meanwhile.

import { describeError } from '../core/errors.js';
import type { Mailsift } from '../engine.js';
import type { EmbedderProbe } from '../health/index.js';
import { sql } from '../store/index.js';
import { chunkOptionsFor } from './chunking.js';
import { unlessAborted } from './deadline.js';
import type { Embedder } from './embedder.js';
import { measureDensities } from './hubness.js';
import { getRagMeta, setRagMeta } from './meta.js';
import { syncChunks } from './sync.js';
import { prepareVectorTable, storeVectors, vectorModel } from './vectors.js';

export interface EmbedOptions {
  /** Chunks per embedder call; default 64. */
  readonly batch?: number;
  /** Stop after this many chunks (default: the whole backlog). */
  readonly max?: number;
  readonly onProgress?: (embedded: number, remaining: number) => void;
  /** Stops the pass: no batch starts after it aborts, and the one in flight is dropped, not stored. */
  readonly signal?: AbortSignal;
}

export interface EmbedReport {
  readonly embedded: number;
  readonly remaining: number;
  /** True when a new model or dimension dropped the old vectors and re-queued every chunk. */
  readonly reset: boolean;
  /** Why draining stopped early; the backlog keeps what was not embedded. */
  readonly error?: string;
}

interface PendingChunk {
  id: number;
  inboxId: number;
  kind: string;
  text: string;
  meta: string;
}

/** Work the embedder has not done yet, in two parts because a thread's chunks are built lazily. */
export interface EmbeddingBacklog {
  /** Chunks built and queued, not yet embedded. */
  readonly pendingChunks: number;
  /**
   * Threads changed (new, grown, shrunk) since their chunks were last built: their new chunks
   * are not queued yet, so pendingChunks alone can read 0 while work remains.
   */
  readonly threadsAwaitingChunks: number;
}

/** The backlog of one inbox, or of the whole archive. */
export function backlogSize(engine: Mailsift, inbox?: string): EmbeddingBacklog {
  const db = engine.archive.db;
  const count = (from: string, alias: string): number => {
    const scope = inbox === undefined ? '' : `JOIN inboxes i ON i.id = ${alias}.inbox_id WHERE i.name = ?`;
    const query = sql(db, `SELECT count(*) AS n FROM ${from} ${scope}`);
    return ((inbox === undefined ? query.get() : query.get(inbox)) as { n: number }).n;
  };
  return {
    pendingChunks: count('embedding_backlog b JOIN rag_chunks c ON c.id = b.chunk_id', 'c'),
    threadsAwaitingChunks: count('rag_dirty_threads d', 'd'),
  };
}

export async function embedPending(
  engine: Mailsift,
  embedder: Embedder,
  options: EmbedOptions = {},
): Promise<EmbedReport> {
  const db = engine.archive.db;
  syncChunks(db, chunkOptionsFor(embedder));
  const batch = Math.max(1, options.batch ?? 64);
  const pending = sql(
    db,
    `SELECT c.id, c.inbox_id AS inboxId, c.kind, c.text, c.meta FROM embedding_backlog b
     JOIN rag_chunks c ON c.id = b.chunk_id ORDER BY b.chunk_id LIMIT ?`,
  );
  const alive = sql(db, 'SELECT 1 FROM rag_chunks WHERE id = ?');
  const done = sql(db, 'DELETE FROM embedding_backlog WHERE chunk_id = ?');
  const current = vectorModel(db);
  // Another model: queue every chunk now; its first batch then replaces the vector table.
  if (current !== null && current.model !== embedder.id)
    db.exec('INSERT OR IGNORE INTO embedding_backlog SELECT id FROM rag_chunks');
  let embedded = 0;
  let reset = false;
  let checked = false;
  while ((options.max === undefined || embedded < options.max) && !options.signal?.aborted) {
    const size = options.max === undefined ? batch : Math.min(batch, options.max - embedded);
    const chunks = pending.all(size) as PendingChunk[];
    if (chunks.length === 0) break;
    let vectors: Float32Array[];
    try {
      vectors = await unlessAborted(
        embedder.embed(
          chunks.map((c) => c.text),
          'passage',
          options.signal,
        ),
        options.signal,
      );
    } catch (error) {
      if (options.signal?.aborted) break;
      setRagMeta(db, 'last_error', describeError(error));
      return { embedded, remaining: backlogSize(engine).pendingChunks, reset, error: describeError(error) };
    }
    if (!checked) {
      checked = true;
      if (prepareVectorTable(db, embedder.id, (vectors[0] as Float32Array).length)) {
        // Every chunk is queued again for the new model; this batch's vectors are of it already.
        reset = true;
      }
    }
    db.transaction(() => {
      const rows = chunks.flatMap((c, i) => {
        if (alive.get(c.id) === undefined) return [];
        const meta = JSON.parse(c.meta) as { dateTo: number; hasAttachment: boolean };
        return [
          {
            chunkId: c.id,
            inboxId: c.inboxId,
            kind: c.kind,
            date: meta.dateTo,
            hasAttachment: meta.hasAttachment,
            embedding: vectors[i] as Float32Array,
          },
        ];
      });
      storeVectors(db, rows);
      for (const c of chunks) done.run(c.id);
    })();
    measureDensities(
      db,
      chunks.map((c) => c.id),
    );
    embedded += chunks.length;
    options.onProgress?.(embedded, backlogSize(engine).pendingChunks);
  }
  // A pass stopped before its first batch has not seen the embedder answer: its last error stands.
  if (embedded > 0 || !options.signal?.aborted)
    sql(db, "DELETE FROM rag_meta WHERE key = 'last_error'").run();
  return { embedded, remaining: backlogSize(engine).pendingChunks, reset };
}

/** The health checks' view of an embedder: its backlog per inbox and the last failure. */
export function embedderProbe(engine: Mailsift, embedder: Embedder): EmbedderProbe {
  return {
    name: embedder.id,
    backlog: (inbox) => backlogSize(engine, inbox).pendingChunks,
    threadsAwaitingChunks: (inbox) => backlogSize(engine, inbox).threadsAwaitingChunks,
    lastError: () => getRagMeta(engine.archive.db, 'last_error') ?? null,
  };
}

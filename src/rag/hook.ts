// Keeps chunks in step with the store. The hook runs inside the store's transactions and
// only does cheap work: it marks the message's thread dirty, and on delete removes the
// message's chunks and vectors at once; sync.ts rebuilds dirty threads later. Apart from the
// chunker, so that opening the engine (every search) loads neither it nor the cleaner.

import { type Db, type IndexHook, sql, threadMarking } from '../store/index.js';
import { deleteVectors } from './vectors.js';

const marking = threadMarking('rag_dirty_threads');

/** Removes chunks with their links, backlog entries (embedding, summary) and vectors. */
export function removeChunks(db: Db, chunkIds: readonly number[]): void {
  if (chunkIds.length === 0) return;
  const json = JSON.stringify(chunkIds);
  sql(db, 'DELETE FROM rag_chunk_messages WHERE chunk_id IN (SELECT value FROM json_each(?))').run(json);
  sql(db, 'DELETE FROM embedding_backlog WHERE chunk_id IN (SELECT value FROM json_each(?))').run(json);
  sql(db, 'DELETE FROM rag_summary_backlog WHERE chunk_id IN (SELECT value FROM json_each(?))').run(json);
  sql(db, 'DELETE FROM rag_chunks WHERE id IN (SELECT value FROM json_each(?))').run(json);
  deleteVectors(db, chunkIds);
}

export const ragIndexHook: IndexHook = {
  name: 'rag',
  onInsert: marking.onInsert,
  flush: marking.flush,
  discard: marking.discard,
  onDelete(db, rowid) {
    marking.markMessage(db, rowid);
    const ids = (
      sql(db, 'SELECT chunk_id FROM rag_chunk_messages WHERE message_rowid = ?').all(rowid) as Array<{
        chunk_id: number;
      }>
    ).map((r) => r.chunk_id);
    removeChunks(db, ids);
  },
};

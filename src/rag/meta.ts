// The RAG layer's key-value facts in rag_meta (created by schema.ts): the embedding model and
// dimensions the vectors were made with, and the embedder's last failure.

import { type Db, sql } from '../store/index.js';

export function getRagMeta(db: Db, key: string): string | undefined {
  return (sql(db, 'SELECT value FROM rag_meta WHERE key = ?').get(key) as { value: string } | undefined)
    ?.value;
}

export function setRagMeta(db: Db, key: string, value: string): void {
  sql(db, 'INSERT OR REPLACE INTO rag_meta (key, value) VALUES (?, ?)').run(key, value);
}

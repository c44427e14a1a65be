// The RAG retriever behind `mailsift eval` question entries: hybrid with an embedder,
// keyword question mode without one.

import type { Mailsift } from '../engine.js';
import type { Retriever } from '../eval/index.js';
import type { Embedder } from './embedder.js';
import { retrieve } from './retrieve.js';

export function ragRetriever(engine: Mailsift, embedder?: Embedder): Retriever {
  return {
    name: embedder ? `rag:${embedder.id}` : 'rag:keyword',
    async retrieve(text, { inbox, limit }) {
      const result = await retrieve(engine, text, {
        limit: Math.min(50, limit),
        ...(inbox === undefined ? {} : { inbox }),
        ...(embedder ? { embedder } : { mode: 'keyword' as const }),
      });
      return {
        messageIds: result.messages.slice(0, limit).map((m) => m.messageId),
        threadIds: result.threads.map((t) => t.threadId),
      };
    },
  };
}

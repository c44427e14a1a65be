// The seam between the eval runner and whatever answers a question: agent search today,
// the RAG retriever once it exists. A retriever returns ranked ids, best first.

import type { Mailsift } from '../engine.js';

export interface RetrieveOptions {
  readonly inbox?: string;
  /** How many ranked ids to return at most (the runner asks for more than it scores, for mustNotFind). */
  readonly limit: number;
}

export interface Retrieved {
  /** Message-IDs, best first. */
  readonly messageIds: readonly string[];
  /** Thread ids, best first, each once. */
  readonly threadIds: readonly string[];
}

export interface Retriever {
  /** Part of the configuration fingerprint: a different retriever is a different configuration. */
  readonly name: string;
  retrieve(text: string, options: RetrieveOptions): Retrieved | Promise<Retrieved>;
}

/**
 * Agent search called with the text as its query string. Every query token is required,
 * so a question in words often finds nothing: that is a miss, reported as one.
 */
export function keywordRetriever(engine: Mailsift): Retriever {
  return {
    name: 'keyword',
    retrieve(text, { inbox, limit }) {
      const params = { q: text, limit, ...(inbox === undefined ? {} : { inbox }) };
      return {
        messageIds: engine.searchMessages(params).messages.map((m) => m.messageId),
        threadIds: engine.searchThreads(params).threads.map((t) => t.threadId),
      };
    },
  };
}

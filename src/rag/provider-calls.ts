// The user's providers with every call passed through a wrapper (a deadline, a wait for a
// quiet moment), keeping what the pipeline reads of them: the embedder's id, tokenizer and
// chunk size (vectors and chunks depend on them) and each call's purpose and signal.

import type { ChatModel } from './chat.js';
import type { Embedder } from './embedder.js';

export interface Providers {
  readonly embedder?: Embedder | undefined;
  readonly llm?: ChatModel | undefined;
}

/** Runs `call` (one embedder or LLM call) its own way; `what` names the provider in errors. */
export type CallWrapper = <T>(
  call: () => Promise<T>,
  what: 'the embedder' | 'the llm',
  signal: AbortSignal | undefined,
) => Promise<T>;

export function wrapProviderCalls(
  { embedder, llm }: Providers,
  wrap: CallWrapper,
): { embedder?: Embedder; llm?: ChatModel } {
  return {
    ...(embedder
      ? {
          embedder: {
            // Every field but the call itself, so a wrapped embedder chunks as the user's does.
            ...embedder,
            embed: (texts, purpose, signal) =>
              wrap(() => embedder.embed(texts, purpose, signal), 'the embedder', signal),
          },
        }
      : {}),
    ...(llm
      ? {
          llm: {
            id: llm.id,
            complete: (messages, signal, shape) =>
              wrap(() => llm.complete(messages, signal, shape), 'the llm', signal),
          },
        }
      : {}),
  };
}

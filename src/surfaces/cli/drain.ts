// One pass over the work that waits for the user's models, shared by `mailsift embed`, each
// `mailsift watch` cycle and the servers' background drain: embed the backlog, then have the
// LLM write due thread summaries, then embed those, then have the LLM validate the decisions
// the rules found. What fails or is left over stays queued.

import type { Mailsift } from '../../engine.js';
import type { BacklogDrain } from '../../health/index.js';
import {
  type ChatModel,
  chunkOptionsFor,
  type Embedder,
  embedPending,
  summarizePending,
  validatePending,
} from '../../rag/index.js';

export interface DrainProviders {
  readonly embedder?: Embedder | undefined;
  readonly llm?: ChatModel | undefined;
}

export interface DrainLimits {
  /** Chunks per embedder request. */
  readonly batch?: number;
  /** Chunks embedded per embedding step (default: the whole backlog). */
  readonly maxChunks?: number;
  /** Summaries attempted per pass, and as many decisions validated (default: every due one). */
  readonly maxSummaries?: number;
}

export interface DrainOptions extends DrainLimits {
  /** Ends the pass early: no provider call starts after it aborts, the one in flight is dropped. */
  readonly signal?: AbortSignal;
}

/** Does not close the LLM: `embed` closes it after its one pass, `watch` and the servers when they stop. */
export async function drainBacklogs(
  engine: Mailsift,
  { embedder, llm }: DrainProviders,
  limits: DrainOptions = {},
): Promise<BacklogDrain> {
  const signal = limits.signal ? { signal: limits.signal } : {};
  const embed = (embedder: Embedder) =>
    embedPending(engine, embedder, {
      ...(limits.batch ? { batch: limits.batch } : {}),
      ...(limits.maxChunks ? { max: limits.maxChunks } : {}),
      ...signal,
    });
  // Vectors first: summaries are slow with a local model, and retrieval works without them.
  let embedding = embedder ? await embed(embedder) : undefined;
  // A cluster's k-NN index gets them next (its outbox keeps what it does not accept).
  if (embedding && embedding.embedded > 0) await engine.feedCluster();
  const capped = limits.maxChunks !== undefined && (embedding?.remaining ?? 0) > 0;
  if (!llm || embedding?.error || capped || limits.signal?.aborted) return embedding ? { embedding } : {};
  const summaries = await summarizePending(engine, llm, {
    chunking: chunkOptionsFor(embedder),
    ...(limits.maxSummaries ? { max: limits.maxSummaries } : {}),
    ...signal,
  });
  if (embedder && summaries.written > 0) embedding = await embed(embedder);
  if (summaries.error || limits.signal?.aborted) return { ...(embedding ? { embedding } : {}), summaries };
  const decisions = await validatePending(engine, llm, {
    ...(limits.maxSummaries ? { max: limits.maxSummaries } : {}),
    ...signal,
  });
  return { ...(embedding ? { embedding } : {}), summaries, decisions };
}

/** The pass as `mailsift embed` prints it, one line per configured model. */
export function drainLines({ embedding, summaries, decisions, busy }: BacklogDrain): string[] {
  return [
    ...(busy ? [`not drained: ${busy} is embedding and summarising this archive`] : []),
    ...(embedding
      ? [
          `embedded ${embedding.embedded} chunks, ${embedding.remaining} pending${embedding.reset ? ' (new model: re-embedding everything)' : ''}${embedding.error ? `; stopped: ${embedding.error}` : ''}`,
        ]
      : []),
    ...(summaries
      ? [
          `wrote ${summaries.written} thread summaries with the LLM, ${summaries.remaining} waiting${summaries.error ? `; stopped: ${summaries.error}` : ''}`,
        ]
      : []),
    ...(decisions
      ? [
          `validated ${decisions.accepted} decisions with the LLM (${decisions.rejected} rejected, kept as the rules found them), ${decisions.remaining} waiting${decisions.error ? `; stopped: ${decisions.error}` : ''}`,
        ]
      : []),
  ];
}

// The user's embedder and LLM as a request uses them: every call is bounded by a deadline,
// so a provider that hangs degrades the reply (keyword-only retrieval, extractive answer)
// instead of holding the request open through the provider's own timeouts and retries.

import {
  type ChatModel,
  type Embedder,
  type RetrieveOptions,
  type VectorSearch,
  withinDeadline,
  wrapProviderCalls,
} from '../../rag/index.js';
import type { Db } from '../../store/index.js';

export interface ProviderDeadlines {
  /** Embedding one question: a local model answers in milliseconds, a remote one in a second. */
  readonly embedMs: number;
  /** One chat completion: a local 7B model writes a cited paragraph in well under a minute. */
  readonly llmMs: number;
}

export const PROVIDER_DEADLINES: ProviderDeadlines = { embedMs: 10_000, llmMs: 60_000 };

export interface RagProviders {
  /** Absent: retrieval is keyword-only and says so. */
  readonly embedder?: Embedder;
  /** Absent: answers are extractive. */
  readonly llm?: ChatModel;
  /**
   * The LLM that refines questions (filters, rephrasings) before retrieval, under retrieval's
   * own deadline; absent: the rules' filters only.
   */
  readonly refiner?: ChatModel;
  /** Where the vector leg searches an archive: absent, the archive's own vector index. */
  readonly vectors?: (db: Db) => VectorSearch;
  readonly deadlines?: Partial<ProviderDeadlines>;
}

/** The providers' part of a question's retrieval options, for the archive `db`. */
export function questionProviders(
  { embedder, refiner, vectors }: Pick<RagProviders, 'embedder' | 'refiner' | 'vectors'>,
  db: Db,
): Pick<RetrieveOptions, 'embedder' | 'refiner' | 'vectors'> {
  return {
    ...(embedder ? { embedder } : {}),
    ...(refiner ? { refiner } : {}),
    ...(vectors ? { vectors: vectors(db) } : {}),
  };
}

/** The providers with each call bounded; the embedder keeps its id and tokenizer (vectors and chunks depend on them). */
export function boundedProviders(providers: RagProviders): {
  embedder?: Embedder;
  llm?: ChatModel;
  refiner?: ChatModel;
  vectors?: (db: Db) => VectorSearch;
} {
  const deadlines = { ...PROVIDER_DEADLINES, ...providers.deadlines };
  const bounded = wrapProviderCalls(providers, (call, what) =>
    withinDeadline(call(), what === 'the embedder' ? deadlines.embedMs : deadlines.llmMs, what),
  );
  return {
    ...bounded,
    ...(providers.refiner ? { refiner: providers.refiner } : {}),
    ...(providers.vectors ? { vectors: providers.vectors } : {}),
  };
}

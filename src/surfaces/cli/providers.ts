// The user's model providers as the CLI surfaces see them: read from mailsift.config.json
// and MAILSIFT_* variables, handed to the engine as objects.

import { backendKind, openSearchTarget } from '../../backend/opensearch/config.js';
import { clusterVectors } from '../../backend/opensearch/knn-search.js';
import type { Mailsift } from '../../engine.js';
import type { SummaryProbe } from '../../health/index.js';
// Not the rag barrel: status reads the configuration without loading retrieval.
import { createChatModel, createEmbedder, loadProviderConfig, questionRefiner } from '../../rag/config.js';
import type { ChatModel, Embedder } from '../../rag/index.js';
import { summaryProbe } from '../../rag/summarize.js';
import type { Db } from '../../store/index.js';
import type { RagProviders } from '../http/index.js';

export { questionProviders } from '../http/rag-providers.js';

export function configuredEmbedder(): Embedder | undefined {
  const { embedder } = loadProviderConfig();
  return embedder ? createEmbedder(embedder) : undefined;
}

export function configuredLlm(): ChatModel | undefined {
  const { llm } = loadProviderConfig();
  return llm ? createChatModel(llm) : undefined;
}

/** The health probe of the configured LLM's summary backlog; none without an LLM. */
export function configuredSummaryProbe(engine: Mailsift): SummaryProbe | undefined {
  const llm = configuredLlm();
  return llm ? summaryProbe(engine, llm) : undefined;
}

/**
 * The configured embedder and LLM, for the surfaces that retrieve and answer; the LLM is also
 * the refiner of questions unless its config turns that off (questionRefiner). On the
 * OpenSearch backend (MAILSIFT_BACKEND=opensearch) the vector leg searches the cluster's
 * k-NN index, which the archive feeds.
 */
export function configuredProviders(): RagProviders {
  const { embedder, llm: config } = loadProviderConfig();
  const llm = config && createChatModel(config);
  const refiner = config && llm && questionRefiner(config, llm);
  return {
    ...(embedder ? { embedder: createEmbedder(embedder) } : {}),
    ...(llm ? { llm } : {}),
    ...(refiner ? { refiner } : {}),
    ...(backendKind() === 'opensearch'
      ? { vectors: (db: Db) => clusterVectors(db, openSearchTarget()) }
      : {}),
  };
}

// Retrieval for RAG: thread-aware chunks and summaries kept in step with the store,
// embedders and the sqlite-vec index, hybrid keyword + vector retrieval, cited answers.

export { type Answer, type AskOptions, ask, buildPrompt, type Citation, promptMailIds } from './answer.js';
export { type ChatMessage, type ChatModel, type OpenAiChatOptions, openAiChat } from './chat.js';
export {
  buildThreadChunks,
  CHUNK_DEFAULTS,
  type ChunkDraft,
  type ChunkKind,
  type ChunkMeta,
  type ChunkOptions,
  type ChunkSize,
} from './chunk.js';
export {
  type Chunking,
  type ChunkingStatus,
  type ChunkSizeSettings,
  chunkingStatus,
  chunkOptionsFor,
  MAX_CHUNK_TOKENS,
  MIN_CHUNK_TOKENS,
  withChunkSize,
} from './chunking.js';
export {
  type ConfigSources,
  createChatModel,
  createEmbedder,
  type EmbedderConfig,
  type LlmConfig,
  loadProviderConfig,
  type ProviderConfig,
  questionRefiner,
} from './config.js';
export { withinDeadline } from './deadline.js';
export {
  type DecisionBacklog,
  decisionBacklog,
  type ValidateOptions,
  type ValidateReport,
  validatePending,
} from './decision-validate.js';
export { backlogSize, type EmbedOptions, type EmbedReport, embedderProbe, embedPending } from './embed.js';
export { type Embedder, type EmbedPurpose, type OpenAiEmbedderOptions, openAiEmbedder } from './embedder.js';
export { ragRetriever } from './eval-retriever.js';
export { extractFilters, type QuestionFilters } from './filters.js';
export { ragIndexHook } from './hook.js';
export {
  GGUF_FILE,
  LOCAL_CHAT_MODEL,
  type LocalChatModel,
  type LocalChatOptions,
  localChat,
  resolveGguf,
} from './local-chat.js';
export { defaultModelDir, type OnnxEmbedderOptions, onnxEmbedder } from './onnx-embedder.js';
export { type CallWrapper, type Providers, wrapProviderCalls } from './provider-calls.js';
export { type EndpointOptions, ProviderError } from './provider-http.js';
export {
  MAX_QUESTION_CHARS,
  type Passage,
  type RetrievalMode,
  type RetrievalResult,
  type RetrievalTrace,
  type RetrieveOptions,
  retrieve,
} from './retrieve.js';
export { ensureRagTables } from './schema.js';
export {
  buildSummaryPrompt,
  type SummarizeOptions,
  type SummarizeReport,
  type SummaryBacklog,
  summarizePending,
  summaryBacklog,
  summaryProbe,
} from './summarize.js';
export { extractiveSummary } from './summary.js';
export { type SyncReport, syncChunks } from './sync.js';
export { approximateTokens, splitText, type TokenCounter } from './tokens.js';
export type { DetailScan } from './vector-leg.js';
export { archiveVectors, type VectorHit, type VectorSearch } from './vector-search.js';
export { vectorModel } from './vectors.js';

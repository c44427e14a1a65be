// Agent search: relevance search (messages, threads) and filtered lists over the archive.

export type { HighlightField, Highlights } from './highlights.js';
export type { AttachmentSummary, Explanation, MessageHit, MessageItem, ThreadHit } from './hits.js';
export { keepDecodedHits } from './hits-cache.js';
export { type ListResult, listMessages } from './list.js';
export { type GroupMatch, groupAlternatives, quote } from './match.js';
export {
  ATTACHMENT_FORMATS,
  DEFAULT_LIMIT,
  DEFAULT_RECENCY,
  LIST_PARAMS,
  type ListParams,
  MAX_LIMIT,
  MAX_QUERY_CHARS,
  type ParamSpec,
  type ParamSpecs,
  SEARCH_PARAMS,
  SEARCH_REQUIRED,
  type SearchParams,
} from './params.js';
export { clearRankCache } from './rank-cache.js';
export { rankThreadUse, startRankThread, stopRankThread } from './rank-thread.js';
export { BULK_FACTOR, COLUMN_WEIGHTS } from './ranked-query.js';
export {
  FUZZY_BUDGET_MS,
  type MessageSearchResult,
  searchMessages,
  searchThreads,
  type ThreadSearchResult,
} from './search.js';
export { shareRankedHeads } from './shared-heads.js';
export { warmUpSearch } from './warm-up.js';

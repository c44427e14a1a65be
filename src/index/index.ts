// The keyword index: FTS5 over pre-analysed fields and our own postings, kept in step with
// the store by a hook.

export {
  ATTACHMENT_INDEX_CHARS,
  type FieldTexts,
  fieldTexts,
  formatAddress,
  isUntrusted,
} from './document.js';
export { indexMessage, keywordIndexHook, precomputeKeywordDocument, unindexMessage } from './hook.js';
export { type CheckReport, checkIndex, type ReindexProgress, reindex } from './maintenance.js';
export {
  appendRenumbered,
  type ColumnWeights,
  countInColumns,
  type DocTable,
  FLAG_BULK,
  FLAG_UNTRUSTED,
  liveCount,
} from './postings-codec.js';
export {
  openPostings,
  type PostingRow,
  type PostingsView,
  readMaskCounts,
  readPostingRows,
  type Segment,
} from './postings-reader.js';
export { isWholeToken } from './postings-tokens.js';
export { type PrefixHits, sumExpansions } from './prefix-sums.js';
export {
  assertIndexReady,
  BULK_KIND,
  COLUMNS,
  type Column,
  EXACT_TEXT_COLUMNS,
  EXCLUDED_LABELS,
  EXCLUDED_LABELS_SQL,
  ensureKeywordIndex,
  FAMILIES,
  type Family,
  familyOf,
  IDENTIFIER_COLUMNS,
  INDEX_VERSION,
  indexedLanguages,
  indexSecret,
  KEYWORD_TOKENIZER,
} from './schema.js';
export {
  type BlobCursor,
  BM25_K1,
  type ListCursor,
  loadedBytes,
  type ScoreSink,
  type SegmentArrays,
  scoreKernel,
} from './score-kernel.js';

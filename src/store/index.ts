export {
  type Archive,
  type Db,
  type IndexHook,
  type InsertedMessage,
  openArchive,
  SCRATCH,
  sql,
} from './archive.js';
export {
  extractionsOfFormat,
  hasExtraction,
  loadExtraction,
  pendingExtractionHashes,
  pendingExtractions,
  type StoredExtraction,
  saveExtraction,
} from './attachment-texts.js';
export { writeBriefly } from './brief-write.js';
export {
  type ClusterFeed,
  clusterFeed,
  finishFullCopy,
  type OutboxEntry,
  outboxDepth,
  outboxHead,
  removeFromOutbox,
  startFeeding,
} from './cluster-feed.js';
export { type ThreadMarking, threadMarking, threadMovedTrigger } from './dirty-threads.js';
export { labelForFolder, mergeLabels } from './labels.js';
export {
  findMessage,
  inboxByName,
  loadMessage,
  loadMessages,
  loadRaw,
  loadRawDeflated,
  loadThread,
  normalizeIdArgument,
  resolveThreadId,
  type ThreadEntry,
  type ThreadNode,
  type ThreadView,
  threadEntries,
  threadPath,
} from './message-reader.js';
export {
  type Inbox,
  type LocationInput,
  MessageStore,
  type StoreOutcome,
  syntheticMessageId,
} from './message-store.js';
export type { AttachmentMeta, PreparedMessage, StoredAttachment, StoredMessage } from './records.js';
export { checkSenders, rebuildSenders } from './senders.js';
export {
  type ArchiveStats,
  archiveStats,
  type FailureRecord,
  type InboxStats,
  type SourceStats,
  skippedFiles,
} from './stats.js';

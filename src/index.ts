// The library API of mailsift.
export * from './core/index.js';
export { Mailsift, type ThreadView } from './engine.js';
export type { IngestOptions, IngestProgress, IngestReport } from './pipeline/ingest.js';
export type { ArchiveStats, StoredMessage } from './store/index.js';

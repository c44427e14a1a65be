// The facade every surface calls. The engine reads no configuration and prints
// nothing: surfaces resolve --db, environment and config, then call these methods.
// What only writing or answering needs (parsing, cleaning, extraction, retrieval and its
// models) is imported by the async methods that use it, so a process that opens the engine
// to search or read pays for none of it.

import type { OutboxDrain } from './backend/opensearch/outbox.js';
import type { VectorDrain } from './backend/opensearch/vectors.js';
import { MailsiftError } from './core/errors.js';
import { ensureDecisionTables } from './decisions/schema.js';
import { decisionsIndexHook } from './decisions/table.js';
import { ensureKeywordIndex, keywordIndexHook } from './index/index.js';
import type { AttachmentContent } from './pipeline/attachment-content.js';
import type { ExtractPendingOptions, ExtractPendingReport } from './pipeline/extract-pending.js';
import type { IngestOptions, IngestReport } from './pipeline/ingest.js';
import type { RecleanOptions, RecleanReport } from './pipeline/reclean.js';
import type { ReextractReport } from './pipeline/reextract.js';
import { ragIndexHook } from './rag/hook.js';
import type { Answer, AskOptions, RetrievalResult, RetrieveOptions } from './rag/index.js';
import { ensureRagTables } from './rag/schema.js';
import {
  type ListParams,
  type ListResult,
  listMessages,
  type MessageSearchResult,
  type SearchParams,
  searchMessages,
  searchThreads,
  type ThreadSearchResult,
} from './search/index.js';
import {
  type Archive,
  type ArchiveStats,
  archiveStats,
  clusterFeed,
  findMessage,
  inboxByName,
  loadRaw,
  loadThread,
  normalizeIdArgument,
  openArchive,
  resolveThreadId,
  type StoredMessage,
  type ThreadView,
} from './store/index.js';

export type { ThreadView } from './store/index.js';

/** What a drain sent to the cluster: messages, and the chunk vectors of its k-NN index. */
export type ClusterDrain = OutboxDrain & { readonly vectors?: VectorDrain };

export class Mailsift {
  private constructor(readonly archive: Archive) {}

  /** Opens (creating if needed) an archive with its keyword index, RAG chunks and decisions kept in step with the store. */
  static open(path: string): Mailsift {
    const archive = openArchive(path);
    try {
      ensureKeywordIndex(archive.db);
      ensureRagTables(archive.db);
      ensureDecisionTables(archive.db);
    } catch (error) {
      archive.close();
      throw error;
    }
    archive.hooks.push(keywordIndexHook, ragIndexHook, decisionsIndexHook);
    return new Mailsift(archive);
  }

  /**
   * Ingests, then sends what changed to the cluster the archive feeds, if any (`cluster`):
   * the archive has committed by then, so a cluster that is down leaves the changes queued.
   */
  async ingest(
    paths: readonly string[],
    options: IngestOptions = {},
  ): Promise<IngestReport & { readonly cluster?: ClusterDrain }> {
    const { ingest } = await import('./pipeline/ingest.js');
    const { syncDecisions } = await import('./decisions/derive.js');
    const report = await ingest(this.archive, paths, options);
    // The threads the run changed, derived once at its end rather than per message.
    syncDecisions(this.archive.db);
    const cluster = await this.feedCluster();
    return cluster ? { ...report, cluster } : report;
  }

  /**
   * Sends the outboxes to the cluster the archive feeds, messages then chunk vectors;
   * undefined when it feeds none. Called after ingest and after each embedding pass.
   */
  async feedCluster(): Promise<ClusterDrain | undefined> {
    const db = this.archive.db;
    if (!clusterFeed(db)) return undefined;
    const [{ drainOutbox }, { drainVectorOutbox }] = await Promise.all([
      import('./backend/opensearch/outbox.js'),
      import('./backend/opensearch/vectors.js'),
    ]);
    const messages = (await drainOutbox(db)) as OutboxDrain;
    const vectors = await drainVectorOutbox(db);
    return vectors ? { ...messages, vectors } : messages;
  }

  searchMessages(params: SearchParams): MessageSearchResult {
    return searchMessages(this.archive.db, params);
  }

  searchThreads(params: SearchParams): ThreadSearchResult {
    return searchThreads(this.archive.db, params);
  }

  /** Hybrid retrieval for RAG: a context pack of cited passages (keyword-only without an embedder). */
  async retrieve(question: string, options: RetrieveOptions = {}): Promise<RetrievalResult> {
    const { retrieve } = await import('./rag/retrieve.js');
    return retrieve(this, question, options);
  }

  /** An answer with citations: from the LLM when one is given, else extractive. */
  async ask(question: string, options: AskOptions = {}): Promise<Answer> {
    const { ask } = await import('./rag/answer.js');
    return ask(this, question, options);
  }

  listMessages(params: ListParams): ListResult {
    return listMessages(this.archive.db, params);
  }

  status(): ArchiveStats {
    return archiveStats(this.archive.db);
  }

  /** A message by Message-ID (angle brackets optional). */
  getMessage(id: string, options: { inbox?: string } = {}): StoredMessage {
    const inboxId = options.inbox === undefined ? undefined : inboxByName(this.archive.db, options.inbox).id;
    const message = findMessage(this.archive.db, id, inboxId);
    if (!message)
      throw new MailsiftError('no_such_item', `no message with id '${normalizeIdArgument(id)}'`, {
        param: 'messageId',
      });
    return message;
  }

  /** An attachment of a message by 0-based ordinal or filename, with its bytes and extracted text. */
  async getAttachment(
    id: string,
    which: string | number,
    options: { inbox?: string } = {},
  ): Promise<AttachmentContent> {
    const message = this.getMessage(id, options);
    const { findAttachment, loadAttachmentContent } = await import('./pipeline/attachment-content.js');
    return loadAttachmentContent(this.archive.db, message, findAttachment(message, which));
  }

  /** Extracts the attachments stored without text yet (ingest with extractAttachments: false). */
  async extractPending(options: ExtractPendingOptions = {}): Promise<ExtractPendingReport> {
    const { extractPending } = await import('./pipeline/extract-pending.js');
    return extractPending(this.archive, options);
  }

  /** Extracts the text of every stored attachment of one format again and re-indexes its messages. */
  async reextract(
    format: string,
    options: { onProgress?: (done: number, total: number) => void } = {},
  ): Promise<ReextractReport> {
    const { reextract } = await import('./pipeline/reextract.js');
    return reextract(this.archive, format, options);
  }

  /** Cleans the stored messages again with the current rules (after an upgrade), re-indexing those that changed. */
  async reclean(options: RecleanOptions = {}): Promise<RecleanReport> {
    const { reclean } = await import('./pipeline/reclean.js');
    return reclean(this.archive, options);
  }

  getRaw(id: string, options: { inbox?: string } = {}): Buffer {
    return loadRaw(this.archive.db, this.getMessage(id, options).rowid);
  }

  /** A thread by thread id (old ids of merged threads still resolve) or by the Message-ID of one of its messages. */
  getThread(id: string, options: { inbox?: string } = {}): ThreadView {
    const db = this.archive.db;
    const inboxes =
      options.inbox === undefined
        ? (db.prepare('SELECT id, name FROM inboxes ORDER BY name').all() as Array<{
            id: number;
            name: string;
          }>)
        : [inboxByName(db, options.inbox)];
    for (const inbox of inboxes) {
      const threadId = resolveThreadId(db, inbox.id, id.trim());
      if (threadId) return { inbox: inbox.name, threadId, entries: loadThread(db, inbox.id, threadId) };
    }
    const message = findMessage(db, id, options.inbox === undefined ? undefined : inboxes[0]?.id);
    if (message) {
      return {
        inbox: message.inbox,
        threadId: message.threadId,
        entries: loadThread(db, message.inboxId, message.threadId),
      };
    }
    throw new MailsiftError('no_such_item', `no thread or message with id '${id}'`, { param: 'threadId' });
  }

  close(): void {
    this.archive.close();
  }
}

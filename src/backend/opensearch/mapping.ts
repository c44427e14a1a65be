// The OpenSearch index: its settings and mappings, and the document a stored message
// becomes. The searchable fields are the keyword index's own columns, analysed by our
// analyzers before they are sent (exact words, language stems, folding, the compounds of
// tied runs: what `src/analysis` does, token for token), so both backends match the same
// messages for the same query. OpenSearch adds what the postings do at query time: every
// identifier token's prefixes (edge n-grams at index time, a whole-token lookup at query
// time), and it stores what results are built from (the result item, the highlight texts)
// and what the read commands answer from (the stored message, its thread path, its original
// bytes), so a reader host needs no archive file.

import { createHash } from 'node:crypto';
import { MAX_TOKEN_LENGTH, MIN_PREFIX_LENGTH } from '../../analysis/index.js';
import { analyseDocument, fieldTexts } from '../../index/document.js';
import type { FieldTexts } from '../../index/index.js';
import { COLUMNS, type Column, IDENTIFIER_COLUMNS } from '../../index/index.js';
import { messageItem } from '../../search/hits.js';
import type { MessageItem } from '../../search/index.js';
import type { StoredMessage, ThreadNode } from '../../store/index.js';

/** Columns OpenSearch indexes: `kind` is a flag there (`bulk`), not text. */
export const SEARCH_COLUMNS = COLUMNS.filter((c): c is Exclude<Column, 'kind'> => c !== 'kind');

/** The sub-field of an identifier column holding its tokens' prefixes. */
export const PREFIX_FIELD = 'prefix';

export interface IndexOptions {
  readonly shards?: number;
  readonly replicas?: number;
}

/** What a message is stored as. `uid` doubles as the unique sort tiebreaker (`_id` is not sortable). */
export interface MessageDocument extends Record<Exclude<Column, 'kind'>, string> {
  readonly uid: string;
  readonly inbox: string;
  readonly messageId: string;
  readonly threadId: string;
  /** Inbox + thread id: thread mode collapses on it (thread ids are per inbox). */
  readonly threadKey: string;
  /** Epoch milliseconds. */
  readonly date: number;
  readonly labels: readonly string[];
  readonly bulk: boolean;
  readonly untrusted: boolean;
  readonly hasAttachment: boolean;
  readonly language: string | null;
  /** The result item as the SQLite backend builds it; stored, not indexed. */
  readonly item: MessageItem;
  /** The original field texts highlights are cut from; stored, not indexed. */
  readonly texts: FieldTexts;
  /**
   * The stored message `show`, `thread` and `attachment` read (cleaned parts, labels,
   * attachments' metadata and text) as JSON text, not indexed: an object would come back from
   * a filtered `_source` with its keys reordered, and `show --json` prints them in the
   * archive's order.
   */
  readonly message: string;
  /** The path from the message's thread node to its root: the union over a thread places every message (`threadEntries`). */
  readonly threadPath: readonly ThreadNode[];
  /** Former ids of the message's thread (merged into it): they still find it, as on SQLite. */
  readonly threadAliases: readonly string[];
  /** The original RFC 5322 bytes, raw-deflated as the archive keeps them, base64 (OpenSearch's binary type: neither indexed nor in doc values). */
  readonly raw: string;
  /**
   * When the archive first stored the message (epoch milliseconds; a label change keeps it):
   * the pages of a search leave out what arrived after its first page, as SQLite's watermark does.
   */
  readonly arrived: number;
}

/** What a document holds beyond the message itself, read from the archive by the writer. */
export interface ArchiveParts {
  readonly rawDeflated: Buffer;
  readonly threadPath: readonly ThreadNode[];
  readonly threadAliases: readonly string[];
  /** The archive's `ingested_at`. */
  readonly ingestedAt: number;
}

/**
 * Document id: inbox + Message-ID, so writing a message again replaces it (idempotent
 * writes, resumable syncs). Hashed: a Message-ID may exceed `_id`'s 512 bytes.
 */
export function documentId(inbox: string, messageId: string): string {
  return createHash('sha256').update(inbox).update('\u0000').update(messageId).digest('base64url');
}

export function toDocument(message: StoredMessage, parts: ArchiveParts): MessageDocument {
  const analysed = analyseDocument(message);
  const { kind: _kind, ...columns } = analysed.columns;
  return {
    ...columns,
    uid: documentId(message.inbox, message.messageId),
    inbox: message.inbox,
    messageId: message.messageId,
    threadId: message.threadId,
    threadKey: `${message.inbox}\u0000${message.threadId}`,
    date: message.date.getTime(),
    labels: message.labels,
    bulk: analysed.bulk,
    untrusted: analysed.untrusted,
    hasAttachment: message.attachments.some((a) => !a.inline),
    language: analysed.language,
    item: messageItem(message),
    texts: fieldTexts(message),
    message: JSON.stringify(message),
    threadPath: parts.threadPath,
    threadAliases: parts.threadAliases,
    raw: parts.rawDeflated.toString('base64'),
    arrived: parts.ingestedAt,
  };
}

/** The stored message of a document's `message` field. */
export function fromRecord(record: string): StoredMessage {
  const message = JSON.parse(record) as Omit<StoredMessage, 'date'> & { date: string };
  return { ...message, date: new Date(message.date) };
}

const keyword = { type: 'keyword' } as const;

/**
 * Fields added after the first release of the index (what the read commands answer from, the
 * arrival time): `ensureIndex` puts them into an existing index's mapping (adding fields is
 * allowed). Documents written before lack them until the next `reindex`.
 */
export const ADDED_FIELDS = {
  message: { type: 'text', index: false },
  threadPath: { type: 'object', enabled: false },
  threadAliases: keyword,
  raw: { type: 'binary' },
  arrived: { type: 'date', format: 'epoch_millis' },
} as const;

/** Settings and mappings of a new index. */
export function indexBody(options: IndexOptions = {}): unknown {
  const columns: Record<string, unknown> = {};
  for (const column of SEARCH_COLUMNS) {
    // Pre-analysed tokens separated by spaces: whitespace is all OpenSearch must split on.
    columns[column] = IDENTIFIER_COLUMNS.includes(column)
      ? {
          type: 'text',
          analyzer: 'tokens',
          fields: {
            [PREFIX_FIELD]: { type: 'text', analyzer: 'token_prefixes', search_analyzer: 'tokens' },
          },
        }
      : { type: 'text', analyzer: 'tokens' };
  }
  return {
    settings: {
      number_of_shards: options.shards ?? 3,
      number_of_replicas: options.replicas ?? 1,
      analysis: {
        filter: {
          // A query part of MIN_PREFIX_LENGTH or more matches identifier tokens starting
          // with it; tokens are cut at MAX_TOKEN_LENGTH by our analyzers already.
          prefixes: { type: 'edge_ngram', min_gram: MIN_PREFIX_LENGTH, max_gram: MAX_TOKEN_LENGTH },
        },
        analyzer: {
          tokens: { type: 'custom', tokenizer: 'whitespace' },
          token_prefixes: { type: 'custom', tokenizer: 'whitespace', filter: ['prefixes'] },
        },
      },
    },
    mappings: {
      dynamic: 'strict',
      properties: {
        ...columns,
        uid: keyword,
        inbox: keyword,
        messageId: keyword,
        threadId: keyword,
        threadKey: keyword,
        date: { type: 'date', format: 'epoch_millis' },
        labels: keyword,
        bulk: { type: 'boolean' },
        untrusted: { type: 'boolean' },
        hasAttachment: { type: 'boolean' },
        language: keyword,
        item: { type: 'object', enabled: false },
        texts: { type: 'object', enabled: false },
        ...ADDED_FIELDS,
        generation: keyword,
      },
    },
  };
}

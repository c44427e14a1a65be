// The read commands answered from the cluster: a message, its original bytes, its thread and
// an attachment, as the archive's readers return them (src/store/message-reader.ts,
// src/pipeline/attachment-content.ts), from what each document stores beside its search
// fields (the stored message, its thread path, its raw-deflated bytes). Lookups are filters
// on keyword fields; every answer is checked for missing shards like a search, since a
// message on a lost shard would otherwise read as "no such message".

import { inflateRawSync } from 'node:zlib';
import { MailsiftError } from '../../core/errors.js';
import {
  type AttachmentContent,
  attachmentFromRaw,
  findAttachment,
} from '../../pipeline/attachment-content.js';
import {
  normalizeIdArgument,
  type StoredMessage,
  type ThreadNode,
  type ThreadView,
  threadEntries,
} from '../../store/index.js';
import { assertComplete, type ShardSummary } from './client.js';
import { fromRecord } from './mapping.js';
import type { OpenSearchTarget } from './search.js';

export interface ReadOptions {
  /** Look only in this inbox. */
  readonly inbox?: string;
}

interface StoredSource {
  readonly inbox: string;
  readonly messageId: string;
  readonly threadId: string;
  readonly message: string;
  readonly threadPath: readonly ThreadNode[];
}

/** What a lookup reads of a document: its keys and the stored message (never the raw bytes). */
const STORED_SOURCE = ['inbox', 'messageId', 'threadId', 'message', 'threadPath'];

interface Hit<S> {
  readonly _id: string;
  readonly _source: S;
  readonly sort?: readonly unknown[];
}

interface SearchResponse<S> {
  readonly timed_out: boolean;
  readonly _shards: ShardSummary;
  readonly hits: { readonly hits: readonly Hit<S>[] };
}

/** Documents read per request when a thread is loaded whole. */
const THREAD_PAGE = 1000;

type Clause = Record<string, unknown>;

async function search<S>(target: OpenSearchTarget, body: Clause): Promise<readonly Hit<S>[]> {
  const response = await target.client.request<SearchResponse<S>>(
    'POST',
    `/${target.index}/_search?allow_partial_search_results=false`,
    body,
  );
  assertComplete(response);
  return response.hits.hits;
}

const inboxFilter = (options: ReadOptions): Clause[] =>
  options.inbox === undefined ? [] : [{ term: { inbox: options.inbox } }];

/**
 * The document of a Message-ID (brackets optional; the domain part is also tried lowercased,
 * as stored ids have it), the first inbox's when several hold it, as `findMessage` picks.
 */
async function findDocument(
  target: OpenSearchTarget,
  id: string,
  options: ReadOptions,
): Promise<Hit<StoredSource> | undefined> {
  const wanted = normalizeIdArgument(id);
  const at = wanted.lastIndexOf('@');
  const candidates = [
    ...new Set([wanted, at < 0 ? wanted : wanted.slice(0, at) + wanted.slice(at).toLowerCase()]),
  ];
  const hits = await search<StoredSource>(target, {
    size: 100,
    query: { bool: { filter: [{ terms: { messageId: candidates } }, ...inboxFilter(options)] } },
    _source: STORED_SOURCE,
  });
  // The archive's first inbox (by creation) holding the first candidate found.
  const inboxId = (hit: Hit<StoredSource>): number => fromRecord(hit._source.message).inboxId;
  for (const candidate of candidates) {
    const found = hits
      .filter((h) => h._source.messageId === candidate)
      .sort((a, b) => inboxId(a) - inboxId(b))[0];
    if (found) return found;
  }
  return undefined;
}

/** The document of a Message-ID, or no_such_item. */
async function requireDocument(
  target: OpenSearchTarget,
  id: string,
  options: ReadOptions,
): Promise<Hit<StoredSource>> {
  const hit = await findDocument(target, id, options);
  if (!hit)
    throw new MailsiftError('no_such_item', `no message with id '${normalizeIdArgument(id)}'`, {
      param: 'messageId',
    });
  return hit;
}

/** A message by Message-ID, as `Mailsift.getMessage` returns it. */
export async function getMessage(
  target: OpenSearchTarget,
  id: string,
  options: ReadOptions = {},
): Promise<StoredMessage> {
  return fromRecord((await requireDocument(target, id, options))._source.message);
}

async function rawOf(target: OpenSearchTarget, documentId: string): Promise<Buffer> {
  const document = await target.client.request<{ found: boolean; _source?: { raw?: string } }>(
    'GET',
    `/${target.index}/_doc/${encodeURIComponent(documentId)}?_source_includes=raw`,
  );
  const raw = document._source?.raw;
  if (!document.found || raw === undefined)
    throw new MailsiftError('no_such_item', 'no stored bytes for this message', { param: 'messageId' });
  return inflateRawSync(Buffer.from(raw, 'base64'));
}

/** The original bytes of a message. */
export async function getRaw(
  target: OpenSearchTarget,
  id: string,
  options: ReadOptions = {},
): Promise<Buffer> {
  return rawOf(target, (await requireDocument(target, id, options))._id);
}

/** An attachment by 0-based ordinal or filename, its bytes cut from the stored original. */
export async function getAttachment(
  target: OpenSearchTarget,
  id: string,
  which: string | number,
  options: ReadOptions = {},
): Promise<AttachmentContent> {
  const hit = await requireDocument(target, id, options);
  const message = fromRecord(hit._source.message);
  return attachmentFromRaw(message, findAttachment(message, which), () => rawOf(target, hit._id));
}

/** Every document of one thread, read a page at a time. */
async function threadDocuments(
  target: OpenSearchTarget,
  inbox: string,
  threadId: string,
): Promise<StoredSource[]> {
  const documents: StoredSource[] = [];
  let after: readonly unknown[] | undefined;
  for (;;) {
    const hits = await search<StoredSource>(target, {
      size: THREAD_PAGE,
      query: { bool: { filter: [{ term: { inbox } }, { term: { threadId } }] } },
      sort: [{ date: 'asc' }, { uid: 'asc' }],
      _source: STORED_SOURCE,
      ...(after ? { search_after: after } : {}),
    });
    documents.push(...hits.map((h) => h._source));
    if (hits.length < THREAD_PAGE) return documents;
    after = hits.at(-1)?.sort;
  }
}

async function threadView(target: OpenSearchTarget, inbox: string, threadId: string): Promise<ThreadView> {
  const documents = await threadDocuments(target, inbox, threadId);
  // In the archive's order (date, then row id), which the tree keeps among siblings.
  const messages = documents
    .map((d) => fromRecord(d.message))
    .sort((a, b) => a.date.getTime() - b.date.getTime() || a.rowid - b.rowid);
  const nodes = new Map<string, ThreadNode>();
  for (const document of documents) for (const node of document.threadPath) nodes.set(node.messageId, node);
  return { inbox, threadId, entries: threadEntries([...nodes.values()], messages) };
}

/**
 * A thread by its id (a former id of a merged thread still finds it) or by the Message-ID of
 * one of its messages, as `Mailsift.getThread` resolves it: inboxes in name order.
 */
export async function getThread(
  target: OpenSearchTarget,
  id: string,
  options: ReadOptions = {},
): Promise<ThreadView> {
  const wanted = id.trim();
  const [byThread] = await search<{ inbox: string; threadId: string }>(target, {
    size: 1,
    query: {
      bool: {
        filter: inboxFilter(options),
        should: [{ term: { threadId: wanted } }, { term: { threadAliases: wanted } }],
        minimum_should_match: 1,
      },
    },
    sort: [{ inbox: 'asc' }],
    _source: ['inbox', 'threadId'],
  });
  if (byThread) return threadView(target, byThread._source.inbox, byThread._source.threadId);
  const message = await findDocument(target, id, options);
  if (message) return threadView(target, message._source.inbox, message._source.threadId);
  throw new MailsiftError('no_such_item', `no thread or message with id '${id}'`, { param: 'threadId' });
}

/** One inbox's counts on the cluster. */
export interface InboxCounts {
  readonly messages: number;
  /** A cardinality aggregation: exact up to 3,000 threads, within a few percent above. */
  readonly threads: number;
}

/** Most inboxes one aggregation lists. */
const MAX_INBOXES = 10_000;

interface InboxBuckets {
  readonly _shards: ShardSummary;
  readonly timed_out: boolean;
  readonly aggregations: {
    readonly inboxes: {
      readonly buckets: ReadonlyArray<{ key: string; doc_count: number; threads: { value: number } }>;
    };
  };
}

/** The inboxes holding messages on the cluster (or just `inbox`), in name order, with their counts. */
export async function inboxCounts(
  target: OpenSearchTarget,
  inbox?: string,
): Promise<Map<string, InboxCounts>> {
  const response = await target.client.request<InboxBuckets>(
    'POST',
    `/${target.index}/_search?allow_partial_search_results=false`,
    {
      size: 0,
      ...(inbox === undefined ? {} : { query: { term: { inbox } } }),
      aggs: {
        inboxes: {
          terms: { field: 'inbox', size: MAX_INBOXES, order: { _key: 'asc' } },
          aggs: { threads: { cardinality: { field: 'threadKey' } } },
        },
      },
    },
  );
  assertComplete(response);
  return new Map(
    response.aggregations.inboxes.buckets.map((b) => [
      b.key,
      { messages: b.doc_count, threads: b.threads.value },
    ]),
  );
}

// Writing to the cluster: the index created on first use, messages written in bulk under
// their inbox + Message-ID ids (writing one again replaces it), and `syncArchive`, which
// rebuilds the cluster's copy from the archive (`reindex --backend opensearch`).

import { randomUUID } from 'node:crypto';
import {
  type Db,
  finishFullCopy,
  loadMessages,
  loadRawDeflated,
  type StoredMessage,
  sql,
  startFeeding,
  threadPath,
} from '../../store/index.js';
import type { OpenSearchClient } from './client.js';
import { ADDED_FIELDS, type IndexOptions, indexBody, type MessageDocument, toDocument } from './mapping.js';
import type { OpenSearchTarget } from './search.js';

/** Messages read from the archive at a time. */
const BATCH = 500;
/**
 * Most NDJSON bytes per bulk request: documents carry their message's original bytes, so
 * 500 of them can exceed OpenSearch's 100 MB request limit (http.max_content_length); a
 * document alone above it is sent alone (and refused by the cluster).
 */
const BULK_BYTES = 16 * 1024 * 1024;

interface BulkResponse {
  readonly errors: boolean;
  readonly items: ReadonlyArray<Record<string, { readonly status: number; readonly error?: unknown }>>;
}

/** Creates the index with our mappings unless it exists. Returns whether it created it. */
export async function ensureIndex(
  client: OpenSearchClient,
  index: string,
  options: IndexOptions = {},
): Promise<boolean> {
  if (await client.exists(`/${index}`)) {
    // An index made before some of its fields were added.
    await client.request('PUT', `/${index}/_mapping`, { properties: ADDED_FIELDS });
    return false;
  }
  // wait_for_active_shards=all: the first write must not race the shards' allocation.
  await client.request('PUT', `/${index}?wait_for_active_shards=all`, indexBody(options));
  return true;
}

/** One bulk item: a document written under its uid (replacing any of that id) or deleted by id. */
export type BulkAction<
  D extends { readonly uid: string } = MessageDocument & { readonly generation?: string },
> = { readonly document: D } | { readonly delete: string };

/** An item the cluster refused: its position among the actions, and why. */
export interface BulkRejection {
  readonly position: number;
  readonly status: number;
  readonly error: unknown;
}

/**
 * Sends `actions` in order, in bulk requests of at most BULK_BYTES. Stops after the first
 * request with a refused item and returns the first refused one: actions before it were
 * applied; those after it may have been, and are safe to send again (same ids). A delete of
 * a document already gone (404) is not a refusal.
 */
export async function sendBulk<D extends { readonly uid: string }>(
  client: OpenSearchClient,
  index: string,
  actions: readonly BulkAction<D>[],
  options: { refresh?: boolean } = {},
): Promise<BulkRejection | undefined> {
  const refresh = options.refresh ? '?refresh=wait_for' : '';
  let lines: string[] = [];
  let bytes = 0;
  let sent = 0;
  const send = async (): Promise<BulkRejection | undefined> => {
    if (lines.length === 0) return undefined;
    const body = `${lines.join('\n')}\n`;
    lines = [];
    bytes = 0;
    const response = await client.request<BulkResponse>('POST', `/_bulk${refresh}`, body);
    const first = sent;
    sent += response.items.length;
    if (!response.errors) return undefined;
    const results = response.items.map((item) => Object.values(item)[0]);
    const refused = results.findIndex(
      (r, i) =>
        r !== undefined && r.status >= 300 && !('delete' in (response.items[i] ?? {}) && r.status === 404),
    );
    if (refused < 0) return undefined;
    const result = results[refused];
    return { position: first + refused, status: result?.status ?? 0, error: result?.error };
  };
  for (const action of actions) {
    const [meta, source] =
      'document' in action
        ? [
            JSON.stringify({ index: { _index: index, _id: action.document.uid } }),
            JSON.stringify(action.document),
          ]
        : [JSON.stringify({ delete: { _index: index, _id: action.delete } }), undefined];
    const size = meta.length + (source?.length ?? 0) + 2;
    if (bytes > 0 && bytes + size > BULK_BYTES) {
      const rejected = await send();
      if (rejected) return rejected;
    }
    lines.push(meta);
    if (source !== undefined) lines.push(source);
    bytes += size;
  }
  return send();
}

/** Writes documents in bulk; any rejected item fails the whole call. */
export async function writeDocuments(
  client: OpenSearchClient,
  index: string,
  documents: readonly (MessageDocument & { readonly generation?: string })[],
  options: { refresh?: boolean } = {},
): Promise<void> {
  const rejected = await sendBulk(
    client,
    index,
    documents.map((document) => ({ document })),
    options,
  );
  if (rejected)
    throw new Error(`bulk write: document ${rejected.position} rejected: ${JSON.stringify(rejected.error)}`);
}

/** The documents of stored messages: each with its original bytes, thread path and its thread's former ids. */
export function documentsOf(db: Db, messages: readonly StoredMessage[]): MessageDocument[] {
  const aliases = sql(
    db,
    'SELECT old_id FROM thread_aliases WHERE inbox_id = ? AND new_id = ? ORDER BY old_id',
  );
  const ingested = sql(db, 'SELECT ingested_at FROM messages WHERE id = ?');
  return messages.map((message) =>
    toDocument(message, {
      rawDeflated: loadRawDeflated(db, message.rowid),
      threadPath: threadPath(db, message),
      threadAliases: aliases.pluck().all(message.inboxId, message.threadId) as string[],
      ingestedAt: ingested.pluck().get(message.rowid) as number,
    }),
  );
}

/**
 * Deletes the documents of `index` not written by `generation` (what a full copy did not
 * write), a page of ids at a time. Not `_delete_by_query`: that lives in the reindex module,
 * which a cluster need not load.
 */
export async function deleteOtherGenerations(
  client: OpenSearchClient,
  index: string,
  generation: string,
): Promise<number> {
  let deleted = 0;
  for (;;) {
    const page = await client.request<{ hits: { hits: ReadonlyArray<{ _id: string }> } }>(
      'POST',
      `/${index}/_search?allow_partial_search_results=false`,
      { size: 1000, _source: false, query: { bool: { must_not: { term: { generation } } } } },
    );
    const ids = page.hits.hits.map((h) => h._id);
    if (ids.length === 0) return deleted;
    const lines = ids.map((id) => JSON.stringify({ delete: { _index: index, _id: id } }));
    // refresh=wait_for: the next page's search must no longer see these.
    await client.request('POST', '/_bulk?refresh=wait_for', `${lines.join('\n')}\n`);
    deleted += ids.length;
  }
}

export interface SyncReport {
  readonly indexed: number;
  readonly deleted: number;
}

/**
 * Copies every stored message to `index` and deletes the cluster's documents the archive
 * no longer has. Each run tags what it writes with a new generation; documents of older
 * generations are the ones deleted, so a run killed half-way leaves the previous copy
 * searchable and the next run completes it.
 *
 * From its start the archive feeds this index: ingest queues its changes in the outbox
 * (store/cluster-feed.ts) and drains them here (outbox.ts). The rows queued before the feed
 * was recorded are dropped at the end, and only those: their changes were committed before
 * the copy began reading, so it wrote them. Rows queued during the copy stay and are sent by
 * the next drain; sending a message again rewrites the same document.
 */
export async function syncArchive(
  db: Db,
  { client, index }: OpenSearchTarget,
  options: IndexOptions & { onProgress?: (done: number, total: number) => void } = {},
): Promise<SyncReport> {
  await ensureIndex(client, index, options);
  const generation = randomUUID();
  const superseded = startFeeding(db, { nodes: client.nodes, index, generation });
  const ids = sql(db, 'SELECT id FROM messages ORDER BY id').pluck().all() as number[];
  const languages = new Set<string>();
  for (let i = 0; i < ids.length; i += BATCH) {
    const batch = [...loadMessages(db, ids.slice(i, i + BATCH)).values()] as StoredMessage[];
    const documents = documentsOf(db, batch).map((document) => ({ ...document, generation }));
    for (const document of documents) if (document.language !== null) languages.add(document.language);
    await writeDocuments(client, index, documents);
    options.onProgress?.(Math.min(i + BATCH, ids.length), ids.length);
  }
  await client.request('POST', `/${index}/_refresh`);
  const deleted = await deleteOtherGenerations(client, index, generation);
  // Queries stem each word in the languages the documents were stemmed in (as the SQLite
  // index's indexedLanguages does): recorded where every search process can read it.
  await client.request('PUT', `/${index}/_mapping`, { _meta: { languages: [...languages].sort() } });
  finishFullCopy(db, superseded);
  return { indexed: ids.length, deleted };
}

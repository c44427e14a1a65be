// Writing to the cluster: the index created on first use, messages written in bulk under
// their inbox + Message-ID ids (writing one again replaces it), and `syncArchive`, which
// rebuilds the cluster's copy from the archive (`reindex --backend opensearch`).

import { randomUUID } from 'node:crypto';
import {
  type Db,
  loadMessages,
  loadRawDeflated,
  type StoredMessage,
  sql,
  threadPath,
} from '../../store/index.js';
import type { OpenSearchClient } from './client.js';
import { type IndexOptions, indexBody, type MessageDocument, READ_FIELDS, toDocument } from './mapping.js';
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
    // An index made before the documents held what the read commands answer from.
    await client.request('PUT', `/${index}/_mapping`, { properties: READ_FIELDS });
    return false;
  }
  // wait_for_active_shards=all: the first write must not race the shards' allocation.
  await client.request('PUT', `/${index}?wait_for_active_shards=all`, indexBody(options));
  return true;
}

/** Writes documents in one bulk request; any rejected item fails the whole call. */
export async function writeDocuments(
  client: OpenSearchClient,
  index: string,
  documents: readonly (MessageDocument & { readonly generation?: string })[],
  options: { refresh?: boolean } = {},
): Promise<void> {
  const refresh = options.refresh ? '?refresh=wait_for' : '';
  let lines: string[] = [];
  let bytes = 0;
  const send = async (): Promise<void> => {
    if (lines.length === 0) return;
    const body = `${lines.join('\n')}\n`;
    lines = [];
    bytes = 0;
    const response = await client.request<BulkResponse>('POST', `/_bulk${refresh}`, body);
    if (!response.errors) return;
    const failed = response.items.map((item) => Object.values(item)[0]).filter((r) => r && r.status >= 300);
    throw new Error(
      `bulk write: ${failed.length} of ${response.items.length} rejected: ${JSON.stringify(failed[0])}`,
    );
  };
  for (const document of documents) {
    const action = JSON.stringify({ index: { _index: index, _id: document.uid } });
    const source = JSON.stringify(document);
    if (bytes > 0 && bytes + action.length + source.length > BULK_BYTES) await send();
    lines.push(action, source);
    bytes += action.length + source.length + 2;
  }
  await send();
}

/** The documents of stored messages: each with its original bytes, thread path and its thread's former ids. */
export function documentsOf(db: Db, messages: readonly StoredMessage[]): MessageDocument[] {
  const aliases = sql(
    db,
    'SELECT old_id FROM thread_aliases WHERE inbox_id = ? AND new_id = ? ORDER BY old_id',
  );
  return messages.map((message) =>
    toDocument(message, {
      rawDeflated: loadRawDeflated(db, message.rowid),
      threadPath: threadPath(db, message),
      threadAliases: aliases.pluck().all(message.inboxId, message.threadId) as string[],
    }),
  );
}

/**
 * Deletes the documents not written by `generation`, a page of ids at a time. Not
 * `_delete_by_query`: that lives in the reindex module, which a cluster need not load.
 */
async function deleteOtherGenerations(
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
 */
export async function syncArchive(
  db: Db,
  { client, index }: OpenSearchTarget,
  options: IndexOptions & { onProgress?: (done: number, total: number) => void } = {},
): Promise<SyncReport> {
  await ensureIndex(client, index, options);
  const generation = randomUUID();
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
  return { indexed: ids.length, deleted };
}

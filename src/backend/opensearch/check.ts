// `check --backend opensearch`: whether the cluster holds exactly the archive's messages,
// compared by document id (inbox + Message-ID), and, once the archive feeds its k-NN index,
// exactly its chunk vectors (inbox + chunk id). What differs is named, a few of each side.

import { feedsVectors, storedVectorKeys } from '../../rag/vector-feed.js';
import { type Db, sql } from '../../store/index.js';
import { assertComplete, type ShardSummary } from './client.js';
import { vectorId, vectorIndexOf } from './knn-search.js';
import { documentId } from './mapping.js';
import type { OpenSearchTarget } from './search.js';

/** Ids read from the cluster per request. */
const PAGE = 5_000;
/** Differences named in the report (all are counted). */
const NAMED = 10;

/** One index against the archive. */
export interface IndexComparison {
  readonly archive: number;
  readonly cluster: number;
  /** In the archive, not in the cluster: `inbox <Message-ID>`, or `inbox chunk N`. */
  readonly missing: { readonly count: number; readonly examples: readonly string[] };
  /** In the cluster, not in the archive. */
  readonly extra: { readonly count: number; readonly examples: readonly string[] };
}

export interface ClusterCheck extends IndexComparison {
  readonly ok: boolean;
  /** The k-NN index's chunk vectors, when the archive feeds them. */
  readonly vectors?: IndexComparison;
}

interface IdPage {
  readonly _shards: ShardSummary;
  readonly timed_out: boolean;
  readonly hits: {
    readonly hits: ReadonlyArray<{ readonly _source: Record<string, unknown>; readonly sort: unknown[] }>;
  };
}

/**
 * Every document of `index` by uid, named from its `fields`, read in uid order (search_after:
 * no scroll state to leak).
 */
async function clusterDocuments(
  { client, index }: OpenSearchTarget,
  fields: readonly string[],
  name: (source: Record<string, unknown>) => string,
): Promise<Map<string, string>> {
  // Writes the cluster accepted become searchable at its next refresh (a second): without
  // one, what an ingest just sent would read as missing.
  await client.request('POST', `/${index}/_refresh`);
  const documents = new Map<string, string>();
  let after: unknown[] | undefined;
  for (;;) {
    const page = await client.request<IdPage>(
      'POST',
      `/${index}/_search?allow_partial_search_results=false`,
      { size: PAGE, _source: fields, sort: [{ uid: 'asc' }], ...(after ? { search_after: after } : {}) },
    );
    assertComplete(page);
    for (const hit of page.hits.hits) documents.set(String(hit.sort[0]), name(hit._source));
    if (page.hits.hits.length < PAGE) return documents;
    after = page.hits.hits.at(-1)?.sort;
  }
}

/** The archive's documents (uid → name) against the cluster's. */
function compare(
  archived: ReadonlyMap<string, string>,
  cluster: ReadonlyMap<string, string>,
): IndexComparison {
  const missing = [...archived].filter(([id]) => !cluster.has(id)).map(([, name]) => name);
  const extra = [...cluster].filter(([id]) => !archived.has(id)).map(([, name]) => name);
  return {
    archive: archived.size,
    cluster: cluster.size,
    missing: { count: missing.length, examples: missing.slice(0, NAMED) },
    extra: { count: extra.length, examples: extra.slice(0, NAMED) },
  };
}

const differs = (c: IndexComparison): boolean => c.missing.count > 0 || c.extra.count > 0;

export async function checkCluster(db: Db, target: OpenSearchTarget): Promise<ClusterCheck> {
  const rows = sql(
    db,
    'SELECT i.name AS inbox, m.message_id AS messageId FROM messages m JOIN inboxes i ON i.id = m.inbox_id',
  ).all() as Array<{ inbox: string; messageId: string }>;
  const messages = compare(
    new Map(rows.map(({ inbox, messageId }) => [documentId(inbox, messageId), `${inbox} <${messageId}>`])),
    await clusterDocuments(target, ['inbox', 'messageId'], (s) => `${s.inbox} <${s.messageId}>`),
  );
  const chunkName = (inbox: unknown, chunkId: unknown): string => `${inbox} chunk ${chunkId}`;
  const vectors = feedsVectors(db)
    ? compare(
        new Map(
          storedVectorKeys(db).map(({ inbox, chunkId }) => [
            vectorId(inbox, chunkId),
            chunkName(inbox, chunkId),
          ]),
        ),
        await clusterDocuments(
          { ...target, index: vectorIndexOf(target.index) },
          ['inbox', 'chunk_id'],
          (s) => chunkName(s.inbox, s.chunk_id),
        ),
      )
    : undefined;
  return {
    ok: !differs(messages) && !(vectors && differs(vectors)),
    ...messages,
    ...(vectors ? { vectors } : {}),
  };
}

// `check --backend opensearch`: whether the cluster holds exactly the archive's messages,
// compared by document id (inbox + Message-ID). What differs is named, a few of each side.

import { type Db, sql } from '../../store/index.js';
import { assertComplete, type ShardSummary } from './client.js';
import { documentId } from './mapping.js';
import type { OpenSearchTarget } from './search.js';

/** Ids read from the cluster per request. */
const PAGE = 5_000;
/** Differences named in the report (all are counted). */
const NAMED = 10;

export interface ClusterCheck {
  readonly ok: boolean;
  readonly archive: number;
  readonly cluster: number;
  /** In the archive, not in the cluster: `inbox <Message-ID>`. */
  readonly missing: { readonly count: number; readonly examples: readonly string[] };
  /** In the cluster, not in the archive. */
  readonly extra: { readonly count: number; readonly examples: readonly string[] };
}

interface IdPage {
  readonly _shards: ShardSummary;
  readonly timed_out: boolean;
  readonly hits: {
    readonly hits: ReadonlyArray<{
      readonly _source: { inbox: string; messageId: string };
      readonly sort: unknown[];
    }>;
  };
}

/** Every document of the index by id, read in uid order (search_after: no scroll state to leak). */
async function clusterDocuments({ client, index }: OpenSearchTarget): Promise<Map<string, string>> {
  const documents = new Map<string, string>();
  let after: unknown[] | undefined;
  for (;;) {
    const page = await client.request<IdPage>(
      'POST',
      `/${index}/_search?allow_partial_search_results=false`,
      {
        size: PAGE,
        _source: ['inbox', 'messageId'],
        sort: [{ uid: 'asc' }],
        ...(after ? { search_after: after } : {}),
      },
    );
    assertComplete(page);
    for (const hit of page.hits.hits)
      documents.set(String(hit.sort[0]), `${hit._source.inbox} <${hit._source.messageId}>`);
    if (page.hits.hits.length < PAGE) return documents;
    after = page.hits.hits.at(-1)?.sort;
  }
}

export async function checkCluster(db: Db, target: OpenSearchTarget): Promise<ClusterCheck> {
  const rows = sql(
    db,
    'SELECT i.name AS inbox, m.message_id AS messageId FROM messages m JOIN inboxes i ON i.id = m.inbox_id',
  ).all() as Array<{
    inbox: string;
    messageId: string;
  }>;
  const cluster = await clusterDocuments(target);
  const missing: string[] = [];
  const archived = new Set<string>();
  for (const { inbox, messageId } of rows) {
    const id = documentId(inbox, messageId);
    archived.add(id);
    if (!cluster.has(id)) missing.push(`${inbox} <${messageId}>`);
  }
  const extra = [...cluster].filter(([id]) => !archived.has(id)).map(([, name]) => name);
  return {
    ok: missing.length === 0 && extra.length === 0,
    archive: rows.length,
    cluster: cluster.size,
    missing: { count: missing.length, examples: missing.slice(0, NAMED) },
    extra: { count: extra.length, examples: extra.slice(0, NAMED) },
  };
}

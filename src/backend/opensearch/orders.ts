// Frozen relevance orders kept in the cluster, as the SQLite backend keeps them beside the
// archive (search/snapshot.ts): when a first page has a next one, the head of its ranked
// order is stored in a small index of its own and the page token names it, so every later
// page — from any `serve` host — follows the order page 1 saw.
//
// Why not a point in time: each one holds a search context on every shard copy it read
// until it expires, and a node refuses new ones past `search.max_open_pit_context` (300 by
// default). An agent reading only first pages left one behind per query: at one query a
// second the cluster answered 429 within five minutes. A stored order costs one small
// document, expires by time, and holds nothing open.

import { MailsiftError } from '../../core/errors.js';
import { nodeCrypto } from '../../core/node-crypto.js';
import { SNAPSHOT_TTL_MS } from '../../search/snapshot.js';
import type { OpenSearchClient } from './client.js';

/** One entry of a frozen order: the hit's sort values, and its thread in thread mode. */
export interface OrderEntry {
  readonly score: number;
  readonly date: number;
  readonly uid: string;
  /** Thread mode: the thread (inbox + thread id) the entry stood for when frozen. */
  readonly threadKey?: string;
}

export interface FrozenOrder {
  readonly kind: string;
  /** The query the order belongs to (page-token.ts's fingerprint). */
  readonly fingerprint: string;
  readonly entries: readonly OrderEntry[];
  /** False when the ranking goes on past the frozen entries. */
  readonly complete: boolean;
}

interface OrderDocument {
  readonly createdAt: number;
  readonly kind: string;
  readonly fingerprint: string;
  readonly complete: boolean;
  /** The entries as JSON: stored, never searched. */
  readonly entries: string;
}

/** The index holding the orders of searches over `index`. */
export const ordersIndex = (index: string): string => `${index}-orders`;

const ORDERS_BODY = {
  settings: { number_of_shards: 1, auto_expand_replicas: '0-1' },
  mappings: {
    dynamic: 'strict',
    properties: {
      createdAt: { type: 'date', format: 'epoch_millis' },
      kind: { type: 'keyword' },
      fingerprint: { type: 'keyword' },
      complete: { type: 'boolean' },
      entries: { type: 'text', index: false },
    },
  },
};

/** Orders indices this process has seen exist (nodes + index), so a save is one request. */
const existing = new Set<string>();
/** Expired orders are deleted at most this often by one process. */
const PRUNE_EVERY_MS = 60_000;
const lastPrune = new Map<string, number>();

function expired(): MailsiftError {
  return new MailsiftError('invalid_page_token', 'page token expired: run the search again', {
    param: 'pageToken',
  });
}

/** The id is a hash of the content, so identical first pages (an agent repeating itself) share one document. */
function orderId(order: FrozenOrder): string {
  return nodeCrypto()
    .createHash('sha256')
    .update(JSON.stringify([order.kind, order.fingerprint, order.complete, order.entries]))
    .digest('base64url')
    .slice(0, 22);
}

/**
 * Stores `order` and returns its id. The orders index is made on first use; expired orders
 * are deleted in the background now and then. A GET by id is realtime, so the next page
 * finds the order without waiting for a refresh.
 */
export async function saveOrder(
  client: OpenSearchClient,
  index: string,
  order: FrozenOrder,
  now = Date.now(),
): Promise<string> {
  const id = orderId(order);
  const orders = ordersIndex(index);
  const document: OrderDocument = {
    createdAt: now,
    kind: order.kind,
    fingerprint: order.fingerprint,
    complete: order.complete,
    entries: JSON.stringify(order.entries),
  };
  const known = `${client.nodes.join(',')}/${orders}`;
  if (!existing.has(known) && !(await client.exists(`/${orders}`))) {
    await client
      .request('PUT', `/${orders}?wait_for_active_shards=1`, ORDERS_BODY)
      // Another host made it meanwhile.
      .catch(async (error: unknown) => {
        if (!(await client.exists(`/${orders}`))) throw error;
      });
  }
  existing.add(known);
  await client.request('PUT', `/${orders}/_doc/${id}`, document);
  if (now - (lastPrune.get(orders) ?? 0) >= PRUNE_EVERY_MS) {
    lastPrune.set(orders, now);
    void client
      .request('POST', `/${orders}/_delete_by_query?conflicts=proceed&wait_for_completion=false`, {
        query: { range: { createdAt: { lt: now - SNAPSHOT_TTL_MS } } },
      })
      .catch(() => {});
  }
  return id;
}

/**
 * The order a token names, checked against the token's query. A missing or expired one
 * is an error: paging on in another order would repeat or skip messages.
 */
export async function loadOrder(
  client: OpenSearchClient,
  index: string,
  id: string,
  binding: { kind: string; fingerprint: string },
  now = Date.now(),
): Promise<FrozenOrder> {
  const found = await client.find<{ _source: OrderDocument }>(
    `/${ordersIndex(index)}/_doc/${encodeURIComponent(id)}`,
  );
  const stored = found?._source;
  if (!stored || stored.createdAt < now - SNAPSHOT_TTL_MS) throw expired();
  if (stored.kind !== binding.kind || stored.fingerprint !== binding.fingerprint)
    throw new MailsiftError('invalid_page_token', 'the page token belongs to another query', {
      param: 'pageToken',
    });
  return {
    kind: stored.kind,
    fingerprint: stored.fingerprint,
    complete: stored.complete,
    entries: JSON.parse(stored.entries) as OrderEntry[],
  };
}

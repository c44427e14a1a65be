// Sends the archive's outbox to the cluster it feeds (store/cluster-feed.ts): after ingest
// commits, the queued messages in order, in batches, each written as the archive holds it
// now or deleted when it holds it no more. A row leaves the outbox only once the cluster
// accepted its item; a refused item stops the drain there, so nothing overtakes it.

import { describeError } from '../../core/errors.js';
import {
  type ClusterFeed,
  clusterFeed,
  type Db,
  loadMessages,
  outboxDepth,
  outboxHead,
  removeFromOutbox,
  type StoredMessage,
} from '../../store/index.js';
import { OpenSearchClient } from './client.js';
import { documentId } from './mapping.js';
import { type BulkAction, documentsOf, sendBulk } from './writer.js';

/** Outbox rows read and sent at a time (as many documents as a reindex batch). */
const BATCH = 500;

export interface OutboxDrain {
  /** Messages written to or deleted from the cluster. */
  readonly sent: number;
  /** Messages still queued: the cluster was down or refused one (`error`). */
  readonly waiting: number;
  readonly error?: string;
}

export interface DrainOptions {
  /** The feed's client (tests pass one with a short timeout). */
  readonly client?: OpenSearchClient;
  readonly batch?: number;
  /**
   * Called when the cluster accepted a batch, before its rows leave the outbox: a test
   * throws here to be a process killed between the two.
   */
  readonly onAccepted?: (entries: number) => void;
}

/** The bulk actions of a batch of outbox rows, in their order. */
function actionsOf(db: Db, feed: ClusterFeed, entries: ReturnType<typeof outboxHead>): BulkAction[] {
  const present = entries.flatMap((e) => (e.rowid === null ? [] : [e.rowid]));
  const messages = loadMessages(db, present);
  const documents = new Map(
    documentsOf(db, [...messages.values()] as StoredMessage[]).map((d) => [d.uid, d]),
  );
  return entries.map((entry): BulkAction => {
    const uid = documentId(entry.inbox, entry.messageId);
    const document = documents.get(uid);
    return document ? { document: { ...document, generation: feed.generation } } : { delete: uid };
  });
}

/**
 * Drains the outbox of an archive that feeds a cluster; undefined when it feeds none. A
 * cluster that cannot be reached or refuses an item ends the drain with `error`: what was
 * not accepted stays queued for the next one. The ingest that queued it has committed.
 */
export async function drainOutbox(db: Db, options: DrainOptions = {}): Promise<OutboxDrain | undefined> {
  const feed = clusterFeed(db);
  if (!feed) return undefined;
  const client = options.client ?? new OpenSearchClient({ nodes: feed.nodes });
  let sent = 0;
  try {
    for (;;) {
      const entries = outboxHead(db, options.batch ?? BATCH);
      if (entries.length === 0) break;
      const rejected = await sendBulk(client, feed.index, actionsOf(db, feed, entries));
      const accepted = rejected ? entries.slice(0, rejected.position) : entries;
      options.onAccepted?.(accepted.length);
      removeFromOutbox(
        db,
        accepted.map((e) => e.seq),
      );
      sent += accepted.length;
      if (rejected) {
        const entry = entries[rejected.position];
        throw new Error(
          `the cluster refused ${entry?.inbox} <${entry?.messageId}> (${rejected.status}): ${JSON.stringify(rejected.error)}`,
        );
      }
    }
  } catch (error) {
    return { sent, waiting: outboxDepth(db), error: describeError(error) };
  }
  return { sent, waiting: outboxDepth(db) };
}

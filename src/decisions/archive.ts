// Decisions read from the decisions table (table.ts keeps it in step with the store): the
// dirty threads a read is about to read are derived first, so no read sees a stale row. A
// listing pages newest first by (decided_at, id) with signed tokens, as the message lists do.

import { MailsiftError } from '../core/errors.js';
import { indexSecret } from '../index/index.js';
import { decodePageToken, encodePageToken, fingerprint } from '../search/page-token.js';
import { toInstant } from '../search/params.js';
import { type Db, findMessage, inboxByName, resolveThreadId, sql } from '../store/index.js';
import { freshDecisions, syncDecisions } from './derive.js';
import { DEFAULT_DECISION_LIMIT, type DecisionParams, MAX_DECISION_LIMIT } from './params.js';
import { type DecisionRow, decisionOf, threadRows } from './table.js';
import type { DecisionRecord } from './types.js';

/** `DECISION_PARAMS`, and the inbox (omitted: every inbox). */
export interface FindDecisionsOptions extends DecisionParams {
  readonly inbox?: string | undefined;
}

export interface FoundDecisions {
  readonly limit: number;
  readonly decisions: readonly DecisionRecord[];
  /** Continues the listing (pass as pageToken with the same filters); null on the last page. */
  readonly nextPageToken: string | null;
}

/** A page of decisions of one thread, of one inbox or of every inbox, newest first. */
export function findDecisions(db: Db, options: FindDecisionsOptions = {}): FoundDecisions {
  const after = toInstant(options.after, 'after');
  const before = toInstant(options.before, 'before');
  const limit = options.limit ?? DEFAULT_DECISION_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_DECISION_LIMIT) {
    throw new MailsiftError('invalid_argument', `limit: must be an integer from 1 to ${MAX_DECISION_LIMIT}`, {
      param: 'limit',
    });
  }
  const words = (options.q ?? '').toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}._-]*/gu) ?? [];
  const inboxes =
    options.inbox === undefined
      ? (sql(db, 'SELECT id, name FROM inboxes ORDER BY name').all() as Array<{ id: number; name: string }>)
      : [inboxByName(db, options.inbox)];
  const thread =
    options.threadId === undefined
      ? undefined
      : oneThread(db, inboxes, options.threadId, options.inbox !== undefined);
  if (thread) syncDecisions(db, { threads: [{ inboxId: thread.inbox.id, threadId: thread.threadId }] });
  else if (inboxes.length === 1) syncDecisions(db, { inboxId: inboxes[0]?.id });
  else syncDecisions(db);

  const where = ['d.inbox_id IN (SELECT value FROM json_each(@inboxes))'];
  const binds: Record<string, unknown> = { inboxes: JSON.stringify(inboxes.map((i) => i.id)) };
  if (thread) {
    where.push('d.inbox_id = @threadInbox AND d.thread_id = @thread');
    Object.assign(binds, { threadInbox: thread.inbox.id, thread: thread.threadId });
  }
  if (after !== null) {
    where.push('d.decided_at >= @after');
    binds.after = after;
  }
  if (before !== null) {
    where.push('d.decided_at < @before');
    binds.before = before;
  }
  const secret = indexSecret(db);
  const bound = {
    kinds: ['decisions'],
    fingerprint: fingerprint(['decisions', thread?.threadId ?? null, words, after, before]),
    inbox: options.inbox === undefined ? 0 : (inboxes[0]?.id ?? 0),
  };
  if (options.pageToken !== undefined) {
    const { position } = decodePageToken(secret, options.pageToken, bound);
    where.push('(d.decided_at < @date OR (d.decided_at = @date AND d.id < @id))');
    Object.assign(binds, { date: position.date, id: position.rowid });
  }
  const rows = db
    .prepare(
      `SELECT d.*, i.name AS inbox FROM decisions d JOIN inboxes i ON i.id = d.inbox_id
       WHERE ${where.join(' AND ')} ORDER BY d.decided_at DESC, d.id DESC`,
    )
    .iterate(binds) as IterableIterator<DecisionRow>;
  const page: DecisionRow[] = [];
  let more = false;
  for (const row of rows) {
    const decision = decisionOf(row);
    if (!words.every((w) => haystack(row, decision).includes(w))) continue;
    if (page.length === limit) {
      more = true;
      break;
    }
    page.push(row);
  }
  const last = page.at(-1);
  const nextPageToken =
    more && last
      ? encodePageToken(secret, {
          ...bound,
          kind: 'decisions',
          origin: 0,
          watermark: 0,
          position: { score: 0, date: last.decided_at, rowid: last.id },
          snapshot: null,
          offset: 0,
        })
      : null;
  return { limit, decisions: page.map(decisionOf), nextPageToken };
}

/** What `q` matches: the statement (the rules' and the LLM's) and the evidence quotes. */
const haystack = (row: DecisionRow, d: DecisionRecord): string =>
  [row.statement, d.statement, ...d.evidence.map((e) => e.quote)].join('\n').toLowerCase();

interface ThreadRef {
  readonly inbox: { readonly id: number; readonly name: string };
  readonly threadId: string;
}

function oneThread(
  db: Db,
  inboxes: ReadonlyArray<{ id: number; name: string }>,
  id: string,
  inboxGiven: boolean,
): ThreadRef {
  for (const inbox of inboxes) {
    const threadId = resolveThreadId(db, inbox.id, id.trim());
    if (threadId) return { inbox, threadId };
  }
  const message = findMessage(db, id, inboxGiven ? inboxes[0]?.id : undefined);
  if (message) return { inbox: { id: message.inboxId, name: message.inbox }, threadId: message.threadId };
  throw new MailsiftError('no_such_item', `no thread or message with id '${id}'`, { param: 'threadId' });
}

/** A decision as the surfaces send it (CLI --json, HTTP, MCP): its date in ISO 8601. */
export type DecisionJson = Omit<DecisionRecord, 'decidedAt'> & { readonly decidedAt: string };

export interface DecisionsJson {
  readonly count: number;
  readonly limit: number;
  readonly nextPageToken: string | null;
  readonly decisions: readonly DecisionJson[];
}

export function decisionsJson(found: FoundDecisions): DecisionsJson {
  return {
    count: found.decisions.length,
    limit: found.limit,
    nextPageToken: found.nextPageToken,
    decisions: found.decisions.map((d) => ({ ...d, decidedAt: d.decidedAt.toISOString() })),
  };
}

/**
 * One thread's decisions in the extractor's order (retrieval asks this of the threads it
 * ranks). A dirty thread whose write lock an ingest holds is extracted without being stored:
 * a question need not wait out the ingest's transaction.
 */
export function threadDecisions(
  db: Db,
  inbox: { readonly id: number; readonly name: string },
  threadId: string,
): DecisionRecord[] {
  try {
    syncDecisions(db, { threads: [{ inboxId: inbox.id, threadId }] });
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'SQLITE_BUSY') throw error;
    return freshDecisions(db, inbox, threadId).decisions;
  }
  return threadRows(db, inbox.id, threadId).map(decisionOf);
}

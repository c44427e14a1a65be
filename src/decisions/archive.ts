// Decisions read from the archive on demand: a thread is loaded as `mailsift thread` loads
// it (loadThread: tree order, with depth) and each message's authored text is the cleaned
// part the store keeps. Nothing is stored in this slice; the next step (issue 46) is a
// `decisions` table derived by a store hook, re-derived when a thread changes.

import { MailsiftError } from '../core/errors.js';
import { toInstant } from '../search/params.js';
import {
  type Db,
  findMessage,
  inboxByName,
  loadThread,
  resolveThreadId,
  sql,
  type ThreadEntry,
} from '../store/index.js';
import { extractDecisions } from './extract.js';
import { DEFAULT_THREAD_LIMIT, type DecisionParams, MAX_THREAD_LIMIT } from './params.js';
import type { DecisionMessage, DecisionRecord, DecisionThread } from './types.js';

/** `DECISION_PARAMS`, and the inbox (omitted: every inbox). */
export interface FindDecisionsOptions extends DecisionParams {
  readonly inbox?: string | undefined;
}

export interface FoundDecisions {
  readonly threadsScanned: number;
  readonly messagesScanned: number;
  readonly decisions: readonly DecisionRecord[];
}

/** A loaded thread as the extractor reads it: each entry's parent is the nearest shallower entry before it. */
export function decisionThread(
  inbox: string,
  threadId: string,
  entries: readonly ThreadEntry[],
): DecisionThread {
  const messages: DecisionMessage[] = [];
  const lastAtDepth: string[] = [];
  for (const { message, depth } of entries) {
    if (message.variantOf !== null) continue;
    lastAtDepth[depth] = message.messageId;
    lastAtDepth.length = depth + 1;
    messages.push({
      messageId: message.messageId,
      parentId: depth > 0 ? (lastAtDepth[depth - 1] ?? null) : null,
      date: message.date,
      from: message.from,
      subject: message.subject,
      authored: message.cleaned.authored,
    });
  }
  return { inbox, threadId, messages };
}

/** Decisions of one thread, or of the newest `limit` threads of an inbox (or of every inbox). */
export function findDecisions(db: Db, options: FindDecisionsOptions = {}): FoundDecisions {
  const after = toInstant(options.after, 'after');
  const before = toInstant(options.before, 'before');
  const limit = options.limit ?? DEFAULT_THREAD_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_THREAD_LIMIT) {
    throw new MailsiftError('invalid_argument', `limit: must be an integer from 1 to ${MAX_THREAD_LIMIT}`, {
      param: 'limit',
    });
  }
  const words = (options.q ?? '').toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}._-]*/gu) ?? [];
  const inboxes =
    options.inbox === undefined
      ? (sql(db, 'SELECT id, name FROM inboxes ORDER BY name').all() as Array<{ id: number; name: string }>)
      : [inboxByName(db, options.inbox)];
  const threads =
    options.threadId === undefined
      ? newestThreads(db, inboxes, limit)
      : [oneThread(db, inboxes, options.threadId, options.inbox !== undefined)];
  const decisions: DecisionRecord[] = [];
  let messagesScanned = 0;
  for (const { inbox, threadId } of threads) {
    const thread = decisionThread(inbox.name, threadId, loadThread(db, inbox.id, threadId));
    messagesScanned += thread.messages.length;
    for (const decision of extractDecisions(thread)) {
      const at = decision.decidedAt.getTime();
      if ((after !== null && at < after) || (before !== null && at >= before)) continue;
      if (!words.every((w) => haystack(decision).includes(w))) continue;
      decisions.push(decision);
    }
  }
  decisions.sort((a, b) => b.decidedAt.getTime() - a.decidedAt.getTime());
  return { threadsScanned: threads.length, messagesScanned, decisions };
}

const haystack = (d: DecisionRecord): string =>
  [d.statement, ...d.evidence.map((e) => e.quote)].join('\n').toLowerCase();

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

/** The threads with the newest messages, walking each inbox's date index only as far as needed. */
function newestThreads(
  db: Db,
  inboxes: ReadonlyArray<{ id: number; name: string }>,
  limit: number,
): ThreadRef[] {
  const found: Array<ThreadRef & { last: number }> = [];
  for (const inbox of inboxes) {
    const seen = new Set<string>();
    const rows = sql(
      db,
      'SELECT thread_id, date FROM messages WHERE inbox_id = ? ORDER BY date DESC, id DESC',
    ).iterate(inbox.id) as IterableIterator<{ thread_id: string; date: number }>;
    for (const row of rows) {
      if (seen.has(row.thread_id)) continue;
      seen.add(row.thread_id);
      found.push({ inbox, threadId: row.thread_id, last: row.date });
      if (seen.size >= limit) break;
    }
  }
  return found.sort((a, b) => b.last - a.last).slice(0, limit);
}

/** A decision as the surfaces send it (CLI --json, HTTP, MCP): its date in ISO 8601. */
export type DecisionJson = Omit<DecisionRecord, 'decidedAt'> & { readonly decidedAt: string };

export interface DecisionsJson {
  readonly threadsScanned: number;
  readonly count: number;
  readonly decisions: readonly DecisionJson[];
}

export function decisionsJson(found: FoundDecisions): DecisionsJson {
  return {
    threadsScanned: found.threadsScanned,
    count: found.decisions.length,
    decisions: found.decisions.map((d) => ({ ...d, decidedAt: d.decidedAt.toISOString() })),
  };
}

/** One thread's decisions, read from the archive (retrieval asks this of the threads it ranks). */
export function threadDecisions(
  db: Db,
  inbox: { readonly id: number; readonly name: string },
  threadId: string,
): DecisionRecord[] {
  return extractDecisions(decisionThread(inbox.name, threadId, loadThread(db, inbox.id, threadId)));
}

// Result shapes (AgentMail's public field names) built from stored messages: message
// hits, thread hits, previews, highlights and the optional explanation.

import { isLanguage, type Language } from '../analysis/index.js';
import { COLUMNS, type Column, fieldTexts, formatAddress } from '../index/index.js';
import { type Db, loadMessages, type StoredMessage, sql } from '../store/index.js';
import { buildHighlights, type Highlights } from './highlights.js';
import type { HighlightTerms } from './match.js';
import { BULK_FACTOR } from './ranked-query.js';
import { StateCache } from './state-cache.js';

const PREVIEW_CHARS = 200;

export interface AttachmentSummary {
  readonly filename: string | null;
  readonly contentType: string;
  readonly size: number;
  readonly inline: boolean;
}

export interface Explanation {
  /** Weighted bm25 of each index column that matched, scored as if it were the only field. */
  readonly fields: Partial<Record<Column, number>>;
  /** The combined weighted bm25 (score = bm25 × recency × bulk). */
  readonly bm25: number;
  readonly recency: number;
  /** 1, or BULK_FACTOR for mailing-list mail (newsletters, notifications). */
  readonly bulk: number;
  /** 'fuzzy' when the hit came from typo-tolerant fill. */
  readonly match: 'exact' | 'fuzzy';
}

export interface MessageItem {
  readonly inboxId: string;
  readonly threadId: string;
  readonly messageId: string;
  readonly labels: readonly string[];
  readonly timestamp: string;
  readonly from: string | null;
  readonly to: readonly string[];
  readonly cc: readonly string[];
  readonly subject: string;
  readonly preview: string;
  readonly attachments: readonly AttachmentSummary[];
  readonly inReplyTo: string | null;
  readonly references: readonly string[];
}

export interface MessageHit extends MessageItem {
  readonly highlights: Highlights;
  readonly score: number;
  readonly explain?: Explanation;
}

export interface ThreadHit {
  readonly threadId: string;
  readonly subject: string;
  readonly senders: string[];
  readonly recipients: string[];
  readonly messageCount: number;
  readonly lastMessageId: string;
  readonly timestamp: string;
  readonly preview: string;
  readonly highlights: Highlights;
  readonly score: number;
  readonly explain?: Explanation;
}

export function preview(message: StoredMessage): string {
  // Squash only the start: authored text may run to megabytes.
  const text = message.cleaned.authored
    .slice(0, PREVIEW_CHARS * 4)
    .replace(/\s+/g, ' ')
    .trim();
  return text.length <= PREVIEW_CHARS ? text : `${text.slice(0, PREVIEW_CHARS).trimEnd()}…`;
}

/**
 * Items built per message object: a message kept in the hits' source cache answers many
 * requests, and building its item (the preview's whitespace squash above all) was ~9% of a
 * server's CPU on repeated searches. A message loaded again is a new object, so a changed one
 * is built again; items are frozen, as they are shared.
 */
const items = new WeakMap<StoredMessage, MessageItem>();

export function messageItem(message: StoredMessage): MessageItem {
  let item = items.get(message);
  if (item === undefined) {
    const built = buildItem(message);
    for (const list of [built.labels, built.to, built.cc, built.attachments, built.references])
      Object.freeze(list);
    item = Object.freeze(built);
    items.set(message, item);
  }
  return item;
}

function buildItem(message: StoredMessage): MessageItem {
  return {
    inboxId: message.inbox,
    threadId: message.threadId,
    messageId: message.messageId,
    // Copies: the item is frozen, the stored message's own lists are not its to freeze.
    labels: [...message.labels],
    timestamp: message.date.toISOString(),
    from: message.from ? formatAddress(message.from) : null,
    to: message.to.map(formatAddress),
    cc: message.cc.map(formatAddress),
    subject: message.subject,
    preview: preview(message),
    attachments: message.attachments.map((a) => ({
      filename: a.filename,
      contentType: a.contentType,
      size: a.size,
      inline: a.inline,
    })),
    inReplyTo: message.inReplyTo,
    references: [...message.references],
  };
}

export interface Scored {
  readonly message: StoredMessage;
  readonly highlights: Highlights;
  readonly score: number;
  readonly explain?: Explanation;
}

/** What a hit is built from besides the query: the message, its indexed language and bulk flag. */
export interface HitSource {
  readonly message: StoredMessage;
  readonly language: Language | null;
  readonly bulk: boolean;
}

/**
 * Per-connection memories for a long-lived process (state-cache.ts), exact while the
 * archive state holds. Once a query's ranked head was kept, loading each hit's message
 * (five queries and an inflate) and locating the terms in its fields (analysing each
 * field) were ~70% of a served search's CPU (measured, 100k, bench:http steady state);
 * the messages that rank high recur across queries, and an agent repeats queries.
 */
const SOURCE_CHARS = 16 * 1024 * 1024;
const sources = new StateCache<HitSource>(SOURCE_CHARS, ({ message }) => messageChars(message));
const highlightsKept = new StateCache<Highlights>(16_384, () => 1);
const threadsKept = new StateCache<ThreadSummary>(8_192, () => 1);

/** Forgets every kept hit source, highlight and thread summary of `db`. */
export function clearHitCaches(db: Db): void {
  sources.clear(db);
  highlightsKept.clear(db);
  threadsKept.clear(db);
}

/** Characters a loaded message holds, roughly: its cleaned body and attachment texts. */
function messageChars(message: StoredMessage): number {
  // `body` is the flattened text every other part (forwarded blocks too) is a span of:
  // the parts double it.
  let chars = 1024 + 2 * message.cleaned.body.length + message.subject.length;
  for (const a of message.attachments) chars += a.extraction?.text?.length ?? 0;
  return chars;
}

/** The sources of `rowids` that exist, by row id as a string (the cache's keys). */
function loadSources(db: Db, rowids: readonly number[]): Map<string, HitSource> {
  const messages = loadMessages(db, rowids);
  const stored = sql(
    db,
    'SELECT rowid, language, bulk FROM keyword_docs WHERE rowid IN (SELECT value FROM json_each(?))',
  ).all(JSON.stringify(rowids)) as Array<{ rowid: number; language: string | null; bulk: number }>;
  const docs = new Map(stored.map((doc) => [doc.rowid, doc]));
  const sourcesOf = new Map<string, HitSource>();
  for (const [rowid, message] of messages) {
    const doc = docs.get(rowid);
    const language = doc?.language != null && isLanguage(doc.language) ? doc.language : null;
    sourcesOf.set(String(rowid), { message, language, bulk: Boolean(doc?.bulk) });
  }
  return sourcesOf;
}

/** What the hits of `rowids` are built from, in their order: those not kept loaded together. */
export function hitSources(db: Db, state: string, rowids: readonly number[]): HitSource[] {
  return sources.getAll(db, state, rowids.map(String), (missing) => loadSources(db, missing.map(Number)));
}

/** The query's highlight terms, as a key: equal keys, equal highlights. */
export function highlightKey(terms: HighlightTerms): string {
  return JSON.stringify([
    terms.identifierGroups,
    [...terms.textExact],
    terms.textCompounds,
    [...terms.stems],
  ]);
}

/** The archive state hits are kept under, and the query's highlight terms with their key. */
export interface HitContext {
  readonly state: string;
  readonly terms: HighlightTerms;
  readonly termsKey: string;
}

/**
 * Loads a ranked row and attributes its match. Fields are attributed by locating the
 * query's terms in each field's text, the same way the index matched them; `explain`
 * adds the index's own per-column scores.
 */
export function scoreDetails(
  db: Db,
  source: HitSource,
  row: { rowid: number; score: number },
  hit: HitContext,
  explain: {
    contributions: Record<Column, number> | undefined;
    recency: number;
    match: 'exact' | 'fuzzy';
  } | null,
): Scored {
  const { message, language } = source;
  const highlights = highlightsKept.get(db, hit.state, `${row.rowid}\u0001${hit.termsKey}`, () =>
    buildHighlights(fieldTexts(message), language, hit.terms),
  );
  if (!explain) return { message, highlights, score: row.score };
  const bulk = source.bulk ? BULK_FACTOR : 1;
  const fields: Partial<Record<Column, number>> = {};
  for (const column of COLUMNS) {
    const value = explain.contributions?.[column] ?? 0;
    if (value !== 0) fields[column] = value;
  }
  return {
    message,
    highlights,
    score: row.score,
    explain: {
      fields,
      bm25: row.score / (explain.recency * bulk),
      recency: explain.recency,
      bulk,
      match: explain.match,
    },
  };
}

export function messageHit(scored: Scored): MessageHit {
  return {
    ...messageItem(scored.message),
    highlights: scored.highlights,
    score: scored.score,
    ...(scored.explain ? { explain: scored.explain } : {}),
  };
}

interface ThreadRow {
  message_id: string;
  date: number;
  from_name: string;
  from_address: string;
  to_json: string;
  cc_json: string;
  subject: string;
}

/** Who took part in a thread, how long it is, and its first subject and last message. */
interface ThreadSummary {
  readonly subject: string | undefined;
  readonly senders: string[];
  readonly recipients: string[];
  readonly messageCount: number;
  readonly last: ThreadRow | undefined;
}

function summarizeThread(db: Db, inboxId: number, threadId: string): ThreadSummary {
  const rows = sql(
    db,
    `SELECT message_id, date, from_name, from_address, to_json, cc_json, subject FROM messages
     WHERE inbox_id = ? AND thread_id = ? ORDER BY date, id`,
  ).all(inboxId, threadId) as ThreadRow[];
  const senders = new Set<string>();
  const recipients = new Set<string>();
  for (const row of rows) {
    if (row.from_address || row.from_name)
      senders.add(formatAddress({ name: row.from_name, address: row.from_address }));
    for (const a of [...JSON.parse(row.to_json), ...JSON.parse(row.cc_json)] as Array<{
      name: string;
      address: string;
    }>) {
      recipients.add(formatAddress(a));
    }
  }
  return {
    subject: rows[0]?.subject,
    senders: [...senders],
    recipients: [...recipients],
    messageCount: rows.length,
    last: rows[rows.length - 1],
  };
}

export function threadHit(db: Db, state: string, scored: Scored): ThreadHit {
  const { message } = scored;
  const thread = threadsKept.get(db, state, `${message.inboxId}:${message.threadId}`, () =>
    summarizeThread(db, message.inboxId, message.threadId),
  );
  const { last } = thread;
  return {
    threadId: message.threadId,
    subject: thread.subject ?? message.subject,
    // Copies: the summary is kept for later requests.
    senders: [...thread.senders],
    recipients: [...thread.recipients],
    messageCount: thread.messageCount,
    lastMessageId: last?.message_id ?? message.messageId,
    timestamp: new Date(last?.date ?? message.date.getTime()).toISOString(),
    preview: preview(message),
    highlights: scored.highlights,
    score: scored.score,
    ...(scored.explain ? { explain: scored.explain } : {}),
  };
}

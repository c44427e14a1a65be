// Result shapes (AgentMail's public field names) built from stored messages: message
// hits, thread hits, previews, highlights and the optional explanation.

import { isLanguage, type Language } from '../analysis/index.js';
import { COLUMNS, type Column, fieldTexts, formatAddress } from '../index/index.js';
import { type Db, loadMessage, type StoredMessage, sql } from '../store/index.js';
import { buildHighlights, type Highlights } from './highlights.js';
import type { HighlightTerms } from './match.js';
import { BULK_FACTOR } from './ranked-query.js';

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
  readonly to: string[];
  readonly cc: string[];
  readonly subject: string;
  readonly preview: string;
  readonly attachments: AttachmentSummary[];
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

export function messageItem(message: StoredMessage): MessageItem {
  return {
    inboxId: message.inbox,
    threadId: message.threadId,
    messageId: message.messageId,
    labels: message.labels,
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
    references: message.references,
  };
}

export interface Scored {
  readonly message: StoredMessage;
  readonly highlights: Highlights;
  readonly score: number;
  readonly explain?: Explanation;
}

/**
 * Loads a ranked row and attributes its match. Fields are attributed by locating the
 * query's terms in each field's text, the same way the index matched them; `explain`
 * adds the index's own per-column scores.
 */
export function scoreDetails(
  db: Db,
  row: { rowid: number; score: number },
  terms: HighlightTerms,
  explain: {
    contributions: Record<Column, number> | undefined;
    recency: number;
    match: 'exact' | 'fuzzy';
  } | null,
): Scored {
  const message = loadMessage(db, row.rowid) as StoredMessage;
  const stored = sql(db, 'SELECT language, bulk FROM keyword_docs WHERE rowid = ?').get(row.rowid) as
    | { language: string | null; bulk: number }
    | undefined;
  const language: Language | null =
    stored?.language != null && isLanguage(stored.language) ? stored.language : null;
  const highlights = buildHighlights(fieldTexts(message), language, terms);
  if (!explain) return { message, highlights, score: row.score };
  const bulk = stored?.bulk ? BULK_FACTOR : 1;
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

export function threadHit(db: Db, scored: Scored): ThreadHit {
  const { message } = scored;
  const rows = sql(
    db,
    `SELECT message_id, date, from_name, from_address, to_json, cc_json, subject FROM messages
     WHERE inbox_id = ? AND thread_id = ? ORDER BY date, id`,
  ).all(message.inboxId, message.threadId) as ThreadRow[];
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
  const last = rows[rows.length - 1];
  return {
    threadId: message.threadId,
    subject: rows[0]?.subject ?? message.subject,
    senders: [...senders],
    recipients: [...recipients],
    messageCount: rows.length,
    lastMessageId: last?.message_id ?? message.messageId,
    timestamp: new Date(last?.date ?? message.date.getTime()).toISOString(),
    preview: preview(message),
    highlights: scored.highlights,
    score: scored.score,
    ...(scored.explain ? { explain: scored.explain } : {}),
  };
}

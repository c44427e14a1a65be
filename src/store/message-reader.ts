// Reads messages, threads and archive statistics back out of the store.

import { inflateRawSync } from 'node:zlib';
import { MailsiftError } from '../core/errors.js';
import type { Address, AuthVerdicts, CleanedBody, DateSource } from '../core/types.js';
import { type Db, sql } from './archive.js';
import { loadExtraction } from './attachment-texts.js';
import type { StoredAttachment, StoredMessage } from './records.js';

interface MessageRow {
  id: number;
  inbox_id: number;
  inbox: string;
  message_id: string;
  header_message_id: string | null;
  variant_of_id: string | null;
  thread_id: string;
  date: number;
  date_source: string;
  from_name: string;
  from_address: string;
  to_json: string;
  cc_json: string;
  bcc_json: string;
  reply_to_json: string;
  subject: string;
  in_reply_to: string | null;
  references_json: string;
  auth_json: string;
  list_id: string | null;
  warnings_json: string;
  attachment_count: number;
  body: Buffer;
}

const SELECT_MESSAGE = `
  SELECT m.*, i.name AS inbox, v.message_id AS variant_of_id
  FROM messages m JOIN inboxes i ON i.id = m.inbox_id LEFT JOIN messages v ON v.id = m.variant_of`;

/** Strips the angle brackets and whitespace a caller may have left around a Message-ID. */
export function normalizeIdArgument(id: string): string {
  return id.trim().replace(/^<+/, '').replace(/>+$/, '').trim();
}

export function inboxByName(db: Db, name: string): { id: number; name: string } {
  const row = sql(db, 'SELECT id, name FROM inboxes WHERE name = ?').get(name) as
    | { id: number; name: string }
    | undefined;
  if (!row) throw new MailsiftError('no_such_item', `no inbox named '${name}'`, { param: 'inbox' });
  return row;
}

/** One message by row id: its row read by key (reindex and extraction load one at a time). */
export function loadMessage(db: Db, rowid: number): StoredMessage | undefined {
  const row = sql(db, `${SELECT_MESSAGE} WHERE m.id = ?`).get(rowid) as MessageRow | undefined;
  return row && toStoredMessages(db, [row])[0];
}

/**
 * The messages of `rowids` that exist, by row id, read a table at a time: a page of hits
 * costs four queries, not four per message (1M archive, ten random messages warm: 1.0-1.5
 * against 1.5-2.4 ms).
 */
export function loadMessages(db: Db, rowids: readonly number[]): Map<number, StoredMessage> {
  const rows = sql(db, `${SELECT_MESSAGE} WHERE m.id IN (SELECT value FROM json_each(?))`).all(
    JSON.stringify(rowids),
  ) as MessageRow[];
  return new Map(toStoredMessages(db, rows).map((message) => [message.rowid, message]));
}

/**
 * Finds a message by Message-ID (with or without angle brackets), optionally within one
 * inbox. The domain part of stored ids is lowercased, so the lookup tries that form too.
 */
export function findMessage(db: Db, id: string, inboxId?: number): StoredMessage | undefined {
  const wanted = normalizeIdArgument(id);
  const at = wanted.lastIndexOf('@');
  const lowered = at < 0 ? wanted : wanted.slice(0, at) + wanted.slice(at).toLowerCase();
  // Every inbox named, so the (inbox, message_id) index is searched once per inbox: on
  // message_id alone SQLite scanned the whole index (7-16 ms at 1M messages).
  const inboxes = inboxId === undefined ? 'SELECT id FROM inboxes' : '?';
  const args = inboxId === undefined ? [] : [inboxId];
  for (const candidate of new Set([wanted, lowered])) {
    const row = sql(
      db,
      `${SELECT_MESSAGE} WHERE m.inbox_id IN (${inboxes}) AND m.message_id = ? ORDER BY m.inbox_id LIMIT 1`,
    ).get(...args, candidate) as MessageRow | undefined;
    if (row) return toStoredMessages(db, [row])[0];
  }
  return undefined;
}

/** Resolves a thread id (following merge aliases) to the id it has now. */
export function resolveThreadId(db: Db, inboxId: number, threadId: string): string | undefined {
  const live = sql(db, 'SELECT id FROM threads WHERE inbox_id = ? AND id = ?').get(inboxId, threadId);
  if (live) return threadId;
  const alias = sql(db, 'SELECT new_id FROM thread_aliases WHERE inbox_id = ? AND old_id = ?').get(
    inboxId,
    threadId,
  ) as { new_id: string } | undefined;
  return alias?.new_id;
}

export interface ThreadEntry {
  readonly message: StoredMessage;
  readonly depth: number;
}

/** A thread as the read commands and the API show it: its messages in tree order. */
export interface ThreadView {
  readonly inbox: string;
  readonly threadId: string;
  readonly entries: readonly ThreadEntry[];
}

/** A node of the thread graph: a Message-ID (of a stored message or a placeholder) and its parent. */
export interface ThreadNode {
  readonly messageId: string;
  readonly parentId: string | null;
}

const THREAD_NODES =
  'SELECT message_id AS messageId, parent_id AS parentId FROM thread_nodes WHERE inbox_id = ? AND thread_id = ?';

/** A thread's messages in tree order (children by date), each with its depth. */
export function loadThread(db: Db, inboxId: number, threadId: string): ThreadEntry[] {
  const nodes = sql(db, THREAD_NODES).all(inboxId, threadId) as ThreadNode[];
  const rows = sql(
    db,
    `${SELECT_MESSAGE} WHERE m.inbox_id = ? AND m.thread_id = ? ORDER BY m.date, m.id`,
  ).all(inboxId, threadId) as MessageRow[];
  return threadEntries(nodes, toStoredMessages(db, rows));
}

/**
 * The path from a message's node up to its thread's root (the node itself first), placeholders
 * included: what the thread tree needs of the graph to place this message. The union of the
 * paths of a thread's messages orders it as `loadThread` does (a copy of the archive keeps
 * them beside each message, see src/backend/opensearch).
 */
export function threadPath(db: Db, message: StoredMessage): ThreadNode[] {
  const nodes = sql(db, THREAD_NODES).all(message.inboxId, message.threadId) as ThreadNode[];
  const parentOf = new Map(nodes.map((n) => [n.messageId, n.parentId]));
  const path: ThreadNode[] = [];
  const seen = new Set<string>();
  let node: string | null = message.headerMessageId ?? message.messageId;
  while (node !== null && parentOf.has(node) && !seen.has(node)) {
    seen.add(node);
    const parentId: string | null = parentOf.get(node) ?? null;
    path.push({ messageId: node, parentId });
    node = parentId;
  }
  return path;
}

/**
 * Orders a thread's messages (given by date) as a tree: roots and each node's children by
 * their first date, each message with its depth. Placeholders (nodes without a message) are
 * walked through, not shown: their children keep the depth they would have had.
 */
export function threadEntries(
  nodes: readonly ThreadNode[],
  messages: readonly StoredMessage[],
): ThreadEntry[] {
  const parentOf = new Map(nodes.map((n) => [n.messageId, n.parentId]));
  const byNode = new Map<string, StoredMessage[]>();
  for (const message of messages) {
    const node = message.headerMessageId ?? message.messageId;
    byNode.set(node, [...(byNode.get(node) ?? []), message]);
  }
  const children = new Map<string | null, string[]>();
  for (const node of nodes) {
    const parent = node.parentId !== null && parentOf.has(node.parentId) ? node.parentId : null;
    children.set(parent, [...(children.get(parent) ?? []), node.messageId]);
  }
  const firstDate = (node: string): number => byNode.get(node)?.[0]?.date.getTime() ?? subtreeDate(node);
  const subtreeDate = (node: string): number =>
    Math.min(Number.MAX_SAFE_INTEGER, ...(children.get(node) ?? []).map((c) => firstDate(c)));
  const result: ThreadEntry[] = [];
  const visited = new Set<string>();
  const walk = (node: string, depth: number): void => {
    if (visited.has(node)) return;
    visited.add(node);
    const own = byNode.get(node) ?? [];
    for (const message of own) result.push({ message, depth });
    const next = [...(children.get(node) ?? [])].sort(
      (a, b) => firstDate(a) - firstDate(b) || (a < b ? -1 : 1),
    );
    for (const child of next) walk(child, own.length > 0 ? depth + 1 : depth);
  };
  const roots = [...(children.get(null) ?? [])].sort(
    (a, b) => firstDate(a) - firstDate(b) || (a < b ? -1 : 1),
  );
  for (const root of roots) walk(root, 0);
  return result;
}

interface AttachmentRow {
  message_rowid: number;
  filename: string | null;
  content_type: string;
  size: number;
  sha256: string;
  content_id: string | null;
  inline: number;
}

/** The rows `select` reads for the messages of `rowids` (bound as one JSON array), grouped by message in its order. */
function byMessage<T extends { message_rowid: number }>(
  db: Db,
  select: string,
  rowids: readonly number[],
): Map<number, T[]> {
  const grouped = new Map<number, T[]>();
  if (rowids.length === 0) return grouped;
  for (const row of sql(db, select).all(JSON.stringify(rowids)) as T[]) {
    const list = grouped.get(row.message_rowid);
    if (list) list.push(row);
    else grouped.set(row.message_rowid, [row]);
  }
  return grouped;
}

const OF_MESSAGES = 'message_rowid IN (SELECT value FROM json_each(?))';

/** Stored messages from their rows, their attachments, labels and folders read for all of them at once. */
function toStoredMessages(db: Db, rows: readonly MessageRow[]): StoredMessage[] {
  const ids = rows.map((row) => row.id);
  const attachments = byMessage<AttachmentRow>(
    db,
    `SELECT * FROM attachments WHERE ${OF_MESSAGES} ORDER BY message_rowid, ordinal`,
    rows.filter((row) => row.attachment_count > 0).map((row) => row.id),
  );
  const labels = byMessage<{ message_rowid: number; label: string }>(
    db,
    `SELECT message_rowid, label FROM message_labels WHERE ${OF_MESSAGES} ORDER BY message_rowid, label`,
    ids,
  );
  const folders = byMessage<{ message_rowid: number; folder: string }>(
    db,
    `SELECT DISTINCT message_rowid, folder FROM locations WHERE ${OF_MESSAGES} ORDER BY message_rowid, folder`,
    ids,
  );
  return rows.map(
    (row): StoredMessage => ({
      rowid: row.id,
      inboxId: row.inbox_id,
      inbox: row.inbox,
      messageId: row.message_id,
      headerMessageId: row.header_message_id,
      variantOf: row.variant_of_id,
      threadId: row.thread_id,
      date: new Date(row.date),
      dateSource: row.date_source as DateSource,
      from: row.from_address || row.from_name ? { name: row.from_name, address: row.from_address } : null,
      to: JSON.parse(row.to_json) as Address[],
      cc: JSON.parse(row.cc_json) as Address[],
      bcc: JSON.parse(row.bcc_json) as Address[],
      replyTo: JSON.parse(row.reply_to_json) as Address[],
      subject: row.subject,
      inReplyTo: row.in_reply_to,
      references: JSON.parse(row.references_json) as string[],
      auth: JSON.parse(row.auth_json) as AuthVerdicts,
      listId: row.list_id,
      labels: (labels.get(row.id) ?? []).map((l) => l.label),
      folders: (folders.get(row.id) ?? []).map((f) => f.folder),
      warnings: JSON.parse(row.warnings_json) as string[],
      attachments: (attachments.get(row.id) ?? []).map(
        (a): StoredAttachment => ({
          filename: a.filename,
          contentType: a.content_type,
          size: a.size,
          sha256: a.sha256,
          contentId: a.content_id,
          inline: a.inline === 1,
          extraction: loadExtraction(db, a.sha256),
        }),
      ),
      cleaned: JSON.parse(inflateRawSync(row.body).toString('utf8')) as CleanedBody,
    }),
  );
}

/** The original bytes of a message. */
export function loadRaw(db: Db, rowid: number): Buffer {
  return inflateRawSync(loadRawDeflated(db, rowid));
}

/** The original bytes of a message as stored: raw-deflated. */
export function loadRawDeflated(db: Db, rowid: number): Buffer {
  const row = sql(
    db,
    'SELECT r.deflated FROM messages m JOIN raw_messages r ON r.id = m.raw_id WHERE m.id = ?',
  ).get(rowid) as { deflated: Buffer } | undefined;
  if (!row)
    throw new MailsiftError('no_such_item', `no stored bytes for message row ${rowid}`, {
      param: 'messageId',
    });
  return row.deflated;
}

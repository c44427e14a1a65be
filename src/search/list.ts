// Filtered lists: every given filter must match, never scored, chronological, keyset-paged
// on (date, rowid) so any depth costs the same as the first page.

import { parseQuery } from '../analysis/index.js';
import { type Column, indexSecret } from '../index/index.js';
import { type Db, inboxByName, loadMessages, type StoredMessage, sql } from '../store/index.js';
import { type MessageItem, messageItem } from './hits.js';
import { listMatches, matchedPageRows } from './list-postings.js';
import {
  DENSE_SHARE,
  matchingSenders,
  pageRows,
  type RowQuery,
  type SenderPlan,
  senderPlan,
} from './list-senders.js';
import { identifierExpression, identifierPostings } from './match.js';
import { decodePageToken, encodePageToken, fingerprint } from './page-token.js';
import { type AttachmentTypeFilter, type ListRequest, validateListParams } from './params.js';
import type { Groups } from './segment-scores.js';

export interface ListResult {
  readonly count: number;
  readonly limit: number;
  readonly nextPageToken: string | null;
  readonly messages: MessageItem[];
}

/** An identifier filter as an FTS5 expression, and as postings groups when they can match it. */
interface IdentifierFilter {
  readonly expression: string;
  readonly groups: Groups | null;
}

/** Identifier prefix semantics, confined to one column: every run of `value` must match there. */
function identifierFilter(column: Column, value: string): IdentifierFilter | null {
  const groups = parseQuery(value);
  if (groups.length === 0) return null;
  const postings = groups.map((g) => identifierPostings(g, [column]));
  return {
    expression: groups.map((g) => identifierExpression(g, [column])).join(' AND '),
    groups: postings.every((phrases) => phrases !== null) ? (postings as Groups) : null,
  };
}

/**
 * How a list reads its parts, for tests that compare them: the `from` filter (see SenderPlan),
 * and the identifier filters the keyword index matches, on the postings (the default when
 * they can match them) or through FTS5.
 */
export interface ListPlan {
  readonly from?: SenderPlan;
  readonly identifiers?: 'postings' | 'fts';
}

export function hiddenLabels(request: ListRequest): string[] {
  const hidden: string[] = [];
  if (!request.includeSpam && !request.labels.includes('spam')) hidden.push('spam');
  if (!request.includeTrash && !request.labels.includes('trash')) hidden.push('trash');
  if (!request.labels.includes('blocked')) hidden.push('blocked');
  return hidden;
}

function singleInbox(db: Db): number {
  const rows = sql(db, 'SELECT id FROM inboxes LIMIT 2').pluck().all() as number[];
  return rows.length === 1 ? (rows[0] as number) : 0;
}

// The highest rowid stands in for the message count: close enough, and free.
const highestRowid = (db: Db): number =>
  (sql(db, 'SELECT max(id) FROM messages').pluck().get() as number | null) ?? 0;

const attachmentTypeValue = (filter: AttachmentTypeFilter): string =>
  'format' in filter ? filter.format : filter.mimeType;

/**
 * SQL matching messages with a non-inline attachment of the type (bound as @attachmentType).
 * A common type is checked per message while walking the date index, which fills a page
 * after a few rows; a rare one would make that walk read the whole archive, so its few
 * carriers are collected first and the walk only probes them. Measured on 100k messages:
 * a type nobody carries took 90–120 ms per page walking, 6 ms collected.
 */
function attachmentTypeCondition(db: Db, filter: AttachmentTypeFilter, dense: number): string {
  // Inline parts (signature logos, embedded images) are not what "carries a PDF" means.
  const carriers = `attachments a JOIN attachment_texts t ON t.sha256 = a.sha256
    WHERE a.inline = 0 AND ${'format' in filter ? 't.format = @attachmentType' : 't.detected_type GLOB @attachmentType'}`;
  return countUpTo(db, carriers, { attachmentType: attachmentTypeValue(filter) }, dense) >= dense
    ? `EXISTS (SELECT 1 FROM ${carriers} AND a.message_rowid = m.id)`
    : `m.id IN (SELECT a.message_rowid FROM ${carriers})`;
}

/** The rows of `from` (an SQL FROM clause, its WHERE included), counted up to `most`. */
function countUpTo(db: Db, from: string, binds: Record<string, unknown>, most: number): number {
  return sql(db, `SELECT count(*) FROM (SELECT 1 FROM ${from} LIMIT @most)`)
    .pluck()
    .get({ ...binds, most }) as number;
}

/**
 * SQL of the `id`s carrying the rarest of `labels` (bound as @label0, @label1…) when fewer
 * than `dense` messages carry it: it drives the page (see RowQuery.driver). At 1M messages a
 * label nobody carried took 1.1 s walking the dates.
 */
function rareLabelRows(db: Db, labels: readonly string[], dense: number): string | undefined {
  let rarest: string | undefined;
  let fewest = dense;
  labels.forEach((label, i) => {
    const carriers = countUpTo(
      db,
      `message_labels WHERE label = @label${i}`,
      { [`label${i}`]: label },
      dense,
    );
    if (carriers >= fewest) return;
    fewest = carriers;
    rarest = `SELECT message_rowid AS id FROM message_labels WHERE label = @label${i}`;
  });
  return rarest;
}

/**
 * Lists messages matching every filter, newest first unless `ascending`. Params: see
 * listParamsSchema. `plan` forces how parts are read (tests compare the plans).
 */
export function listMessages(db: Db, params: unknown, plan: ListPlan = {}): ListResult {
  const request = validateListParams(params);
  return db.transaction(() => {
    const inboxId = request.inbox === null ? singleInbox(db) : inboxByName(db, request.inbox).id;
    const where: string[] = [];
    const binds: Record<string, unknown> = {};
    if (inboxId !== 0) {
      where.push('m.inbox_id = @inbox');
      binds.inbox = inboxId;
    }
    const fromMatch = identifierFilter('ident_from', request.from ?? '');
    const matches = [
      identifierFilter('ident_recipients', request.to ?? ''),
      identifierFilter('ident_subject', request.subject ?? ''),
    ].filter((m): m is IdentifierFilter => m !== null);
    const emptyText = [request.from, request.to, request.subject].some(
      (v) => v !== null && parseQuery(v).length === 0,
    );
    // With a recipients or subject filter, the keyword index intersects the fields itself.
    const chosen = plan.from ?? (matches.length > 0 ? 'index' : undefined);
    const senders =
      fromMatch === null || chosen === 'index' ? null : matchingSenders(db, fromMatch.expression, inboxId);
    const fromPlan = senders === null ? 'index' : (chosen ?? senderPlan(senders, highestRowid(db)));
    if (fromMatch !== null && fromPlan === 'index') matches.unshift(fromMatch);
    // A `from` filter read through its senders (a plan tests force beside these filters) pages
    // through pageRows, which reads the others in SQL.
    const onPostings =
      matches.length > 0 &&
      plan.identifiers !== 'fts' &&
      (senders === null || fromPlan === 'index') &&
      matches.every((match) => match.groups !== null);
    if (matches.length > 0 && !onPostings) {
      where.push('m.id IN (SELECT rowid FROM keyword_index WHERE keyword_index MATCH @match)');
      binds.match = matches.map((match) => match.expression).join(' AND ');
    }
    // Fewer than 1 in DENSE_SHARE messages: a set read first, not found by walking the dates.
    const dense = Math.max(1, Math.ceil(highestRowid(db) / DENSE_SHARE));
    request.labels.forEach((label, i) => {
      where.push(
        `EXISTS (SELECT 1 FROM message_labels l WHERE l.message_rowid = m.id AND l.label = @label${i})`,
      );
      binds[`label${i}`] = label;
    });
    const hidden = hiddenLabels(request);
    where.push(
      `NOT EXISTS (SELECT 1 FROM message_labels h WHERE h.message_rowid = m.id AND h.label IN (${hidden.map((l) => `'${l}'`).join(', ')}))`,
    );
    if (request.after !== null) {
      where.push('m.date >= @after');
      binds.after = request.after;
    }
    if (request.before !== null) {
      where.push('m.date < @before');
      binds.before = request.before;
    }
    if (request.hasAttachment !== null) {
      where.push(
        `${request.hasAttachment ? '' : 'NOT '}EXISTS (SELECT 1 FROM attachments a WHERE a.message_rowid = m.id AND a.inline = 0)`,
      );
    }
    if (request.attachmentType !== null) {
      where.push(attachmentTypeCondition(db, request.attachmentType, dense));
      binds.attachmentType = attachmentTypeValue(request.attachmentType);
    }
    let threadRows: string | undefined;
    if (request.threadId !== null) {
      const thread = 'SELECT @thread UNION SELECT new_id FROM thread_aliases WHERE old_id = @thread';
      where.push(`m.thread_id IN (${thread})`);
      binds.thread = request.threadId.trim();
      // A thread's few messages drive the page (messages_thread): walking the date order read
      // every message row of the inbox, 0.6 s warm and 11 s cold at 1M messages.
      const inboxes = inboxId !== 0 ? '@inbox' : 'SELECT id FROM inboxes';
      threadRows = `SELECT t.id AS id FROM messages t WHERE t.inbox_id IN (${inboxes}) AND t.thread_id IN (${thread})`;
    }
    const driver = threadRows ?? rareLabelRows(db, request.labels, dense);
    const print = fingerprint(['list', { ...request, limit: null, pageToken: null }]);
    const secret = indexSecret(db);
    const dir = request.ascending ? '>' : '<';
    let position: { date: number; rowid: number } | undefined;
    if (request.pageToken !== null) {
      const token = decodePageToken(secret, request.pageToken, {
        kinds: ['list'],
        fingerprint: print,
        inbox: inboxId,
      });
      position = { date: token.position.date, rowid: token.position.rowid };
      where.push(`(m.date ${dir} @date OR (m.date = @date AND m.id ${dir} @rowid))`);
      binds.date = position.date;
      binds.rowid = position.rowid;
    }
    const query: RowQuery = {
      where,
      binds,
      ascending: request.ascending,
      rows: request.limit + 1,
      ...(driver ? { driver } : {}),
    };
    const rows = emptyText
      ? []
      : onPostings
        ? matchedPageRows(
            db,
            query,
            listMatches(
              db,
              matches.flatMap((match) => match.groups ?? []),
            ),
            {
              ascending: request.ascending,
              after: request.after,
              before: request.before,
              position: position ?? null,
              among: driver ? new Set(sql(db, driver).pluck().all(binds) as number[]) : null,
            },
          )
        : pageRows(
            db,
            query,
            senders !== null && fromPlan !== 'index' ? { senders, plan: fromPlan } : undefined,
          );
    const page = rows.slice(0, request.limit);
    const last = page[page.length - 1];
    const nextPageToken =
      rows.length > request.limit && last
        ? encodePageToken(secret, {
            kind: 'list',
            fingerprint: print,
            inbox: inboxId,
            origin: 0,
            watermark: 0,
            position: { score: 0, date: last.date, rowid: last.rowid },
            snapshot: null,
            offset: 0,
          })
        : null;
    const loaded = loadMessages(
      db,
      page.map((r) => r.rowid),
    );
    const messages = page.map((r) => messageItem(loaded.get(r.rowid) as StoredMessage));
    return { count: messages.length, limit: request.limit, nextPageToken, messages };
  })();
}

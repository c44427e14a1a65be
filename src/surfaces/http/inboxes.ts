// Inbox listing with message and thread counts (an engine gap filled here from the db),
// paged by name so the order is stable while inboxes are added.

import { MailsiftError } from '../../core/errors.js';
import { type Db, sql } from '../../store/index.js';

export interface InboxSummary {
  readonly inboxId: string;
  readonly messageCount: number;
  readonly threadCount: number;
}

export interface InboxList {
  readonly count: number;
  readonly limit: number;
  readonly nextPageToken: string | null;
  readonly inboxes: InboxSummary[];
}

export const MAX_INBOX_LIMIT = 100;

export function inboxSummary(db: Db, inbox: { id: number; name: string }): InboxSummary {
  const count = (text: string): number => (sql(db, text).get(inbox.id) as { n: number }).n;
  return {
    inboxId: inbox.name,
    messageCount: count('SELECT count(*) AS n FROM messages WHERE inbox_id = ?'),
    threadCount: count('SELECT count(*) AS n FROM threads WHERE inbox_id = ?'),
  };
}

/** Inboxes in name order; `visible` (null = all) hides the ones a key may not see. */
export function listInboxes(
  db: Db,
  options: { limit?: number; pageToken?: string; visible: readonly string[] | null },
): InboxList {
  const rows = sql(db, 'SELECT id, name FROM inboxes ORDER BY name').all() as Array<{
    id: number;
    name: string;
  }>;
  const byName = new Map(rows.map((row) => [row.name, row]));
  return inboxPage(
    rows.map((row) => row.name),
    options,
    (name) => inboxSummary(db, byName.get(name) as { id: number; name: string }),
  );
}

/**
 * One page of inboxes out of `names` (in name order): those `visible` lets through after the
 * page token's name, each summarised by `summary`.
 */
export function inboxPage(
  names: readonly string[],
  options: { limit?: number; pageToken?: string; visible: readonly string[] | null },
  summary: (name: string) => InboxSummary,
): InboxList {
  const limit = options.limit ?? MAX_INBOX_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_INBOX_LIMIT) {
    throw new MailsiftError('invalid_argument', `limit: must be an integer from 1 to ${MAX_INBOX_LIMIT}`, {
      param: 'limit',
    });
  }
  let after = '';
  if (options.pageToken !== undefined) {
    const decoded = /^i1\.[A-Za-z0-9_-]*$/.test(options.pageToken)
      ? Buffer.from(options.pageToken.slice(3), 'base64url').toString('utf8')
      : '';
    if (decoded === '')
      throw new MailsiftError('invalid_page_token', 'pageToken is malformed', { param: 'pageToken' });
    after = decoded;
  }
  const visible = names.filter(
    (name) => name > after && (options.visible === null || options.visible.includes(name)),
  );
  const page = visible.slice(0, limit);
  const last = page[page.length - 1];
  const nextPageToken =
    visible.length > limit && last ? `i1.${Buffer.from(last, 'utf8').toString('base64url')}` : null;
  const inboxes = page.map(summary);
  return { count: inboxes.length, limit, nextPageToken, inboxes };
}

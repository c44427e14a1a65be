// A list's page rows, and its `from` filter through the distinct senders: the filter's FTS5
// expression is matched against one row per sender (a connection-local FTS5 table fed from
// the store's senders table), then the page reads only the matching senders' messages.

import { identifierAnalyzer } from '../analysis/index.js';
import { formatAddress, KEYWORD_TOKENIZER } from '../index/index.js';
import { type Db, sql } from '../store/index.js';

export interface Sender {
  readonly id: number;
  readonly inbox: number;
  readonly address: string;
  readonly name: string;
  readonly messages: number;
}

/** The page query without its `from` filter: conditions on `m`, binds, direction, rows wanted. */
export interface RowQuery {
  readonly where: readonly string[];
  readonly binds: Readonly<Record<string, unknown>>;
  readonly ascending: boolean;
  readonly rows: number;
  /**
   * SQL selecting the `id`s of a small set every row belongs to (a thread, a label few
   * messages carry): its messages are read and sorted, where walking the date order would
   * read the archive. A `from` filter read through its senders drives its own pages instead.
   */
  readonly driver?: string;
}

export interface PageRow {
  readonly rowid: number;
  readonly date: number;
}

/**
 * How the matching senders' messages are read:
 * - `each`: per sender, its newest rows from messages_sender, merged (few senders, any size);
 * - `walk`: the date order, probing each row's sender (many senders, common together);
 * - `collect`: every message of the senders, then sorted (many senders, rare together);
 * - `index`: the keyword index's matches, intersected there with a recipients or subject
 *   filter (and the only plan of a read-only archive that predates the senders table).
 */
export type SenderPlan = 'each' | 'walk' | 'collect' | 'index';

/**
 * At most this many senders are read one by one. Measured on 1M messages: a sender costs
 * about 0.07 ms whatever its size; 'co' (1,235 senders) took 74 ms so, 3 ms walking.
 */
const EACH_MAX = 16;
/**
 * What at least 1 in DENSE_SHARE messages carries (senders, attachment types) is found by
 * walking the date order; anything rarer is collected first.
 */
export const DENSE_SHARE = 50;

/**
 * How to read the messages of the senders a `from` filter matched; `highest` (the highest
 * message rowid) stands in for the message count.
 */
export function senderPlan(senders: readonly Sender[], highest: number): SenderPlan {
  if (senders.length <= EACH_MAX) return 'each';
  const messages = senders.reduce((sum, s) => sum + s.messages, 0);
  return messages * DENSE_SHARE >= highest ? 'walk' : 'collect';
}

const TERMS_TABLE = 'temp.list_senders';

const hasSenders = (db: Db): boolean =>
  sql(db, "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'senders'").get() !== undefined;

/**
 * Brings the connection's sender terms up to date: senders ids only grow (AUTOINCREMENT), so
 * the new ones are those above the highest already analysed; deleted ones fall out in the join.
 */
function syncSenderTerms(db: Db): void {
  db.exec(
    `CREATE VIRTUAL TABLE IF NOT EXISTS ${TERMS_TABLE} USING fts5(ident_from, tokenize=${KEYWORD_TOKENIZER})`,
  );
  const seen =
    (sql(db, `SELECT rowid FROM ${TERMS_TABLE} ORDER BY rowid DESC LIMIT 1`).pluck().get() as
      | number
      | undefined) ?? 0;
  const fresh = sql(db, 'SELECT id, name, address FROM senders WHERE id > ? ORDER BY id').all(seen) as Array<{
    id: number;
    name: string;
    address: string;
  }>;
  const insert = sql(db, `INSERT INTO ${TERMS_TABLE} (rowid, ident_from) VALUES (?, ?)`);
  const analyzer = identifierAnalyzer();
  for (const sender of fresh) {
    // As the keyword index analyses a message's sender (fieldTexts, then the identifier chain).
    insert.run(
      sender.id,
      analyzer
        .analyze(formatAddress(sender), 'document')
        .map((t) => t.term)
        .join(' '),
    );
  }
}

/**
 * The senders (of `inbox`, or of every inbox when 0) matching `match`, an FTS5 expression on
 * the `ident_from` column; null when the archive has no senders table.
 */
export function matchingSenders(db: Db, match: string, inbox: number): Sender[] | null {
  if (!hasSenders(db)) return null;
  syncSenderTerms(db);
  return sql(
    db,
    `SELECT s.id, s.inbox_id AS inbox, s.address, s.name, s.messages
     FROM ${TERMS_TABLE} f JOIN senders s ON s.id = f.rowid
     WHERE f.list_senders MATCH @match AND (@inbox = 0 OR s.inbox_id = @inbox)`,
  ).all({ match, inbox }) as Sender[];
}

/**
 * The page rows of `query`; with `from`, only the messages of its senders, read as its plan
 * says (the 'index' plan is a keyword index condition in `query` itself).
 */
export function pageRows(
  db: Db,
  query: RowQuery,
  from?: { readonly senders: readonly Sender[]; readonly plan: Exclude<SenderPlan, 'index'> },
): PageRow[] {
  const order = query.ascending ? 'ASC' : 'DESC';
  const tail = `AND ${query.where.join(' AND ')} ORDER BY m.date ${order}, m.id ${order} LIMIT @rows`;
  const binds = { ...query.binds, rows: query.rows };
  if (from === undefined) {
    const source =
      query.driver === undefined ? 'messages m' : `(${query.driver}) r CROSS JOIN messages m ON m.id = r.id`;
    return sql(db, `SELECT m.id AS rowid, m.date AS date FROM ${source} WHERE 1 ${tail}`).all(
      binds,
    ) as PageRow[];
  }
  if (from.senders.length === 0) return [];
  const ids = { ...binds, senders: JSON.stringify(from.senders.map((s) => s.id)) };
  if (from.plan === 'walk') {
    return sql(
      db,
      `SELECT m.id AS rowid, m.date AS date FROM messages m
       WHERE (m.inbox_id, m.from_address, m.from_name) IN
         (SELECT inbox_id, address, name FROM senders WHERE id IN (SELECT value FROM json_each(@senders))) ${tail}`,
    ).all(ids) as PageRow[];
  }
  if (from.plan === 'collect') {
    return sql(
      db,
      `SELECT m.id AS rowid, m.date AS date FROM senders s CROSS JOIN messages m INDEXED BY messages_sender
         ON m.inbox_id = s.inbox_id AND m.from_address = s.address AND m.from_name = s.name
       WHERE s.id IN (SELECT value FROM json_each(@senders)) ${tail}`,
    ).all(ids) as PageRow[];
  }
  const one = sql(
    db,
    `SELECT m.id AS rowid, m.date AS date FROM messages m INDEXED BY messages_sender
     WHERE m.inbox_id = @senderInbox AND m.from_address = @senderAddress AND m.from_name = @senderName ${tail}`,
  );
  const rows = from.senders.flatMap(
    (s) =>
      one.all({ ...binds, senderInbox: s.inbox, senderAddress: s.address, senderName: s.name }) as PageRow[],
  );
  const sign = query.ascending ? 1 : -1;
  rows.sort((a, b) => sign * (a.date - b.date || a.rowid - b.rowid));
  return rows.slice(0, query.rows);
}

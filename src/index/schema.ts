// The keyword index's tables: an FTS5 table fed with pre-analysed terms, a side table of
// indexed rows (trust flag, checksum) and a small meta table (version, state, secret).
// Created idempotently on open, so the store's migrations stay the store's own.

import { MailsiftError } from '../core/errors.js';
import { nodeCrypto } from '../core/node-crypto.js';
import { type Db, SCRATCH, sql } from '../store/index.js';

/**
 * Bumped whenever analysis or column layout changes: an index written by another version
 * is reported stale and must be rebuilt with `reindex`.
 */
export const INDEX_VERSION = '16';

/** FTS5 columns in declaration order; bm25 weights and one-hot explain vectors follow it. */
export const COLUMNS = [
  'ident_from',
  'ident_recipients',
  'ident_subject',
  'text_authored',
  'text_forwarded',
  'text_stems',
  'text_attachments',
  'text_quoted',
  // 'bulk' for mailing-list mail (newsletters, notifications), else empty: lets ranking read the
  // bulk and the other matches apart without a join (weight 0, it never scores).
  'kind',
] as const;

export type Column = (typeof COLUMNS)[number];

export interface Family {
  readonly columns: readonly Column[];
}

/**
 * Column families with postings of their own. Identifier fields are matched by prefix, so
 * their terms are kept apart from the far larger text fields': a prefix expands over
 * identifier terms only. The `kind` column is a doc table flag.
 */
export const FAMILIES: readonly Family[] = [
  { columns: ['ident_from', 'ident_recipients', 'ident_subject'] },
  { columns: ['text_authored', 'text_forwarded', 'text_stems', 'text_attachments', 'text_quoted'] },
];

/** The family holding `column`, and the column's place in it. */
export function familyOf(column: Column): { family: number; index: number } | undefined {
  for (let family = 0; family < FAMILIES.length; family++) {
    const index = (FAMILIES[family] as Family).columns.indexOf(column);
    if (index >= 0) return { family, index };
  }
  return undefined;
}

/** The `kind` column's term for bulk mail. */
export const BULK_KIND = 'bulk';

export const IDENTIFIER_COLUMNS: readonly Column[] = ['ident_from', 'ident_recipients', 'ident_subject'];
/** Columns holding exact text terms (words and compounds). */
export const EXACT_TEXT_COLUMNS: readonly Column[] = [
  'text_authored',
  'text_forwarded',
  'text_attachments',
  'text_quoted',
];

/** Labels that keep a message out of relevance search, whatever the caller asks. */
export const EXCLUDED_LABELS = ['spam', 'trash', 'blocked'] as const;
/** EXCLUDED_LABELS as an SQL list of literals. */
export const EXCLUDED_LABELS_SQL = EXCLUDED_LABELS.map((l) => `'${l}'`).join(', ');

/** SQL: 1 when message `rowid` (an SQL expression) now carries an excluded label. */
export const EXCLUDED_NOW = (rowid: string): string =>
  `EXISTS (SELECT 1 FROM message_labels WHERE message_rowid = ${rowid} AND label IN (${EXCLUDED_LABELS_SQL}))`;

/** FTS5's tokenizer for every keyword column: '_' is a token character so a compound (inv_4471) stays one token. */
export const KEYWORD_TOKENIZER = `"unicode61 remove_diacritics 0 tokenchars '_'"`;

// contentless + contentless_delete: the store keeps the text, the index only postings,
// which keeps it well under the raw mail size; deletes still work row by row.
/** A statement adding one to the keyword_meta counter `key`. */
const bump = (key: string): string =>
  `INSERT INTO keyword_meta (key, value) VALUES ('${key}', '1')
     ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1;`;

/** Triggers counting changes to what hits show: [name, event]. */
const HIT_SOURCES: ReadonlyArray<readonly [string, string]> = [
  ['keyword_hits_label_added', 'AFTER INSERT ON message_labels'],
  ['keyword_hits_label_removed', 'AFTER DELETE ON message_labels'],
  ['keyword_hits_message_changed', 'AFTER UPDATE ON messages'],
  ['keyword_hits_text_added', 'AFTER INSERT ON attachment_texts'],
  ['keyword_hits_text_changed', 'AFTER UPDATE ON attachment_texts'],
  ['keyword_hits_inbox_renamed', 'AFTER UPDATE ON inboxes'],
];

const CREATE = `
  CREATE VIRTUAL TABLE IF NOT EXISTS keyword_index USING fts5(
    ${COLUMNS.join(', ')},
    content='', contentless_delete=1,
    tokenize=${KEYWORD_TOKENIZER}
  );
  -- One small row per indexed message: ranking filters and groups here instead of in the
  -- wide messages rows (measured: the join to messages cost more than bm25 itself on broad
  -- queries). Inbox and date never change; thread and exclusion follow the store through
  -- the triggers below, inside the store's own transactions.
  CREATE TABLE IF NOT EXISTS keyword_docs (
    rowid INTEGER PRIMARY KEY,
    inbox_id INTEGER NOT NULL,
    date INTEGER NOT NULL,
    thread_id TEXT NOT NULL,
    untrusted INTEGER NOT NULL,
    excluded INTEGER NOT NULL,
    -- Mailing-list mail (the store's list_id: newsletters, notifications): ranked lower.
    bulk INTEGER NOT NULL,
    language TEXT,
    checksum TEXT NOT NULL,
    -- Tokens in all columns (bm25's document length), and the postings segment holding
    -- the document (NULL while staged in the writing transaction).
    tokens INTEGER NOT NULL,
    segment INTEGER
  );
  CREATE TRIGGER IF NOT EXISTS keyword_docs_label_added AFTER INSERT ON message_labels
    WHEN NEW.label IN (${EXCLUDED_LABELS_SQL})
    BEGIN UPDATE keyword_docs SET excluded = 1 WHERE rowid = NEW.message_rowid; END;
  CREATE TRIGGER IF NOT EXISTS keyword_docs_label_removed AFTER DELETE ON message_labels
    WHEN OLD.label IN (${EXCLUDED_LABELS_SQL})
    BEGIN UPDATE keyword_docs SET excluded = ${EXCLUDED_NOW('OLD.message_rowid')} WHERE rowid = OLD.message_rowid; END;
  CREATE TRIGGER IF NOT EXISTS keyword_docs_thread_moved AFTER UPDATE OF thread_id ON messages
    BEGIN UPDATE keyword_docs SET thread_id = NEW.thread_id WHERE rowid = NEW.id; END;
  -- Counts changes to what ranking reads of keyword_docs besides the postings: a process
  -- keeps a ranked head only while this (and the segments) stay as they were.
  CREATE TRIGGER IF NOT EXISTS keyword_docs_changed AFTER UPDATE OF excluded, thread_id ON keyword_docs
    BEGIN ${bump('docs_version')} END;
  -- Counts changes to what a search hit shows besides its ranking (labels, message rows,
  -- attachment texts, inbox names): a process keeps built hits only while this (and the
  -- segments) stay as they were (src/search/hit-cache.ts).
${HIT_SOURCES.map(
  ([name, event]) => `  CREATE TRIGGER IF NOT EXISTS ${name} ${event} BEGIN ${bump('hits_version')} END;`,
).join('\n')}
  -- Words of the text fields, for typo candidates: a plain b-tree scans a term range far
  -- faster than fts5vocab, which reads every term's doclist. Never pruned: a word whose
  -- messages are gone only costs a candidate that matches nothing.
  -- The postings index (src/index/postings-*.ts): immutable segments, each a doc table
  -- and per-term postings of its documents, and tombstones of the documents deleted or
  -- re-indexed since. AUTOINCREMENT: a segment id is never reused, so a cached doc table
  -- is valid while its id is listed.
  CREATE TABLE IF NOT EXISTS keyword_segments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    docs INTEGER NOT NULL,
    tokens INTEGER NOT NULL,
    -- Its tombstones, counted: a search reads a segment's tombstones again only when these move.
    dead INTEGER NOT NULL DEFAULT 0,
    dead_tokens INTEGER NOT NULL DEFAULT 0
  );
  -- A segment's doc table (25 bytes a document), apart from the counters every search reads
  -- and every deletion updates: in one row with them, a 512k-document segment's 12.8 MB of
  -- overflow pages were walked to read its counters (2.4 ms a search at 1M messages) and
  -- read and compared to update them (each re-indexed message).
  CREATE TABLE IF NOT EXISTS keyword_doc_tables (
    segment INTEGER PRIMARY KEY,
    doc_table BLOB NOT NULL
  );
  -- A rowid table with its key in an index of its own. As a WITHOUT ROWID table its b-tree
  -- held whole rows, blobs and all, in its interior cells too: a few rows filled a page, and
  -- a lookup walked so many levels that it cost 63 µs at 1M messages (a two-word query looks
  -- up ~370 rows: 23 ms) against 4 µs for this index and the rowid it names.
  -- masks: the term's documents counted by the columns they hold it in (postings-codec.ts),
  -- before the blobs: a column after them is read by walking their overflow pages.
  CREATE TABLE IF NOT EXISTS keyword_postings (
    segment INTEGER NOT NULL,
    family INTEGER NOT NULL,
    term TEXT NOT NULL,
    masks BLOB NOT NULL,
    postings BLOB NOT NULL
  );
  CREATE UNIQUE INDEX IF NOT EXISTS keyword_postings_key ON keyword_postings (segment, family, term);
  CREATE TABLE IF NOT EXISTS keyword_tombstones (
    segment INTEGER NOT NULL,
    rowid INTEGER NOT NULL,
    tokens INTEGER NOT NULL,
    PRIMARY KEY (segment, rowid)
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS keyword_terms (term TEXT PRIMARY KEY) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS keyword_languages (language TEXT PRIMARY KEY) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS keyword_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  -- Relevance orders frozen when a first page was served, so later pages follow it while
  -- mail arrives or goes (src/search/snapshot.ts), and ranked heads shared by the processes
  -- of one server, each valid for the index state it was ranked from (shared-heads.ts).
  -- Disposable, pruned on write, and in the scratch database beside the archive (see
  -- attachScratch in src/store/archive.ts); older archives kept them in main.
  DROP TABLE IF EXISTS main.search_snapshots;
  DROP TABLE IF EXISTS main.search_heads;
  CREATE TABLE IF NOT EXISTS ${SCRATCH}.search_snapshots (
    id TEXT PRIMARY KEY,
    created_at INTEGER NOT NULL,
    inbox_id INTEGER NOT NULL,
    kind TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    complete INTEGER NOT NULL,
    ranked BLOB NOT NULL,
    threads TEXT
  );
  CREATE INDEX IF NOT EXISTS ${SCRATCH}.search_snapshots_created ON search_snapshots (created_at);
  CREATE TABLE IF NOT EXISTS ${SCRATCH}.search_heads (
    key TEXT PRIMARY KEY,
    state TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    head TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS ${SCRATCH}.search_heads_created ON search_heads (created_at);
`;

export type IndexState = 'ready' | 'stale';

/**
 * Creates the keyword tables when missing. An index created over an archive that already
 * holds messages (or written by another INDEX_VERSION) is marked stale until `reindex`.
 */
export function ensureKeywordIndex(db: Db): void {
  db.transaction(() => {
    const existed =
      db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'keyword_index'").get() !== undefined;
    const version = existed ? getMeta(db, 'version') : undefined;
    // Another layout is useless to search and its triggers could break the store's writes:
    // drop it now; `reindex` fills the new one.
    if (existed && version !== INDEX_VERSION) dropKeywordTables(db);
    const segmentsExisted =
      db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'keyword_segments'").get() !== undefined;
    db.exec(CREATE);
    // Doc tables are cached per connection by generation and segment id: new tables, new generation.
    if (!segmentsExisted) setMeta(db, 'generation', nodeCrypto().randomBytes(8).toString('hex'));
    if (getMeta(db, 'secret') === undefined)
      setMeta(db, 'secret', nodeCrypto().randomBytes(32).toString('hex'));
    if (version !== INDEX_VERSION) {
      const messages = (db.prepare('SELECT count(*) AS n FROM messages').get() as { n: number }).n;
      setMeta(db, 'version', INDEX_VERSION);
      setMeta(db, 'state', messages > 0 ? 'stale' : 'ready');
    }
  })();
}

/** Drops every keyword table and trigger except the meta table (which keeps the token secret). */
export function dropKeywordTables(db: Db): void {
  for (const trigger of [
    'keyword_docs_label_added',
    'keyword_docs_label_removed',
    'keyword_docs_thread_moved',
    'keyword_docs_changed',
    ...HIT_SOURCES.map(([name]) => name),
  ]) {
    db.exec(`DROP TRIGGER IF EXISTS ${trigger}`);
  }
  for (const table of [
    'keyword_vocab',
    'keyword_index',
    'keyword_docs',
    'keyword_segments',
    'keyword_doc_tables',
    'keyword_postings',
    'keyword_tombstones',
    'keyword_terms',
    'keyword_languages',
    `${SCRATCH}.search_snapshots`,
    `${SCRATCH}.search_heads`,
  ]) {
    db.exec(`DROP TABLE IF EXISTS ${table}`);
  }
}

export function getMeta(db: Db, key: string): string | undefined {
  return (sql(db, 'SELECT value FROM keyword_meta WHERE key = ?').get(key) as { value: string } | undefined)
    ?.value;
}

export function setMeta(db: Db, key: string, value: string): void {
  sql(db, 'INSERT OR REPLACE INTO keyword_meta (key, value) VALUES (?, ?)').run(key, value);
}

/** Throws index_unavailable unless the index exists, is of this version, and is complete. */
export function assertIndexReady(db: Db): void {
  let state: string | undefined;
  let version: string | undefined;
  try {
    state = getMeta(db, 'state');
    version = getMeta(db, 'version');
  } catch (error) {
    throw new MailsiftError('index_unavailable', 'the keyword index is missing; run `mailsift reindex`', {
      param: 'index',
      cause: error,
    });
  }
  if (state !== 'ready' || version !== INDEX_VERSION) {
    throw new MailsiftError(
      'index_unavailable',
      'the keyword index is out of date or incomplete, so results could miss messages; run `mailsift reindex`',
      { param: 'index' },
    );
  }
}

/** The per-archive secret that signs page tokens. */
export function indexSecret(db: Db): string {
  const secret = getMeta(db, 'secret');
  if (secret === undefined)
    throw new MailsiftError('index_unavailable', 'the keyword index is not initialised', { param: 'index' });
  return secret;
}

/** Languages seen in indexed messages: the stemmers a query needs. */
export function indexedLanguages(db: Db): string[] {
  return (
    sql(db, 'SELECT language FROM keyword_languages ORDER BY language').all() as Array<{ language: string }>
  ).map((r) => r.language);
}

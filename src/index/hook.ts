// Keeps the keyword index in step with the store: the hook runs inside the store's write
// transaction, so an indexed row and its message commit (or roll back) together.

import { isLanguage, type Language } from '../analysis/index.js';
import {
  type Db,
  type IndexHook,
  type InsertedMessage,
  loadExtraction,
  loadMessage,
  type PreparedMessage,
  sql,
} from '../store/index.js';
import {
  analyseBody,
  analyseDocument,
  type BodyAnalysis,
  completeDocument,
  type IndexableMessage,
  type IndexedDocument,
} from './document.js';
import { FLAG_BULK, FLAG_UNTRUSTED } from './postings-codec.js';
import {
  discardPostings,
  expungeTombstones,
  flushPostings,
  flushPostingsOver,
  removePostings,
  stagePostings,
} from './postings-writer.js';
import { COLUMNS, EXCLUDED_NOW } from './schema.js';

const INSERT_INDEX = `INSERT INTO keyword_index (rowid, ${COLUMNS.join(', ')}) VALUES (?, ${COLUMNS.map(() => '?').join(', ')})`;

const HOOK_NAME = 'keyword';

/** Key of the worker's analysis of a message with attachments: all but their text. */
const BODY_KEY = `${HOOK_NAME}:body`;

/**
 * The document analysed in the prepare worker, before the message had an id. Only
 * attachment text is unknown there (it is extracted later): for a message without
 * attachments (nearly nine in ten) the worker's document is complete, for the others the
 * write side adds the attachments' share to the worker's body analysis.
 */
export function precomputeKeywordDocument(message: IndexableMessage): Record<string, unknown> {
  return message.attachments.length === 0
    ? { [HOOK_NAME]: analyseDocument(message) }
    : { [BODY_KEY]: analyseBody(message) };
}

/** The document of a message being stored, from what the worker precomputed when it can. */
function preparedDocument(db: Db, prepared: PreparedMessage): IndexedDocument | undefined {
  const done = prepared.precomputed[HOOK_NAME] as IndexedDocument | undefined;
  if (done) return done;
  const body = prepared.precomputed[BODY_KEY] as BodyAnalysis | undefined;
  if (!body) return undefined;
  // Extractions are saved before the message is stored, so its attachments' text is there.
  const attachments = prepared.attachments.map((meta) => ({
    ...meta,
    extraction: loadExtraction(db, meta.sha256),
  }));
  return completeDocument(body, attachments);
}

/** Analyses stored message `rowid` and writes its index rows now (replacing any previous ones). */
export function indexMessage(db: Db, rowid: number): void {
  stageMessage(db, rowid);
  flushIndex(db);
}

/** Indexes stored messages as one postings segment (call inside a transaction). */
export function indexMessages(db: Db, rowids: readonly number[]): void {
  for (const rowid of rowids) stageMessage(db, rowid);
  flushIndex(db);
}

interface StagedRow {
  inbox_id: number;
  date: number;
  thread_id: string;
  indexed: number | null;
  language: string | null;
}

/**
 * Stages stored message `rowid` for the index; its writes wait for the hook's flush before
 * the transaction commits. `inserted` (ingest) is a message the store has just inserted:
 * its row need not be read back, and there is nothing indexed to replace.
 */
function stageMessage(db: Db, rowid: number, inserted?: InsertedMessage): void {
  const row: StagedRow | undefined = inserted
    ? {
        inbox_id: inserted.inboxId,
        date: inserted.prepared.date.getTime(),
        thread_id: inserted.threadId,
        indexed: null,
        language: null,
      }
    : (sql(
        db,
        `SELECT m.inbox_id, m.date, m.thread_id, d.rowid AS indexed, d.language
         FROM messages m LEFT JOIN keyword_docs d ON d.rowid = m.id WHERE m.id = ?`,
      ).get(rowid) as StagedRow | undefined);
  if (!row) return;
  const doc =
    (inserted && preparedDocument(db, inserted.prepared)) ??
    analyseDocument(loadMessage(db, rowid) as IndexableMessage, indexedLanguage(row));
  if (!inserted) unindexMessage(db, rowid);
  const rows = deferredRows(db);
  rows.set(
    rowid,
    COLUMNS.map((c) => doc.columns[c]),
  );
  if (rows.size >= DEFERRED_ROWS_CAP) writeDeferredRows(db, rows);
  const tokens = stagePostings(
    db,
    {
      rowid,
      date: row.date,
      inbox: row.inbox_id,
      flags: (doc.bulk ? FLAG_BULK : 0) | (doc.untrusted ? FLAG_UNTRUSTED : 0),
    },
    doc.columns,
  );
  sql(
    db,
    `INSERT INTO keyword_docs (rowid, inbox_id, date, thread_id, untrusted, excluded, bulk, language, checksum, tokens)
     VALUES (?, ?, ?, ?, ?, ${EXCLUDED_NOW('?')}, ?, ?, ?, ?)`,
  ).run(
    rowid,
    row.inbox_id,
    row.date,
    row.thread_id,
    doc.untrusted ? 1 : 0,
    rowid,
    doc.bulk ? 1 : 0,
    doc.language,
    doc.checksum,
    tokens,
  );
  // Its keyword_docs row is written: the stage may become a segment now.
  flushPostingsOver(db, STAGED_POSTINGS_CAP);
  const known = knownTerms(db);
  if (doc.language !== null && !known.languages.has(doc.language)) {
    sql(db, 'INSERT OR IGNORE INTO keyword_languages (language) VALUES (?)').run(doc.language);
    known.languages.add(doc.language);
  }
  rememberWords(db, known, doc.words);
}

/**
 * The language a message already indexed was detected in, which re-indexing it (its
 * attachments' text extracted) keeps: the store never changes a stored message's text
 * fields, and `reindex` empties keyword_docs first, so the row is this analysis's own.
 * Undefined when the message is not indexed yet: detect it.
 */
function indexedLanguage(row: StagedRow): Language | null | undefined {
  if (row.indexed === null) return undefined;
  if (row.language === null) return null;
  return isLanguage(row.language) ? row.language : undefined;
}

/**
 * Words and languages already written, per connection. Mail repeats its vocabulary, so
 * after the first few thousand messages nearly every word is known and costs a Set lookup,
 * not an insert. Bounded: past the cap it starts over, and INSERT OR IGNORE keeps the
 * tables right anyway. 100k words hold the working vocabulary of a 100k-message archive in
 * ~8 MB of heap. Forgotten when a transaction rolls back, taking its inserts with it.
 */
interface KnownTerms {
  readonly words: Set<string>;
  readonly languages: Set<string>;
}

const knownTermsOf = new WeakMap<Db, KnownTerms>();
const KNOWN_WORDS_CAP = 100_000;

function knownTerms(db: Db): KnownTerms {
  let known = knownTermsOf.get(db);
  if (known === undefined || known.words.size > KNOWN_WORDS_CAP) {
    known = { words: new Set(), languages: new Set() };
    knownTermsOf.set(db, known);
  }
  return known;
}

function rememberWords(db: Db, known: KnownTerms, words: ReadonlySet<string>): void {
  const insert = sql(db, 'INSERT OR IGNORE INTO keyword_terms (term) VALUES (?)');
  for (const word of words) {
    if (known.words.has(word)) continue;
    insert.run(word);
    known.words.add(word);
  }
}

/** Forgets the words and languages cached for `db` (its tables were emptied). */
export function forgetWords(db: Db): void {
  knownTermsOf.delete(db);
}

export function unindexMessage(db: Db, rowid: number): void {
  removePostings(db, rowid);
  const known = sql(db, 'DELETE FROM keyword_docs WHERE rowid = ?').run(rowid);
  if (known.changes > 0 && !deferred.get(db)?.delete(rowid))
    sql(db, 'DELETE FROM keyword_index WHERE rowid = ?').run(rowid);
}

/**
 * Index rows of staged messages not yet written to keyword_index, per connection. FTS5
 * writes its pending postings to disk at every statement savepoint, and nearly every
 * store statement opens one (foreign keys, upserts, triggers): written one by one, each
 * message became its own segment (~0.25 ms of merging per message). Written together
 * before the commit, a batch becomes one segment.
 */
const deferred = new WeakMap<Db, Map<number, unknown[]>>();

function deferredRows(db: Db): Map<number, unknown[]> {
  let rows = deferred.get(db);
  if (rows === undefined) {
    rows = new Map();
    deferred.set(db, rows);
  }
  return rows;
}

/**
 * Deferred rows written together as soon as this many wait, before the flush: an ingest batch
 * (8,000 messages) held all its analysed text until its commit otherwise. A thousand rows
 * written back to back still make one FTS5 segment. 100k cold: peak RSS 412-414 MB without
 * the cap, 390-396 MB with it, at the same speed.
 */
const DEFERRED_ROWS_CAP = 1000;

function writeDeferredRows(db: Db, rows: Map<number, unknown[]>): void {
  const insert = sql(db, INSERT_INDEX);
  for (const [rowid, values] of rows) insert.run(rowid, ...values);
  rows.clear();
}

/**
 * Staged postings (token ids of the analysed text) written as a segment before the flush once
 * they take this much, whoever holds the transaction open (ingest, reindex, an extraction
 * re-indexing carriers). The generated bench mail stages under 1 KB a message (3.8 MB at 4,000
 * of the 20k corpus), but an ingest batch of 8,000 mailing-list digests of 100 KB of text each
 * would hold on the order of a gigabyte until its commit.
 */
const STAGED_POSTINGS_CAP = 64 * 1024 * 1024;

/** Writes the deferred index rows and postings; must run before the transaction commits. */
export function flushIndex(db: Db): void {
  const rows = deferred.get(db);
  if (rows !== undefined && rows.size > 0) writeDeferredRows(db, rows);
  flushPostings(db);
}

/** Drops the deferred index rows of a transaction that rolls back. */
function discardIndex(db: Db): void {
  deferred.get(db)?.clear();
  discardPostings(db);
  forgetWords(db);
}

export const keywordIndexHook: IndexHook = {
  name: HOOK_NAME,
  usesKeywordDocument: true,
  // Deferred: the caller flushes every hook before committing, so messages re-indexed
  // together (an attachment's carriers) become one postings segment, not one each.
  onInsert: stageMessage,
  onDelete: unindexMessage,
  flush: flushIndex,
  discard: discardIndex,
  compact: expungeTombstones,
};

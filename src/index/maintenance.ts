// Rebuilding the keyword index from the store, and checking that the two agree (every
// message indexed once, no orphan rows, FTS5's own structure sound, checksums current).

import { boundHeapGrowth } from '../core/heap-growth.js';
import { checkSenders, type Db, loadMessage, rebuildSenders, sql } from '../store/index.js';
import { analyseDocument } from './document.js';
import { forgetWords, indexMessages } from './hook.js';
import { maskCountsOf } from './postings-codec.js';
import {
  dropKeywordTables,
  EXCLUDED_NOW,
  ensureKeywordIndex,
  FAMILIES,
  type Family,
  INDEX_VERSION,
  setMeta,
} from './schema.js';

export interface ReindexProgress {
  readonly done: number;
  readonly total: number;
}

/** Rows written per transaction: large enough to amortise commits, small enough to show progress. */
const REINDEX_BATCH = 1000;

/** Drops and rebuilds the keyword index from the stored messages. */
export function reindex(db: Db, onProgress?: (progress: ReindexProgress) => void): { indexed: number } {
  // One transaction: the triggers on the store's tables write to keyword_docs, so it must
  // never be missing while another connection commits.
  db.transaction(() => {
    dropKeywordTables(db);
    ensureKeywordIndex(db);
    setMeta(db, 'state', 'stale');
    // The store's other derived table (list `from` filters) is rebuilt with the index.
    rebuildSenders(db);
  })();
  forgetWords(db);
  const total = (db.prepare('SELECT count(*) AS n FROM messages').get() as { n: number }).n;
  let done = 0;
  let after = 0;
  const nextBatch = db.prepare('SELECT id FROM messages WHERE id > ? ORDER BY id LIMIT ?').pluck();
  // Each batch's staging dies at its commit: unbounded, the heap grew to 4× what lived.
  const release = boundHeapGrowth();
  try {
    for (;;) {
      const ids = nextBatch.all(after, REINDEX_BATCH) as number[];
      if (ids.length === 0) break;
      db.transaction(() => indexMessages(db, ids))();
      done += ids.length;
      after = ids[ids.length - 1] as number;
      onProgress?.({ done, total });
    }
  } finally {
    release();
  }
  setMeta(db, 'state', 'ready');
  return { indexed: done };
}

/** Live documents in the postings segments, and document records. */
function postingsCounts(db: Db): { live: number; documents: number } {
  const segments =
    (db.prepare('SELECT coalesce(sum(docs), 0) FROM keyword_segments').pluck().get() as number) ?? 0;
  const dead = db.prepare('SELECT count(*) FROM keyword_tombstones').pluck().get() as number;
  const documents = db.prepare('SELECT count(*) FROM keyword_docs').pluck().get() as number;
  return { live: segments - dead, documents };
}

export interface CheckReport {
  readonly ok: boolean;
  readonly problems: string[];
}

const MAX_LISTED = 20;

/**
 * Compares store and index. `deep` re-analyses every message and compares checksums,
 * which costs as much as a reindex; the default checks presence and FTS5 structure.
 */
/** Postings rows (by rowid) whose stored mask counts are not those their postings hold. */
function wrongMaskCounts(db: Db): number[] {
  const wrong: number[] = [];
  const rows = db
    .prepare('SELECT rowid, family, masks, postings FROM keyword_postings ORDER BY rowid')
    .iterate();
  for (const row of rows as Iterable<{
    rowid: number;
    family: number;
    masks: Buffer;
    postings: Uint8Array;
  }>) {
    const columns = (FAMILIES[row.family] as Family).columns.length;
    if (!row.masks.equals(maskCountsOf(row.postings, columns))) wrong.push(row.rowid);
  }
  return wrong;
}

export function checkIndex(db: Db, options: { deep?: boolean } = {}): CheckReport {
  const problems: string[] = [];
  const state = sql(db, "SELECT value FROM keyword_meta WHERE key = 'state'").pluck().get() as
    | string
    | undefined;
  const version = sql(db, "SELECT value FROM keyword_meta WHERE key = 'version'").pluck().get() as
    | string
    | undefined;
  if (state !== 'ready') problems.push(`index state is '${state ?? 'missing'}': run reindex`);
  if (version !== INDEX_VERSION)
    problems.push(`index version ${version ?? 'missing'} differs from ${INDEX_VERSION}`);
  const report = (label: string, ids: number[]): void => {
    if (ids.length === 0) return;
    const shown = ids.slice(0, MAX_LISTED).join(', ');
    problems.push(`${label}: ${ids.length} row(s) (${shown}${ids.length > MAX_LISTED ? ', …' : ''})`);
  };
  report(
    'messages missing from the index',
    db
      .prepare('SELECT id FROM messages WHERE id NOT IN (SELECT rowid FROM keyword_docs) ORDER BY id')
      .pluck()
      .all() as number[],
  );
  report(
    'index rows for deleted messages',
    db
      .prepare('SELECT rowid FROM keyword_docs WHERE rowid NOT IN (SELECT id FROM messages) ORDER BY rowid')
      .pluck()
      .all() as number[],
  );
  report(
    'FTS rows without a document record',
    db
      .prepare(
        'SELECT id FROM keyword_index_docsize WHERE id NOT IN (SELECT rowid FROM keyword_docs) ORDER BY id',
      )
      .pluck()
      .all() as number[],
  );
  report(
    'document records without FTS rows',
    db
      .prepare(
        'SELECT rowid FROM keyword_docs WHERE rowid NOT IN (SELECT id FROM keyword_index_docsize) ORDER BY rowid',
      )
      .pluck()
      .all() as number[],
  );
  report(
    'index rows whose thread, exclusion or bulk flag disagrees with the store',
    db
      .prepare(
        `SELECT d.rowid FROM keyword_docs d JOIN messages m ON m.id = d.rowid
         WHERE d.thread_id <> m.thread_id OR d.excluded <> ${EXCLUDED_NOW('d.rowid')}
           OR d.bulk <> (m.list_id IS NOT NULL) ORDER BY d.rowid`,
      )
      .pluck()
      .all() as number[],
  );
  report(
    'documents missing from the postings (no live segment holds them)',
    db
      .prepare(
        `SELECT d.rowid FROM keyword_docs d WHERE d.segment IS NULL
           OR d.segment NOT IN (SELECT id FROM keyword_segments)
           OR EXISTS (SELECT 1 FROM keyword_tombstones t WHERE t.segment = d.segment AND t.rowid = d.rowid)
         ORDER BY d.rowid`,
      )
      .pluck()
      .all() as number[],
  );
  report(
    'postings segments without their doc table',
    db
      .prepare(
        'SELECT id FROM keyword_segments WHERE id NOT IN (SELECT segment FROM keyword_doc_tables) ORDER BY id',
      )
      .pluck()
      .all() as number[],
  );
  report(
    'postings segments whose tombstone count is wrong',
    db
      .prepare(
        `SELECT s.id FROM keyword_segments s
         WHERE s.dead <> (SELECT count(*) FROM keyword_tombstones t WHERE t.segment = s.id)
           OR s.dead_tokens <> (SELECT coalesce(sum(tokens), 0) FROM keyword_tombstones t WHERE t.segment = s.id)
         ORDER BY s.id`,
      )
      .pluck()
      .all() as number[],
  );
  problems.push(...checkSenders(db));
  const postings = postingsCounts(db);
  if (postings.live !== postings.documents)
    problems.push(
      `postings hold ${postings.live} live document(s) but the index has ${postings.documents} document record(s)`,
    );
  try {
    db.prepare("INSERT INTO keyword_index (keyword_index, rank) VALUES ('integrity-check', 0)").run();
  } catch (error) {
    problems.push(`FTS5 integrity check failed: ${(error as Error).message}`);
  }
  if (options.deep) {
    const stale: number[] = [];
    const rows = db.prepare('SELECT rowid, checksum FROM keyword_docs ORDER BY rowid').all() as Array<{
      rowid: number;
      checksum: string;
    }>;
    for (const row of rows) {
      const message = loadMessage(db, row.rowid);
      if (message && analyseDocument(message).checksum !== row.checksum) stale.push(row.rowid);
    }
    report('index rows whose analysis is out of date', stale);
    report('postings rows whose mask counts disagree with their postings', wrongMaskCounts(db));
  }
  return { ok: problems.length === 0, problems };
}

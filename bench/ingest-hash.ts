// node dist/bench/ingest-hash.js <archive.db> — fingerprints what an ingest stored, to show
// that a change to the ingest path left its output alone: a hash per table, and the live
// postings decoded per (family, term, rowid), whatever segments batches happened to cut.

import { createHash, type Hash } from 'node:crypto';
import Database from 'better-sqlite3';
import { appendRenumbered, FAMILIES, openPostings, type Segment } from '../src/index/index.js';

/**
 * Tables whose bytes depend on where batches were cut (a timer commits them too): the
 * postings segments, stood in for by the decoded postings, and FTS5's segment b-tree, whose
 * rows are kept whole in its content and docsize tables.
 */
const LAYOUT_TABLES = new Set([
  'keyword_segments',
  'keyword_doc_tables',
  'keyword_postings',
  'keyword_tombstones',
  'keyword_index_data',
  'keyword_index_idx',
  'sqlite_sequence',
]);

/**
 * Columns that hold the time of the run or a segment a row went to, and keyword_meta's keys
 * drawn at random or counted per batch.
 */
const VOLATILE: Readonly<Record<string, readonly string[]>> = {
  keyword_docs: ['segment'],
  keyword_index_docsize: ['origin'],
  messages: ['ingested_at'],
  locations: ['seen_run'],
  sources: ['last_run_started_at', 'last_run_completed_at'],
  inboxes: ['created_at'],
  failures: ['at', 'seen_run'],
  attachment_texts: ['extracted_at'],
};
const RUN_META = "WHERE key NOT IN ('generation', 'secret', 'docs_version', 'hits_version')";

const path = process.argv[2];
if (!path) throw new Error('usage: node dist/bench/ingest-hash.js <archive.db>');
const db = new Database(path, { readonly: true });

const digest = (hash: Hash): string => hash.digest('hex').slice(0, 16);
const value = (v: unknown): string =>
  v instanceof Uint8Array ? `x${Buffer.from(v).toString('hex')}` : JSON.stringify(v);

const tables = db
  .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
  .pluck()
  .all() as string[];
for (const table of tables) {
  if (LAYOUT_TABLES.has(table)) continue;
  const hash = createHash('sha256');
  let rows = 0;
  // Every column in declared order (the run's times blanked), rows ordered by all of them.
  const names = db
    .prepare(`SELECT * FROM "${table}"`)
    .columns()
    .map(({ name }) => (VOLATILE[table]?.includes(name) ? 'NULL' : `"${name}"`));
  const where = table === 'keyword_meta' ? RUN_META : '';
  const order = names.map((_, i) => i + 1).join(', ');
  const select = db.prepare(`SELECT ${names.join(', ')} FROM "${table}" ${where} ORDER BY ${order}`);
  for (const row of select.raw().iterate() as Iterable<unknown[]>) {
    hash.update(row.map(value).join('\u0001')).update('\n');
    rows++;
  }
  process.stdout.write(`${table.padEnd(28)} ${String(rows).padStart(9)} ${digest(hash)}\n`);
}

const view = openPostings(db);
const segments = new Map<number, Segment>(view.segments.map((segment) => [segment.id, segment]));
const postings = createHash('sha256');
const docs = createHash('sha256');
let entries = 0;
const live = new Map<number, string>();
for (const segment of view.segments) {
  const { table } = segment;
  for (let i = 0; i < table.length; i++) {
    if (segment.dead?.[i] === 1) continue;
    const rowid = table.rowids[i] as number;
    live.set(rowid, [table.dates[i], table.tokens[i], table.inboxes[i], table.flags[i]].join(','));
  }
}
for (const rowid of [...live.keys()].sort((a, b) => a - b)) docs.update(`${rowid}:${live.get(rowid)}\n`);

// A term's rows of every segment come together; its entries are hashed in rowid order.
let current = '';
let pending: Array<[number, string]> = [];
const flushTerm = (): void => {
  pending.sort((a, b) => a[0] - b[0]);
  for (const [rowid, entry] of pending) postings.update(`${current}\u0001${rowid}\u0001${entry}\n`);
  entries += pending.length;
  pending = [];
};
// Per segment, each live document's ordinal as itself and a tombstoned one's as -1: what a
// merge's renumbering reads, so its walk over a blob yields the live entries alone.
const liveOrdinals = new Map<number, Int32Array>(
  view.segments.map((segment) => [
    segment.id,
    Int32Array.from({ length: segment.table.length }, (_, i) => (segment.dead?.[i] === 1 ? -1 : i)),
  ]),
);
const rows = db
  .prepare('SELECT family, term, segment, postings FROM keyword_postings ORDER BY family, term')
  .iterate() as Iterable<{
  family: number;
  term: string;
  segment: number;
  postings: Buffer;
}>;
for (const row of rows) {
  const key = `${row.family}\u0001${row.term}`;
  if (key !== current) {
    flushTerm();
    current = key;
  }
  const segment = segments.get(row.segment);
  if (!segment) continue;
  const columns = (FAMILIES[row.family] as (typeof FAMILIES)[number]).columns.length;
  const kept = { ords: [] as number[], counts: [] as number[] };
  appendRenumbered(row.postings, columns, liveOrdinals.get(row.segment) as Int32Array, kept);
  kept.ords.forEach((ord, e) => {
    const rowid = segment.table.rowids[ord] as number;
    pending.push([rowid, kept.counts.slice(e * columns, (e + 1) * columns).join(',')]);
  });
}
flushTerm();
process.stdout.write(`${'postings documents'.padEnd(28)} ${String(live.size).padStart(9)} ${digest(docs)}\n`);
process.stdout.write(
  `${'postings (family,term,rowid)'.padEnd(28)} ${String(entries).padStart(9)} ${digest(postings)}\n`,
);
db.close();

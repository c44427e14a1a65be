// Reads the postings index: the live segments (their doc tables cached per connection:
// segments never change, so a cached table is valid while its id is listed), tombstones,
// collection statistics, and one term's (or one prefix's) postings per segment.

import { type Db, sql } from '../store/index.js';
import { type DocTable, decodeDocTable } from './postings-codec.js';
import { getMeta } from './schema.js';

export interface Segment {
  readonly id: number;
  readonly table: DocTable;
  /** Documents tombstoned in this segment (deleted or re-indexed since it was written). */
  readonly deadCount: number;
  /**
   * The tombstoned documents by ordinal (1: dead), null when there are none. Ranking checks
   * every match against it: a Set of rowids cost a fifth of a word query's time on a 1M
   * archive after attachment extraction had re-indexed 96k messages.
   */
  readonly dead: Uint8Array | null;
}

export interface PostingsView {
  /** The index's generation (a reindex starts a new one, and segment ids start over). */
  readonly generation: string;
  readonly segments: readonly Segment[];
  /** Live documents, and their tokens: bm25's N and average length. */
  readonly documents: number;
  readonly tokens: number;
}

interface Cached {
  readonly generation: string;
  readonly tables: Map<number, DocTable>;
  /** Tombstoned ordinals per segment, with the count they were read at. */
  readonly dead: Map<number, { count: number; ords: Uint8Array | null }>;
}

const cache = new WeakMap<Db, Cached>();

/** The live segments and statistics, read inside the caller's transaction. */
export function openPostings(db: Db): PostingsView {
  const generation = getMeta(db, 'generation') ?? '';
  let cached = cache.get(db);
  if (!cached || cached.generation !== generation) {
    cached = { generation, tables: new Map(), dead: new Map() };
    cache.set(db, cached);
  }
  const rows = sql(
    db,
    'SELECT id, docs, tokens, dead, dead_tokens AS deadTokens FROM keyword_segments ORDER BY id',
  ).all() as Array<{
    id: number;
    docs: number;
    tokens: number;
    dead: number;
    deadTokens: number;
  }>;
  const { tables, dead } = cached;
  const listed = new Set(rows.map((row) => row.id));
  for (const id of tables.keys()) if (!listed.has(id)) tables.delete(id);
  for (const id of dead.keys()) if (!listed.has(id)) dead.delete(id);
  const loadTable = sql(db, 'SELECT doc_table FROM keyword_doc_tables WHERE segment = ?').pluck();
  const loadDead = sql(db, 'SELECT rowid FROM keyword_tombstones WHERE segment = ? ORDER BY rowid').pluck();
  let documents = 0;
  let tokens = 0;
  const segments = rows.map((row) => {
    let table = tables.get(row.id);
    // A segment written by a transaction that rolled back can leave its id free for the
    // next one: a cached table must also agree on size.
    if (!table || table.length !== row.docs || tokenTotal(table) !== row.tokens) {
      table = decodeDocTable(loadTable.get(row.id) as Uint8Array);
      tables.set(row.id, table);
      dead.delete(row.id);
    }
    // Tombstones only accumulate while a segment lives: read again when the count moved.
    let tombstones = dead.get(row.id);
    if (tombstones?.count !== row.dead) {
      tombstones = {
        count: row.dead,
        ords: row.dead > 0 ? deadOrdinals(table, loadDead.all(row.id) as number[]) : null,
      };
      dead.set(row.id, tombstones);
    }
    documents += row.docs - row.dead;
    tokens += row.tokens - row.deadTokens;
    return { id: row.id, table, deadCount: row.dead, dead: tombstones.ords };
  });
  return { generation, segments, documents, tokens };
}

/** Flags by ordinal for `rowids` (ascending) among the table's (ascending): one merge walk. */
function deadOrdinals(table: DocTable, rowids: readonly number[]): Uint8Array {
  const dead = new Uint8Array(table.length);
  let ord = 0;
  for (const rowid of rowids) {
    while (ord < table.length && (table.rowids[ord] as number) < rowid) ord++;
    if (ord < table.length && table.rowids[ord] === rowid) dead[ord] = 1;
  }
  return dead;
}

const totals = new WeakMap<DocTable, number>();

function tokenTotal(table: DocTable): number {
  let total = totals.get(table);
  if (total === undefined) {
    total = 0;
    for (const tokens of table.tokens) total += tokens;
    totals.set(table, total);
  }
  return total;
}

/** Past the last character: the upper bound of a prefix range. */
const MAX_CHAR = '\u{10FFFF}';

/** One term's postings blob in a segment, with its mask counts (postings-codec.ts countInColumns). */
export interface PostingRow {
  readonly postings: Uint8Array;
  readonly masks: Uint8Array;
}

/**
 * Raw postings blobs of `term` in `family` within `segment`, one row per matching term:
 * the term itself, or with `prefix` every term starting with it.
 */
export function readPostingRows(
  db: Db,
  segment: number,
  family: number,
  term: string,
  prefix: boolean,
): PostingRow[] {
  // masks is the row's first blob, so reading it costs nothing more.
  return termRows(db, 'masks, postings', segment, family, term, prefix) as PostingRow[];
}

/**
 * The mask counts alone of the rows readPostingRows reads: no postings blob is read, nor
 * any page of one (masks precede the blobs in the row).
 */
export function readMaskCounts(
  db: Db,
  segment: number,
  family: number,
  term: string,
  prefix: boolean,
): Uint8Array[] {
  return (termRows(db, 'masks', segment, family, term, prefix) as Array<{ masks: Uint8Array }>).map(
    (row) => row.masks,
  );
}

function termRows(
  db: Db,
  what: string,
  segment: number,
  family: number,
  term: string,
  prefix: boolean,
): unknown[] {
  return prefix
    ? sql(
        db,
        `SELECT ${what} FROM keyword_postings WHERE segment = ? AND family = ? AND term >= ? AND term < ?`,
      ).all(segment, family, term, term + MAX_CHAR)
    : sql(db, `SELECT ${what} FROM keyword_postings WHERE segment = ? AND family = ? AND term = ?`).all(
        segment,
        family,
        term,
      );
}

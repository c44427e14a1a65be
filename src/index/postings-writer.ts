// Writes the postings index beside FTS5: documents are staged per connection and written
// as one immutable segment per transaction (or sooner, when the stage grows large); a
// deleted or replaced document leaves a tombstone in its segment; segments of similar size
// are merged (dropping tombstoned documents) so a search reads a few segments, never one per
// batch.

import { type Db, sql } from '../store/index.js';
import {
  appendRenumbered,
  concatPostings,
  type DocRow,
  type DocTable,
  decodeDocTable,
  type EncodedPostings,
  encodeDocTable,
  encodePostings,
  newDocTable,
  sumMaskCounts,
} from './postings-codec.js';
import { forEachToken, TermTable } from './postings-tokens.js';
import { COLUMNS, type Column, FAMILIES, type Family, familyOf } from './schema.js';

/**
 * A document's tokens in one family, as ids into its batch's term table: column after
 * column, `ends[c]` the end of column c. A few arrays per document, not an object per
 * term: staged documents live until the flush, long enough to reach the old generation.
 * The ids are a typed array, so the collector neither copies nor scans them.
 */
interface FamilyTokens {
  readonly ids: Int32Array;
  readonly ends: number[];
}

/** Where a document's ids are gathered before they are copied out at their final length. */
let gathered = new Int32Array(8192);

/** A document waiting for its segment: its doc table row and its tokens per family. */
interface StagedDoc extends DocRow {
  readonly families: readonly FamilyTokens[];
}

/** The documents staged on a connection, and per family the terms they use (each once). */
interface Stage {
  readonly docs: Map<number, StagedDoc>;
  readonly terms: readonly TermTable[];
  /** Bytes of the staged documents' token ids. */
  idBytes: number;
}

const stages = new WeakMap<Db, Stage>();

function stageOf(db: Db): Stage {
  let stage = stages.get(db);
  if (!stage) {
    stage = { docs: new Map(), terms: FAMILIES.map(() => new TermTable()), idBytes: 0 };
    stages.set(db, stage);
  }
  return stage;
}

/**
 * Stages document `meta.rowid` for the next segment: its column texts' terms as FTS5
 * tokenises them. Returns its length in tokens.
 */
export function stagePostings(
  db: Db,
  meta: Omit<DocRow, 'tokens'>,
  columns: Readonly<Record<Column, string>>,
): number {
  const stage = stageOf(db);
  let tokens = 0;
  const families = FAMILIES.map((family, f) => {
    const table = stage.terms[f] as TermTable;
    const ends: number[] = [];
    let count = 0;
    for (const column of family.columns) {
      const text = columns[column];
      forEachToken(text, (start, end, hash) => {
        if (count === gathered.length) {
          const grown = new Int32Array(count * 2);
          grown.set(gathered);
          gathered = grown;
        }
        gathered[count++] = table.intern(text, start, end, hash);
      });
      ends.push(count);
    }
    tokens += count;
    return { ids: gathered.slice(0, count), ends };
  });
  // bm25's length counts every column, the `kind` flag column too.
  const count = (): void => {
    tokens++;
  };
  for (const column of COLUMNS) if (!familyOf(column)) forEachToken(columns[column], count);
  const staged: StagedDoc = { ...meta, tokens, families };
  forgetStaged(stage, meta.rowid);
  stage.docs.set(meta.rowid, staged);
  stage.idBytes += idBytesOf(staged);
  return tokens;
}

const idBytesOf = (doc: StagedDoc): number =>
  doc.families.reduce((sum, family) => sum + family.ids.byteLength, 0);

/** Drops document `rowid` from the stage; false when it was not staged. */
function forgetStaged(stage: Stage, rowid: number): boolean {
  const doc = stage.docs.get(rowid);
  if (!doc) return false;
  stage.docs.delete(rowid);
  stage.idBytes -= idBytesOf(doc);
  return true;
}

/** Bytes of token ids staged on `db` for its next segment (the bulk of what a batch holds). */
export function stagedPostingsBytes(db: Db): number {
  return stages.get(db)?.idBytes ?? 0;
}

/**
 * Writes the staged documents as a segment now, inside the open transaction, once their ids
 * take `maxBytes` or more; call when every staged document has its keyword_docs row.
 */
export function flushPostingsOver(db: Db, maxBytes: number): void {
  if (stagedPostingsBytes(db) >= maxBytes) flushPostings(db);
}

/**
 * Removes document `rowid` from the postings: dropped from the stage, or tombstoned in
 * the segment that holds it. Call before its keyword_docs row is deleted.
 */
export function removePostings(db: Db, rowid: number): void {
  const stage = stages.get(db);
  if (stage && forgetStaged(stage, rowid)) return;
  const doc = sql(db, 'SELECT segment, tokens FROM keyword_docs WHERE rowid = ? AND segment IS NOT NULL').get(
    rowid,
  ) as { segment: number; tokens: number } | undefined;
  if (!doc) return;
  const added = sql(
    db,
    'INSERT OR IGNORE INTO keyword_tombstones (segment, rowid, tokens) VALUES (?, ?, ?)',
  ).run(doc.segment, rowid, doc.tokens);
  if (added.changes > 0)
    sql(db, 'UPDATE keyword_segments SET dead = dead + 1, dead_tokens = dead_tokens + ? WHERE id = ?').run(
      doc.tokens,
      doc.segment,
    );
}

export function discardPostings(db: Db): void {
  stages.delete(db);
}

/** Writes the staged documents as one segment, then merges segments as the policy asks. */
export function flushPostings(db: Db): void {
  const stage = stages.get(db);
  if (!stage) return;
  stages.delete(db);
  if (stage.docs.size === 0) return;
  const ordered = [...stage.docs.values()].sort((a, b) => a.rowid - b.rowid);
  const segment = writeSegment(
    db,
    ordered,
    FAMILIES.map((_, family) => termPostings(stage, ordered, family)),
  );
  assignSegment(
    db,
    segment,
    ordered.map((doc) => doc.rowid),
  );
  mergeSegments(db);
}

/**
 * Points the keyword_docs rows `rowids` at `segment`, row by row. A merge's live documents are
 * its table's rowids (a tombstoned one's row is gone or points elsewhere): finding them by their
 * old segment ids read the whole table instead, 14% of an extraction drain into a 1.3M archive
 * (a full scan, ~0.2 s, for each of its small merges).
 */
function assignSegment(db: Db, segment: number, rowids: ArrayLike<number>): void {
  const assign = sql(db, 'UPDATE keyword_docs SET segment = ? WHERE rowid = ?');
  for (let i = 0; i < rowids.length; i++) assign.run(segment, rowids[i]);
}

/**
 * A family's postings in a flushed batch, every term's in one set of flat arrays: term t's
 * entries are ords[docAt[t], docAt[t + 1]) (ascending), their column counts the matching
 * runs of `counts`. Growing arrays per term (~10^5 terms a batch) all lived until written,
 * long enough to be promoted.
 */
interface FamilyPostings {
  /** Term names of the batch's table by id; a term no staged document still uses has no entries. */
  readonly names: readonly string[];
  readonly docAt: Int32Array;
  readonly ords: Int32Array;
  readonly counts: Int32Array;
}

function termPostings(stage: Stage, ordered: readonly StagedDoc[], family: number): FamilyPostings {
  const names = (stage.terms[family] as TermTable).names;
  const columns = (FAMILIES[family] as Family).columns.length;
  const terms = names.length;
  // First pass: documents per term, then where each term's run starts.
  const docAt = new Int32Array(terms + 1);
  const lastOrd = new Int32Array(terms).fill(-1);
  ordered.forEach((doc, ord) => {
    const { ids } = doc.families[family] as FamilyTokens;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i] as number;
      if (lastOrd[id] !== ord) {
        lastOrd[id] = ord;
        docAt[id + 1] = (docAt[id + 1] as number) + 1;
      }
    }
  });
  for (let t = 0; t < terms; t++) docAt[t + 1] = (docAt[t + 1] as number) + (docAt[t] as number);
  const ords = new Int32Array(docAt[terms] as number);
  const counts = new Int32Array((docAt[terms] as number) * columns);
  // Second pass: each term's next entry, counted per column.
  const nextDoc = docAt.slice(0, terms);
  lastOrd.fill(-1);
  ordered.forEach((doc, ord) => {
    const { ids, ends } = doc.families[family] as FamilyTokens;
    let start = 0;
    for (let c = 0; c < columns; c++) {
      const end = ends[c] as number;
      for (let i = start; i < end; i++) {
        const id = ids[i] as number;
        if (lastOrd[id] !== ord) {
          lastOrd[id] = ord;
          ords[(nextDoc[id] as number)++] = ord;
        }
        const at = ((nextDoc[id] as number) - 1) * columns + c;
        counts[at] = (counts[at] as number) + 1;
      }
      start = end;
    }
  });
  return { names, docAt, ords, counts };
}

/** Adds a segment of the documents `blob` (an encoded doc table) holds; returns its id. */
function insertSegment(db: Db, blob: Uint8Array, docs: number, tokens: number): number {
  const segment = Number(
    sql(db, 'INSERT INTO keyword_segments (docs, tokens) VALUES (?, ?)').run(docs, tokens).lastInsertRowid,
  );
  sql(db, 'INSERT INTO keyword_doc_tables (segment, doc_table) VALUES (?, ?)').run(segment, blob);
  return segment;
}

function writeSegment(db: Db, docs: readonly DocRow[], families: readonly FamilyPostings[]): number {
  const tokens = docs.reduce((sum, doc) => sum + doc.tokens, 0);
  const segment = insertSegment(db, encodeDocTable(docs), docs.length, tokens);
  families.forEach((postings, family) => {
    const columns = (FAMILIES[family] as Family).columns.length;
    const { names, docAt, ords, counts } = postings;
    const used: number[] = [];
    for (let t = 0; t < names.length; t++) if ((docAt[t + 1] as number) > (docAt[t] as number)) used.push(t);
    const byName = (a: number, b: number): number => {
      const x = names[a] as string;
      const y = names[b] as string;
      return x < y ? -1 : x > y ? 1 : 0;
    };
    for (const t of used.sort(byName)) {
      const from = docAt[t] as number;
      const to = docAt[t + 1] as number;
      const list = {
        ords: ords.subarray(from, to),
        counts: counts.subarray(from * columns, to * columns),
      };
      insertPostings(db, segment, family, names[t] as string, encodePostings(list, columns));
    }
  });
  return segment;
}

function insertPostings(
  db: Db,
  segment: number,
  family: number,
  term: string,
  encoded: EncodedPostings,
): void {
  sql(db, 'INSERT INTO keyword_postings (segment, family, term, masks, postings) VALUES (?, ?, ?, ?, ?)').run(
    segment,
    family,
    term,
    encoded.masks,
    encoded.postings,
  );
}

/**
 * Share of a segment's documents tombstoned from which a bulk re-index rewrites it without
 * them (expungeTombstones). In a segment with tombstones a phrase's count takes a pass over
 * its postings (liveCount: ~11 ns an entry, against ~15 for scoring it), where a clean
 * segment's is read from the term's mask counts. Attachment extraction at 1M messages left
 * 9-10% of the two largest segments tombstoned.
 */
const EXPUNGE_SHARE = 0.05;

/**
 * Rewrites without their tombstones the segments where they are EXPUNGE_SHARE of the
 * documents or more: after a bulk re-index (an extraction drain), not on every flush, so
 * deletions trickling in do not rewrite a large segment each time they cross the share;
 * then merges as the policy asks (a rewritten segment is smaller and may fill a lower tier).
 * Returns how many segments it rewrote.
 */
export function expungeTombstones(db: Db): number {
  const rewritten = rewriteDecayed(db, EXPUNGE_SHARE);
  mergeSegments(db);
  return rewritten;
}

/** Rewrites without their tombstones the segments where they are `share` of the documents or more; returns how many. */
function rewriteDecayed(db: Db, share: number): number {
  const decayed = sql(db, 'SELECT id FROM keyword_segments WHERE dead > 0 AND dead >= docs * ?')
    .pluck()
    .all(share) as number[];
  for (const id of decayed) mergeInto(db, [id]);
  return decayed.length;
}

/** Segments merged at once: each document is rewritten about log_8(archive / batch) times (more below FLOOR_DOCS). */
const MERGE_FACTOR = 8;

/**
 * Segments below this many documents share the lowest tier (the floor), whatever their sizes,
 * so at most MERGE_FACTOR − 1 of them stand: a search pays per segment (a postings row looked
 * up per phrase, ~15 µs, and the kernel's set-up), not only per document. Extraction drains
 * and incremental syncs write segments of tens to thousands of documents, which a plain log-8
 * policy kept in four tiers of up to seven each: the 1M bench archive had 23 segments
 * holding 9% of its documents, and they took a fifth of a word query's time. Merged under this
 * floor (to two), the bench's 200 two- and three-word queries at 1M with the rank thread:
 * p50 19.7 → 17.7 and 25.9 → 23.1 ms (interleaved, same code). A bulk ingest's batches of
 * 8,000 fill the floor with equal segments and are merged eight at a time as before.
 */
export const FLOOR_DOCS = MERGE_FACTOR ** 5;

/**
 * A full floor merges its smallest segments, as many as stay within this factor of the ones
 * before them (at least two): small flushes merge with each other and a segment near the floor
 * waits for peers of its size. Merging the oldest eight whatever their sizes rewrote a floor
 * segment of ~20-30k documents every seven flushes: an extraction drain at 1M (segments of
 * ~40 re-indexed carriers) spent 40% of its time in those merges, each document rewritten
 * ~60 times on its way out of the floor against ~5 this way (a simulation of 110k documents
 * into the bench archive's segments; 3.5 against 9 for flushes of 300).
 */
const FLOOR_RATIO = 2;

/** Size tier of a segment above the floor: segments within a factor of MERGE_FACTOR share one. */
const tierOf = (docs: number): number => Math.floor(Math.log(docs) / Math.log(MERGE_FACTOR));

interface SegmentSize {
  readonly id: number;
  readonly docs: number;
}

/**
 * The segments to merge next, or null when the policy is satisfied: eight of a full tier above
 * the floor, oldest first; else a full floor's smallest (ties oldest first) by FLOOR_RATIO.
 * `segments` is in id order.
 */
export function nextMerge(segments: readonly SegmentSize[]): number[] | null {
  const tiers = new Map<number, number[]>();
  const floor: SegmentSize[] = [];
  for (const segment of segments) {
    if (segment.docs < FLOOR_DOCS) {
      floor.push(segment);
      continue;
    }
    const tier = tierOf(segment.docs);
    tiers.set(tier, [...(tiers.get(tier) ?? []), segment.id]);
  }
  const full = [...tiers.values()].find((ids) => ids.length >= MERGE_FACTOR);
  if (full) return full.slice(0, MERGE_FACTOR);
  if (floor.length < MERGE_FACTOR) return null;
  const smallest = floor.sort((a, b) => a.docs - b.docs || a.id - b.id);
  let docs = 0;
  let take = 0;
  for (const segment of smallest) {
    if (take >= 2 && segment.docs > FLOOR_RATIO * docs) break;
    docs += segment.docs;
    take++;
  }
  return smallest.slice(0, take).map((segment) => segment.id);
}

/**
 * Merges segments as nextMerge picks them until it is satisfied; and rewrites a segment once
 * half its documents are tombstoned (re-extraction re-indexes many old messages), so dead
 * postings never dominate a read.
 */
function mergeSegments(db: Db): void {
  rewriteDecayed(db, 0.5);
  for (;;) {
    const ids = nextMerge(
      sql(db, 'SELECT id, docs FROM keyword_segments ORDER BY id').all() as SegmentSize[],
    );
    if (!ids) return;
    mergeInto(db, ids);
  }
}

/** Rewrites `ids` as one segment without their tombstoned documents. */
function mergeInto(db: Db, ids: readonly number[]): void {
  const sources = ids.map((id) => {
    const table = decodeDocTable(
      sql(db, 'SELECT doc_table FROM keyword_doc_tables WHERE segment = ?').pluck().get(id) as Uint8Array,
    );
    const dead = new Set(
      sql(db, 'SELECT rowid FROM keyword_tombstones WHERE segment = ?').pluck().all(id) as number[],
    );
    return { id, table, dead };
  });
  const { table, blob, tokens, remap } = mergeDocTables(sources);
  const placeholders = ids.map(() => '?').join(', ');
  if (table.length > 0) {
    const merged = insertSegment(db, blob, table.length, tokens);
    mergePostings(
      db,
      merged,
      sources.map((source, s) => ({ id: source.id, remap: remap[s] as Int32Array })),
    );
    assignSegment(db, merged, table.rowids);
  }
  for (const name of ['keyword_postings', 'keyword_tombstones', 'keyword_doc_tables'])
    sql(db, `DELETE FROM ${name} WHERE segment IN (${placeholders})`).run(...ids);
  sql(db, `DELETE FROM keyword_segments WHERE id IN (${placeholders})`).run(...ids);
}

/** A segment being merged: its doc table and its tombstoned rowids. */
interface MergeSource {
  readonly table: DocTable;
  readonly dead: ReadonlySet<number>;
}

/**
 * The live documents of `sources` as one doc table in rowid order, and per source each
 * document's new ordinal (-1: tombstoned). Each source's table is in rowid order, so this
 * is a k-way merge into typed arrays: a merge into a 512k-document segment held an object
 * per document before (~100 bytes each).
 */
export function mergeDocTables(sources: readonly MergeSource[]): {
  table: DocTable;
  blob: Uint8Array;
  tokens: number;
  remap: Int32Array[];
} {
  const remap = sources.map((source) => new Int32Array(source.table.length).fill(-1));
  let length = 0;
  for (const { table, dead } of sources) length += table.length - countDead(table, dead);
  const { table, blob } = newDocTable(length);
  // Where each source's next live document is.
  const liveFrom = (s: number, at: number): number => {
    const source = sources[s] as MergeSource;
    let i = at;
    while (i < source.table.length && source.dead.has(source.table.rowids[i] as number)) i++;
    return i;
  };
  const next = sources.map((_, s) => liveFrom(s, 0));
  let tokens = 0;
  for (let ord = 0; ord < length; ord++) {
    let from = 0;
    let lowest = Number.POSITIVE_INFINITY;
    for (let s = 0; s < sources.length; s++) {
      const rowids = (sources[s] as MergeSource).table.rowids;
      const at = next[s] as number;
      if (at < rowids.length && (rowids[at] as number) < lowest) {
        lowest = rowids[at] as number;
        from = s;
      }
    }
    const source = (sources[from] as MergeSource).table;
    const at = next[from] as number;
    table.rowids[ord] = lowest;
    table.dates[ord] = source.dates[at] as number;
    table.tokens[ord] = source.tokens[at] as number;
    table.inboxes[ord] = source.inboxes[at] as number;
    table.flags[ord] = source.flags[at] as number;
    tokens += source.tokens[at] as number;
    (remap[from] as Int32Array)[at] = ord;
    next[from] = liveFrom(from, at + 1);
  }
  return { table, blob, tokens, remap };
}

function countDead(table: DocTable, dead: ReadonlySet<number>): number {
  if (dead.size === 0) return 0;
  let n = 0;
  for (let i = 0; i < table.length; i++) if (dead.has(table.rowids[i] as number)) n++;
  return n;
}

interface PostingsRow extends EncodedPostings {
  readonly family: number;
  readonly term: string;
}

/** A UTF-16 code unit's rank in UTF-8 order: surrogates (4-byte characters) follow U+E000-U+FFFF. */
const utf8Rank = (unit: number): number =>
  unit < 0xd800 ? unit : unit < 0xe000 ? unit + 0x2000 : unit - 0x800;

/** Orders terms as SQLite orders text, by their UTF-8 bytes (and so must the merge), without encoding them. */
function compareTerms(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return utf8Rank(x) - utf8Rank(y);
  }
  return a.length - b.length;
}

const byKey = (a: PostingsRow, b: PostingsRow): number => a.family - b.family || compareTerms(a.term, b.term);

/** Rows read per refill of a merge cursor: a merge holds this many rows per source, not the segment. */
const CURSOR_ROWS = 512;

/** A segment's postings rows in key order, read a chunk at a time (no statement stays open while the merge writes). */
class PostingsCursor {
  private rows: PostingsRow[] = [];
  private at = 0;
  private done = false;

  constructor(
    private readonly db: Db,
    private readonly segment: number,
  ) {
    this.fill(-1, '');
  }

  current(): PostingsRow | undefined {
    return this.rows[this.at];
  }

  advance(): void {
    const last = this.rows[this.at++] as PostingsRow;
    if (this.at === this.rows.length && !this.done) this.fill(last.family, last.term);
  }

  private fill(family: number, term: string): void {
    this.rows = sql(
      this.db,
      `SELECT family, term, masks, postings FROM keyword_postings
       WHERE segment = ? AND (family, term) > (?, ?) ORDER BY family, term LIMIT ${CURSOR_ROWS}`,
    ).all(this.segment, family, term) as PostingsRow[];
    this.at = 0;
    this.done = this.rows.length < CURSOR_ROWS;
  }
}

/**
 * The ordinal a source's first document takes in the merge when its documents keep their
 * order, one after another (no tombstones, and no other source's rowids among them, as
 * when ingest appends); -1 otherwise.
 */
function shiftOf(remap: Int32Array): number {
  const base = remap[0] ?? 0;
  for (let i = 0; i < remap.length; i++) if (remap[i] !== base + i) return -1;
  return base;
}

/**
 * Writes into `segment` the union of the sources' postings, term by term, renumbered by
 * `remap`. When every source only shifts (the common case), a term's blobs are spliced
 * rather than decoded and re-encoded: same bytes, a fraction of the work and garbage.
 */
function mergePostings(
  db: Db,
  segment: number,
  sources: ReadonlyArray<{ readonly id: number; readonly remap: Int32Array }>,
): void {
  const cursors = sources.map((source) => new PostingsCursor(db, source.id));
  const shifts = sources.map((source) => shiftOf(source.remap));
  const spliced = shifts.every((shift) => shift >= 0);
  // One term's renumbered postings at a time, in arrays reused from term to term.
  const list = new MergedTerm();
  for (;;) {
    let next: PostingsRow | undefined;
    for (const cursor of cursors) {
      const row = cursor.current();
      if (row && (!next || byKey(row, next) < 0)) next = row;
    }
    if (!next) return;
    const family = FAMILIES[next.family] as Family;
    const columns = family.columns.length;
    if (spliced) {
      const parts: Array<EncodedPostings & { base: number }> = [];
      cursors.forEach((cursor, s) => {
        const row = cursor.current();
        if (!row || byKey(row, next as PostingsRow) !== 0) return;
        parts.push({ ...row, base: shifts[s] as number });
        cursor.advance();
      });
      parts.sort((a, b) => a.base - b.base);
      insertPostings(db, segment, next.family, next.term, {
        postings: concatPostings(parts, columns),
        masks: sumMaskCounts(
          parts.map((part) => part.masks),
          columns,
        ),
      });
      continue;
    }
    list.reset();
    cursors.forEach((cursor, s) => {
      const row = cursor.current();
      if (!row || byKey(row, next as PostingsRow) !== 0) return;
      list.runs.push(list.ords.length);
      appendRenumbered(row.postings, columns, (sources[s] as { remap: Int32Array }).remap, list);
      cursor.advance();
    });
    if (list.ords.length === 0) continue;
    insertPostings(
      db,
      segment,
      next.family,
      next.term,
      encodePostings(sortedByOrdinal(list, columns), columns),
    );
  }
}

/** A growable run of unsigned 32-bit values (a JS array takes 8 bytes a value and copies as it grows). */
class Uint32Run {
  private values = new Uint32Array(1024);
  private count = 0;

  get length(): number {
    return this.count;
  }

  push(value: number): void {
    if (this.count === this.values.length) {
      const grown = new Uint32Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.count++] = value;
  }

  view(): Uint32Array {
    return this.values.subarray(0, this.count);
  }

  clear(): void {
    this.count = 0;
  }
}

/**
 * A term's postings gathered from the merge's sources under their new ordinals. Typed and
 * reused: rewriting a 510k-document segment built lists of millions of entries for its
 * commonest terms, and as JS arrays they took its peak heap from 11 to 124 MB.
 */
class MergedTerm {
  ords = new Uint32Run();
  counts = new Uint32Run();
  /**
   * Where each source's entries start in `ords`. A source's entries ascend (the merged doc
   * table keeps each source's rowid order), so the term is sorted by merging these runs.
   */
  readonly runs: number[] = [];

  reset(): void {
    this.ords.clear();
    this.counts.clear();
    this.runs.length = 0;
  }
}

/** A merged term's postings ordered by ordinal: sources interleave when documents were re-indexed. */
function sortedByOrdinal(list: MergedTerm, columns: number): { ords: Uint32Array; counts: Uint32Array } {
  const ords = list.ords.view();
  const counts = list.counts.view();
  let sorted = true;
  for (let i = 1; i < ords.length && sorted; i++) sorted = (ords[i - 1] as number) < (ords[i] as number);
  if (sorted) return { ords, counts };
  const order = mergedRuns(ords, list.runs);
  const out = { ords: new Uint32Array(ords.length), counts: new Uint32Array(counts.length) };
  let countAt = 0;
  for (let n = 0; n < order.length; n++) {
    const i = order[n] as number;
    out.ords[n] = ords[i] as number;
    // Copied by hand: a subarray per entry (a view object each) cost more than the copy.
    for (let c = 0; c < columns; c++) out.counts[countAt++] = counts[i * columns + c] as number;
  }
  return out;
}

/**
 * The entries of `ords` in ascending order, as indexes, from its ascending runs starting at
 * `runs`: a merge has a handful of sources (MERGE_FACTOR or so), so each step compares that many heads.
 * A comparator sort of the indexes cost incremental ingest into the 1M archive 8.4 s of its
 * 25.5 s of merges (20k messages; segments of re-indexed documents interleave with the rest).
 */
function mergedRuns(ords: Uint32Array, runs: readonly number[]): Uint32Array {
  const heads = Uint32Array.from(runs);
  const ends = Uint32Array.from(runs.slice(1).concat(ords.length));
  const order = new Uint32Array(ords.length);
  for (let n = 0; n < order.length; n++) {
    let best = -1;
    let bestOrd = Number.POSITIVE_INFINITY;
    for (let r = 0; r < heads.length; r++) {
      const head = heads[r] as number;
      if (head < (ends[r] as number) && (ords[head] as number) < bestOrd) {
        best = r;
        bestOrd = ords[head] as number;
      }
    }
    order[n] = (heads[best] as number)++;
  }
  return order;
}

// Writes the postings index beside FTS5: documents are staged per connection and written
// as one immutable segment per transaction; a deleted or replaced document leaves a
// tombstone in its segment; segments of similar size are merged (dropping tombstoned
// documents) so a search reads a few segments, never one per batch.

import { type Db, sql } from '../store/index.js';
import {
  type DocRow,
  decodeDocTable,
  decodePostings,
  encodeDocTable,
  encodePostings,
} from './postings-codec.js';
import { COLUMNS, type Column } from './schema.js';

/**
 * Column families with postings of their own. Identifier fields are matched by prefix, so
 * their terms are kept apart from the far larger text fields': a prefix expands over
 * identifier terms only. The `kind` column is a doc table flag.
 */
export const FAMILIES: readonly (readonly Column[])[] = [
  ['ident_from', 'ident_recipients', 'ident_subject'],
  ['text_authored', 'text_forwarded', 'text_stems', 'text_attachments', 'text_quoted'],
];

/** The family holding `column`, and the column's place in it. */
export function familyOf(column: Column): { family: number; index: number } | undefined {
  for (let family = 0; family < FAMILIES.length; family++) {
    const index = (FAMILIES[family] as readonly Column[]).indexOf(column);
    if (index >= 0) return { family, index };
  }
  return undefined;
}

/** A token as FTS5's unicode61 tokenizer (tokenchars '_') cuts them: letters, digits, private use, '_'. */
export const TOKEN = /[\p{L}\p{N}\p{Co}_]+/gu;

/** A document ready for a segment: its doc table row and per-family term counts. */
export interface StagedDoc extends DocRow {
  /** terms[family]: term → counts per column of the family. */
  readonly terms: ReadonlyArray<ReadonlyMap<string, Uint32Array>>;
}

/** Counts the terms of a document's column texts (as FTS5 tokenises them) and its length. */
export function stageDocument(
  meta: Omit<DocRow, 'tokens'>,
  columns: Readonly<Record<Column, string>>,
): StagedDoc {
  let tokens = 0;
  const terms = FAMILIES.map((family) => {
    const counts = new Map<string, Uint32Array>();
    family.forEach((column, c) => {
      for (const [term] of columns[column].matchAll(TOKEN)) {
        let row = counts.get(term);
        if (!row) {
          row = new Uint32Array(family.length);
          counts.set(term, row);
        }
        (row[c] as number)++;
      }
    });
    return counts;
  });
  for (const column of COLUMNS) tokens += columns[column].match(TOKEN)?.length ?? 0;
  return { ...meta, tokens, terms };
}

const staged = new WeakMap<Db, Map<number, StagedDoc>>();

export function stagePostings(db: Db, doc: StagedDoc): void {
  let docs = staged.get(db);
  if (!docs) {
    docs = new Map();
    staged.set(db, docs);
  }
  docs.set(doc.rowid, doc);
}

/**
 * Removes document `rowid` from the postings: dropped from the stage, or tombstoned in
 * the segment that holds it. Call before its keyword_docs row is deleted.
 */
export function removePostings(db: Db, rowid: number): void {
  if (staged.get(db)?.delete(rowid)) return;
  sql(
    db,
    `INSERT OR IGNORE INTO keyword_tombstones (segment, rowid, tokens)
     SELECT segment, rowid, tokens FROM keyword_docs WHERE rowid = ? AND segment IS NOT NULL`,
  ).run(rowid);
}

export function discardPostings(db: Db): void {
  staged.get(db)?.clear();
}

/** Writes the staged documents as one segment, then merges segments as the policy asks. */
export function flushPostings(db: Db): void {
  const docs = staged.get(db);
  if (!docs || docs.size === 0) return;
  const ordered = [...docs.values()].sort((a, b) => a.rowid - b.rowid);
  docs.clear();
  const segment = writeSegment(
    db,
    ordered,
    FAMILIES.map((_, family) => termPostings(ordered, family)),
  );
  const assign = sql(db, 'UPDATE keyword_docs SET segment = ? WHERE rowid = ?');
  for (const doc of ordered) assign.run(segment, doc.rowid);
  mergeSegments(db);
}

/** A family's postings per term: ordinals and flattened counts, ordinals ascending. */
type TermPostings = Map<string, { ords: number[]; counts: number[] }>;

function termPostings(ordered: readonly StagedDoc[], family: number): TermPostings {
  const postings: TermPostings = new Map();
  ordered.forEach((doc, ord) => {
    for (const [term, counts] of doc.terms[family] as ReadonlyMap<string, Uint32Array>) {
      let list = postings.get(term);
      if (!list) {
        list = { ords: [], counts: [] };
        postings.set(term, list);
      }
      list.ords.push(ord);
      for (const count of counts) list.counts.push(count);
    }
  });
  return postings;
}

function writeSegment(db: Db, docs: readonly DocRow[], families: readonly TermPostings[]): number {
  const tokens = docs.reduce((sum, doc) => sum + doc.tokens, 0);
  const segment = Number(
    sql(db, 'INSERT INTO keyword_segments (docs, tokens, doc_table) VALUES (?, ?, ?)').run(
      docs.length,
      tokens,
      encodeDocTable(docs),
    ).lastInsertRowid,
  );
  const insert = sql(
    db,
    'INSERT INTO keyword_postings (segment, family, term, postings) VALUES (?, ?, ?, ?)',
  );
  families.forEach((postings, family) => {
    const columns = (FAMILIES[family] as readonly Column[]).length;
    for (const term of [...postings.keys()].sort()) {
      const list = postings.get(term) as { ords: number[]; counts: number[] };
      insert.run(segment, family, term, encodePostings(list.ords, list.counts, columns));
    }
  });
  return segment;
}

/** Segments merged at once: each document is rewritten about log_8(archive / batch) times. */
const MERGE_FACTOR = 8;

/** Size tier of a segment: segments within a factor of MERGE_FACTOR share one. */
const tierOf = (docs: number): number => Math.floor(Math.log(Math.max(docs, 1)) / Math.log(MERGE_FACTOR));

/**
 * Merges MERGE_FACTOR segments of one tier, oldest first, until no tier is full; and
 * rewrites a segment once half its documents are tombstoned (re-extraction re-indexes
 * many old messages), so dead postings never dominate a read.
 */
export function mergeSegments(db: Db): void {
  const decayed = sql(
    db,
    `SELECT s.id FROM keyword_segments s JOIN keyword_tombstones t ON t.segment = s.id
     GROUP BY s.id HAVING count(*) * 2 >= s.docs`,
  )
    .pluck()
    .all() as number[];
  for (const id of decayed) mergeInto(db, [id]);
  for (;;) {
    const segments = sql(db, 'SELECT id, docs FROM keyword_segments ORDER BY id').all() as Array<{
      id: number;
      docs: number;
    }>;
    const tiers = new Map<number, number[]>();
    for (const segment of segments) {
      const tier = tierOf(segment.docs);
      tiers.set(tier, [...(tiers.get(tier) ?? []), segment.id]);
    }
    const full = [...tiers.values()].find((ids) => ids.length >= MERGE_FACTOR);
    if (!full) return;
    mergeInto(db, full.slice(0, MERGE_FACTOR));
  }
}

/** Rewrites `ids` as one segment without their tombstoned documents. */
export function mergeInto(db: Db, ids: readonly number[]): void {
  const sources = ids.map((id) => {
    const table = decodeDocTable(
      sql(db, 'SELECT doc_table FROM keyword_segments WHERE id = ?').pluck().get(id) as Uint8Array,
    );
    const dead = new Set(
      sql(db, 'SELECT rowid FROM keyword_tombstones WHERE segment = ?').pluck().all(id) as number[],
    );
    return { id, table, dead };
  });
  // New ordinals: live documents of every source, by rowid.
  const live: Array<DocRow & { source: number; ord: number }> = [];
  sources.forEach((source, s) => {
    const t = source.table;
    for (let i = 0; i < t.length; i++) {
      const rowid = t.rowids[i] as number;
      if (source.dead.has(rowid)) continue;
      live.push({
        rowid,
        date: t.dates[i] as number,
        tokens: t.tokens[i] as number,
        inbox: t.inboxes[i] as number,
        flags: t.flags[i] as number,
        source: s,
        ord: i,
      });
    }
  });
  live.sort((a, b) => a.rowid - b.rowid);
  const remap = sources.map((source) => new Int32Array(source.table.length).fill(-1));
  live.forEach((doc, ord) => {
    (remap[doc.source] as Int32Array)[doc.ord] = ord;
  });
  const families: TermPostings[] = FAMILIES.map(() => new Map());
  const read = sql(db, 'SELECT family, term, postings FROM keyword_postings WHERE segment = ?');
  sources.forEach((source, s) => {
    const map = remap[s] as Int32Array;
    for (const row of read.iterate(source.id) as Iterable<{
      family: number;
      term: string;
      postings: Uint8Array;
    }>) {
      const columns = (FAMILIES[row.family] as readonly Column[]).length;
      const decoded = decodePostings(row.postings, columns);
      const target = families[row.family] as TermPostings;
      let list = target.get(row.term);
      for (let i = 0; i < decoded.length; i++) {
        const ord = map[decoded.ords[i] as number] as number;
        if (ord < 0) continue;
        if (!list) {
          list = { ords: [], counts: [] };
          target.set(row.term, list);
        }
        list.ords.push(ord);
        for (let c = 0; c < columns; c++) list.counts.push(decoded.counts[i * columns + c] as number);
      }
    }
  });
  for (const [family, postings] of families.entries())
    sortPostings(postings, (FAMILIES[family] as readonly Column[]).length);
  const placeholders = ids.map(() => '?').join(', ');
  if (live.length > 0) {
    const merged = writeSegment(db, live, families);
    sql(db, `UPDATE keyword_docs SET segment = ? WHERE segment IN (${placeholders})`).run(merged, ...ids);
  }
  for (const table of ['keyword_postings', 'keyword_tombstones'])
    sql(db, `DELETE FROM ${table} WHERE segment IN (${placeholders})`).run(...ids);
  sql(db, `DELETE FROM keyword_segments WHERE id IN (${placeholders})`).run(...ids);
}

/** Orders each term's postings by ordinal: sources interleave when documents were re-indexed. */
function sortPostings(postings: TermPostings, columns: number): void {
  for (const list of postings.values()) {
    let sorted = true;
    for (let i = 1; i < list.ords.length && sorted; i++)
      sorted = (list.ords[i - 1] as number) < (list.ords[i] as number);
    if (sorted) continue;
    const order = list.ords
      .map((_, i) => i)
      .sort((a, b) => (list.ords[a] as number) - (list.ords[b] as number));
    const counts: number[] = [];
    for (const i of order)
      for (let c = 0; c < columns; c++) counts.push(list.counts[i * columns + c] as number);
    list.ords = order.map((i) => list.ords[i] as number);
    list.counts = counts;
  }
}

// The postings writer cuts column texts into the tokens FTS5 itself would index, so a
// document's length and terms agree with the keyword_index table beside it.

import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openArchive } from '../store/index.js';
import { decodeDocTable, encodeDocTable } from './postings-codec.js';
import {
  discardPostings,
  FLOOR_DOCS,
  flushPostings,
  flushPostingsOver,
  mergeDocTables,
  nextMerge,
  removePostings,
  stagedPostingsBytes,
  stagePostings,
} from './postings-writer.js';
import { COLUMNS, type Column, ensureKeywordIndex, KEYWORD_TOKENIZER } from './schema.js';

/** The tokens FTS5 finds in `text`, counted by fts5vocab over a one-row table. */
function fts5TokenCount(text: string): number {
  const db = new Database(':memory:');
  db.exec(`CREATE VIRTUAL TABLE t USING fts5(body, tokenize=${KEYWORD_TOKENIZER});
           CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance');`);
  db.prepare('INSERT INTO t (body) VALUES (?)').run(text);
  const count = db.prepare('SELECT count(*) FROM v').pluck().get() as number;
  db.close();
  return count;
}

describe('postings writer tokens', () => {
  it('counts the tokens FTS5 finds: astral letters, private use, emoji, lone surrogates', () => {
    const text = [
      'invoice inv_4471 naïve café',
      'Zürich 東京 в Москве ١٢٣ Ⅻ',
      // A mathematical bold A (astral letter) joins its word; an emoji splits its word; a
      // private-use character is a token character. (Combining marks are left out: FTS5
      // keeps them inside a token, the writer's character classes split there.)
      '𝐀bc smile😀face \u00e9t\u00e9 pri\ue000vate',
      // Lone surrogates are not characters of any token.
      'lone\ud800high lone\udc00low',
    ].join(' \n ');
    const columns = Object.fromEntries(COLUMNS.map((c) => [c, ''])) as Record<Column, string>;
    columns.text_authored = text;
    columns.ident_subject = 'inv_4471 Q3-report';
    const db = new Database(':memory:');
    const tokens = stagePostings(db, { rowid: 1, date: 0, inbox: 1, flags: 0 }, columns);
    discardPostings(db);
    db.close();
    expect(tokens).toBe(fts5TokenCount(text) + fts5TokenCount('inv_4471 Q3-report'));
    expect(tokens).toBe(22);
  });
});

/** An empty archive with the keyword index, one document's columns, and its segments' sizes. */
function keywordArchive() {
  const archive = openArchive(':memory:');
  const { db } = archive;
  ensureKeywordIndex(db);
  const columns = Object.fromEntries(COLUMNS.map((c) => [c, ''])) as Record<Column, string>;
  columns.text_authored = 'the pallets left Rotterdam on Monday';
  const segments = db.prepare('SELECT docs FROM keyword_segments ORDER BY id').pluck();
  return { archive, db, columns, segments };
}

describe('staged postings bytes', () => {
  it('counts the token ids a batch holds, once per document, until they leave the stage', () => {
    const columns = Object.fromEntries(COLUMNS.map((c) => [c, ''])) as Record<Column, string>;
    columns.text_authored = 'the pallets left Rotterdam on Monday, the invoice follows';
    columns.ident_subject = 'Shipment INV-4471';
    const db = new Database(':memory:');
    const meta = (rowid: number) => ({ rowid, date: 0, inbox: 1, flags: 0 });
    const tokens = stagePostings(db, meta(1), columns);
    expect(stagedPostingsBytes(db)).toBe(4 * tokens);
    stagePostings(db, meta(2), columns);
    // Staged again (re-indexed in the same transaction): replaces its ids, not adds to them.
    stagePostings(db, meta(2), columns);
    expect(stagedPostingsBytes(db)).toBe(8 * tokens);
    removePostings(db, 1);
    expect(stagedPostingsBytes(db)).toBe(4 * tokens);
    discardPostings(db);
    expect(stagedPostingsBytes(db)).toBe(0);
    db.close();
  });

  it('writes the stage as a segment inside the transaction once it passes the budget', () => {
    const { archive, db, columns, segments } = keywordArchive();
    db.transaction(() => {
      const tokens = stagePostings(db, { rowid: 1, date: 0, inbox: 1, flags: 0 }, columns);
      stagePostings(db, { rowid: 2, date: 0, inbox: 1, flags: 0 }, columns);
      const budget = 3 * 4 * tokens;
      flushPostingsOver(db, budget);
      expect(segments.all()).toEqual([]);
      stagePostings(db, { rowid: 3, date: 0, inbox: 1, flags: 0 }, columns);
      flushPostingsOver(db, budget);
      expect(segments.all()).toEqual([3]);
      expect(stagedPostingsBytes(db)).toBe(0);
    })();
    archive.close();
  });
});

describe('mergeDocTables', () => {
  const table = (rows: Array<[rowid: number, tokens: number]>) =>
    decodeDocTable(
      encodeDocTable(
        rows.map(([rowid, tokens]) => ({ rowid, date: rowid * 1000, tokens, inbox: 1, flags: rowid % 2 })),
      ),
    );

  it('interleaves the sources by rowid, drops tombstoned documents and maps each old ordinal to its new one', () => {
    // Source 1 holds re-indexed copies of 2 and 9 (tombstoned in source 0) and a late 4.
    const sources = [
      {
        table: table([
          [2, 10],
          [5, 11],
          [9, 12],
        ]),
        dead: new Set([2, 9]),
      },
      {
        table: table([
          [2, 20],
          [4, 21],
          [9, 22],
        ]),
        dead: new Set<number>(),
      },
      { table: table([[7, 30]]), dead: new Set<number>() },
    ];
    const merged = mergeDocTables(sources);
    expect(Array.from(merged.table.rowids)).toEqual([2, 4, 5, 7, 9]);
    expect(Array.from(merged.table.tokens)).toEqual([20, 21, 11, 30, 22]);
    expect(Array.from(merged.table.dates)).toEqual([2000, 4000, 5000, 7000, 9000]);
    expect(Array.from(merged.table.flags)).toEqual([0, 0, 1, 1, 1]);
    expect(merged.tokens).toBe(20 + 21 + 11 + 30 + 22);
    expect(merged.remap.map((ords) => Array.from(ords))).toEqual([[-1, 2, -1], [0, 1, 4], [3]]);
    // The blob is the table's encoding, as stored.
    expect(Array.from(decodeDocTable(merged.blob).rowids)).toEqual([2, 4, 5, 7, 9]);
  });

  it('gives an empty table when every document is tombstoned', () => {
    const merged = mergeDocTables([{ table: table([[3, 1]]), dead: new Set([3]) }]);
    expect(merged.table.length).toBe(0);
    expect(Array.from(merged.remap[0] ?? [])).toEqual([-1]);
  });
});

describe('segment merges', () => {
  it('merges a full floor by size: small flushes together, whatever their order, apart from larger ones', () => {
    const { archive, db, columns, segments } = keywordArchive();
    let rowid = 0;
    const flush = (docs: number): void =>
      db.transaction(() => {
        for (let i = 0; i < docs; i++)
          stagePostings(db, { rowid: ++rowid, date: rowid, inbox: 1, flags: 0 }, columns);
        flushPostings(db);
      })();
    flush(FLOOR_DOCS);
    // Sizes a tier of its own each under a plain log-8 policy: 1, 9, 70 and 600 documents.
    for (const docs of [1, 9, 70, 600, 1, 1, 1]) flush(docs);
    expect(segments.all()).toEqual([FLOOR_DOCS, 1, 9, 70, 600, 1, 1, 1]);
    flush(2);
    // The smallest by twos: 1+1 = 2, then 1, 1, 2 and 9 (each at most twice what came before); 70 waits.
    expect(segments.all()).toEqual([FLOOR_DOCS, 70, 600, 1 + 1 + 1 + 1 + 2 + 9]);
    archive.close();
  });

  const sized = (docs: readonly number[]) => docs.map((n, i) => ({ id: i + 1, docs: n }));

  it('leaves fewer than eight floor segments alone and merges eight equal ones oldest first', () => {
    expect(nextMerge(sized([500_000, 8000, 8000, 8000, 8000, 8000, 8000, 8000]))).toBeNull();
    expect(nextMerge(sized([8000, 8000, 8000, 8000, 8000, 8000, 8000, 8000]))).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8,
    ]);
  });

  it('merges a full tier above the floor first, oldest eight', () => {
    const tier = Array.from({ length: 9 }, () => 40_000);
    expect(nextMerge(sized([...tier, 1, 1, 1, 1, 1, 1, 1, 1]))).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('keeps a segment near the floor out of merges with small flushes', () => {
    expect(nextMerge(sized([30_000, 40, 40, 40, 40, 40, 40, 40]))).toEqual([2, 3, 4, 5, 6, 7, 8]);
  });

  it('rewrites a small flush a few times, not once per seven flushes, on its way out of the floor', () => {
    // The 1M bench archive's segments after its ingest, then an extraction drain's flushes
    // of 40 re-indexed carriers: merging the oldest eight rewrote each document ~60 times.
    let segments = sized([510_475, 476_128, 33_640, 22_335]);
    let next = segments.length + 1;
    let rewritten = 0;
    let added = 0;
    for (; added < 110_000; added += 40) {
      segments.push({ id: next++, docs: 40 });
      for (let ids = nextMerge(segments); ids; ids = nextMerge(segments)) {
        const merged = segments.filter((s) => ids.includes(s.id));
        const docs = merged.reduce((sum, s) => sum + s.docs, 0);
        rewritten += docs;
        segments = [...segments.filter((s) => !ids.includes(s.id)), { id: next++, docs }];
      }
      expect(segments.filter((s) => s.docs < FLOOR_DOCS).length).toBeLessThan(8);
    }
    expect(rewritten / added).toBeLessThan(8);
  });
});

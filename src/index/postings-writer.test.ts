// The postings writer cuts column texts into the tokens FTS5 itself would index, so a
// document's length and terms agree with the keyword_index table beside it.

import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { discardPostings, stagePostings } from './postings-writer.js';
import { COLUMNS, type Column, KEYWORD_TOKENIZER } from './schema.js';

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

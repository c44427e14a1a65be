import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MailsiftError } from '../core/errors.js';
import { generateCorpus, writeMaildir } from '../corpus/index.js';
import { ingest } from '../pipeline/ingest.js';
import { clearRankCache, searchMessages } from '../search/index.js';
import { FIXTURES, openTestArchive, type TestArchive } from '../search/test-helpers.js';
import { openArchive } from '../store/index.js';
import { indexMessages } from './hook.js';
import { checkIndex, ensureKeywordIndex, indexMessage, reindex, unindexMessage } from './index.js';

let archive: TestArchive | undefined;
afterEach(() => archive?.close());

const ids = (a: TestArchive, q: string): string[] =>
  searchMessages(a.db, { q }).messages.map((m) => m.messageId);

describe('keyword index maintenance', () => {
  it('indexes in the store transaction and forgets deleted messages in the same commit', async () => {
    const a = await openTestArchive(['stripe-receipt', 'stripe-4472', 'budget-start']);
    archive = a;
    expect(ids(a, 'stripe').sort()).toEqual(['stripe-4471@mail.stripe.com', 'stripe-4472@mail.stripe.com']);
    a.deleteMessage('stripe-4471@mail.stripe.com');
    expect(ids(a, 'stripe')).toEqual(['stripe-4472@mail.stripe.com']);
    expect(checkIndex(a.db)).toEqual({ ok: true, problems: [] });
  });

  it('follows labels and thread merges made after indexing', async () => {
    const a = await openTestArchive(['budget-reply', 'stripe-receipt']);
    archive = a;
    const rowid = a.rowidOf('budget-2@acme.io');
    a.db.prepare("INSERT INTO message_labels (message_rowid, label) VALUES (?, 'trash')").run(rowid);
    expect(ids(a, 'budget')).toEqual([]);
    a.db.prepare("DELETE FROM message_labels WHERE message_rowid = ? AND label = 'trash'").run(rowid);
    expect(ids(a, 'budget')).toEqual(['budget-2@acme.io']);
    // The parent arrives later: JWZ merges the reply's thread into the parent's.
    await a.add(['budget-start']);
    const threads = a.db.prepare('SELECT DISTINCT thread_id FROM keyword_docs WHERE rowid IN (?, ?)').pluck();
    expect(threads.all(rowid, a.rowidOf('budget-1@acme.io'))).toHaveLength(1);
    expect(checkIndex(a.db)).toEqual({ ok: true, problems: [] });
  });

  it('rolls the index back with a failed store transaction', async () => {
    const a = await openTestArchive(['stripe-receipt']);
    archive = a;
    const rowid = a.rowidOf('stripe-4471@mail.stripe.com');
    expect(() =>
      a.db.transaction(() => {
        a.db.prepare('DELETE FROM keyword_docs WHERE rowid = ?').run(rowid);
        a.db.prepare('DELETE FROM keyword_index WHERE rowid = ?').run(rowid);
        throw new Error('crash before commit');
      })(),
    ).toThrow('crash before commit');
    expect(ids(a, 'stripe')).toEqual(['stripe-4471@mail.stripe.com']);
  });

  it('merges segments whose documents interleave (a re-indexed copy) into postings in rowid order', async () => {
    const a = await openTestArchive(['stripe-receipt', 'budget-start', 'github-pr']);
    archive = a;
    // One segment per add: the first three documents, then one each.
    for (const fixture of ['stripe-4472', 'budget-reply', 'reconciliation', 'ledger-notes', 'tie-a', 'tie-b'])
      await a.add([fixture]);
    const search = (): Record<string, string[]> => {
      clearRankCache(a.db);
      return { stripe: ids(a, 'stripe').sort(), budget: ids(a, 'budget').sort(), exact: ids(a, 'INV-4471') };
    };
    const before = search();
    expect(before.stripe).toEqual(['stripe-4471@mail.stripe.com', 'stripe-4472@mail.stripe.com']);
    const segments = a.db.prepare('SELECT count(*) FROM keyword_segments').pluck();
    expect(segments.get()).toBe(7);
    // Re-indexing the first document tombstones it in the first segment and writes an eighth,
    // which makes a merge where that document's postings follow later documents' by source.
    a.db.transaction(() => indexMessage(a.db, a.rowidOf('stripe-4471@mail.stripe.com')))();
    expect(segments.get()).toBe(1);
    expect(search()).toEqual(before);
    expect(checkIndex(a.db)).toEqual({ ok: true, problems: [] });
  });

  it('writes the FTS5 rows of a batch longer than it defers as it goes, and still forgets one deleted in it', async () => {
    const a = await openTestArchive([]);
    archive = a;
    const maildir = join(a.root, 'maildir');
    await writeMaildir(maildir, generateCorpus({ seed: 7, messages: 1_100 }));
    await a.engine.ingest([maildir], { workers: 0, extractAttachments: false });
    const rowids = a.db.prepare('SELECT id FROM messages ORDER BY id').pluck().all() as number[];
    expect(rowids.length).toBeGreaterThan(1_000);
    const ftsRow = a.db.prepare('SELECT count(*) FROM keyword_index WHERE rowid = ?').pluck();
    const first = rowids[0] as number;
    // Every message re-indexed in one transaction: the first thousand rows are written before
    // the flush, so deleting the first message must remove its written row, not a deferred one.
    a.db.transaction(() => {
      indexMessages(a.db, rowids);
      expect(ftsRow.get(first)).toBe(1);
      unindexMessage(a.db, first);
    })();
    expect(ftsRow.get(first)).toBe(0);
    expect(a.db.prepare('SELECT count(*) FROM keyword_index').pluck().get()).toBe(rowids.length - 1);
    expect(checkIndex(a.db).problems).toEqual([`messages missing from the index: 1 row(s) (${first})`]);
  });

  it('reports disagreements between store and index, and reindex repairs them', async () => {
    const a = await openTestArchive(['stripe-receipt', 'budget-start', 'budget-reply']);
    archive = a;
    const rowid = a.rowidOf('budget-1@acme.io');
    a.db.prepare('DELETE FROM keyword_index WHERE rowid = ?').run(rowid);
    a.db.prepare('DELETE FROM keyword_docs WHERE rowid = ?').run(rowid);
    a.db
      .prepare(
        'INSERT INTO keyword_docs (rowid, inbox_id, date, thread_id, untrusted, excluded, bulk, language, checksum, tokens) VALUES (999, 1, 0, ?, 0, 0, 0, NULL, ?, 3)',
      )
      .run('t', 'x');
    // A document whose postings are gone: search by postings could not find it.
    const reply = a.rowidOf('budget-2@acme.io');
    a.db
      .prepare(
        'INSERT INTO keyword_tombstones SELECT segment, rowid, tokens FROM keyword_docs WHERE rowid = ?',
      )
      .run(reply);
    // The receipt has no List-Id: an index row calling it bulk would rank it down.
    const receipt = a.rowidOf('stripe-4471@mail.stripe.com');
    a.db.prepare('UPDATE keyword_docs SET bulk = 1 WHERE rowid = ?').run(receipt);
    const report = checkIndex(a.db);
    expect(report.ok).toBe(false);
    expect(report.problems.join('\n')).toMatch(/messages missing from the index: 1 row\(s\) \(\d+\)/);
    expect(report.problems.join('\n')).toMatch(/index rows for deleted messages: 1 row\(s\) \(999\)/);
    expect(report.problems.join('\n')).toContain(
      `thread, exclusion or bulk flag disagrees with the store: 1 row(s) (${receipt})`,
    );
    expect(report.problems.join('\n')).toContain(
      `documents missing from the postings (no live segment holds them): 2 row(s) (${reply}, 999)`,
    );
    expect(report.problems.join('\n')).toContain(
      'postings hold 2 live document(s) but the index has 3 document record(s)',
    );

    const progress: number[] = [];
    expect(reindex(a.db, (p) => progress.push(p.done))).toEqual({ indexed: 3 });
    expect(progress.at(-1)).toBe(3);
    expect(checkIndex(a.db, { deep: true })).toEqual({ ok: true, problems: [] });
    expect(ids(a, 'budget')).toHaveLength(2);
  });

  it('drops an index written by another version, reports it stale, and reindex rebuilds it', async () => {
    const a = await openTestArchive(['stripe-receipt', 'budget-start', 'budget-reply']);
    archive = a;
    // An index of the previous layout: keyword_docs without the bulk flag, no forwarded column.
    a.db.exec('ALTER TABLE keyword_docs DROP COLUMN bulk');
    a.db.prepare("UPDATE keyword_meta SET value = '5' WHERE key = 'version'").run();
    ensureKeywordIndex(a.db);
    expect(checkIndex(a.db).problems[0]).toMatch(/state is 'stale'/);
    expect(() => searchMessages(a.db, { q: 'budget' })).toThrow(/reindex/);
    expect(reindex(a.db)).toEqual({ indexed: 3 });
    expect(checkIndex(a.db, { deep: true })).toEqual({ ok: true, problems: [] });
    expect(ids(a, 'budget')).toHaveLength(2);
  });

  it('finds segments without their doc table', async () => {
    const a = await openTestArchive(['stripe-receipt', 'budget-start']);
    archive = a;
    expect(checkIndex(a.db, { deep: true })).toEqual({ ok: true, problems: [] });
    a.db.exec('DELETE FROM keyword_doc_tables WHERE segment = (SELECT max(segment) FROM keyword_doc_tables)');
    expect(checkIndex(a.db).problems).toContainEqual(expect.stringMatching(/without their doc table/));
  });

  it('finds postings rows whose mask counts disagree with their postings', async () => {
    const a = await openTestArchive(['stripe-receipt', 'budget-start']);
    archive = a;
    const row = a.db
      .prepare("SELECT rowid FROM keyword_postings WHERE term = 'stripe' AND family = 1")
      .pluck();
    const rowid = row.get() as number;
    // One document counted twice.
    a.db.prepare("UPDATE keyword_postings SET masks = X'0102' WHERE rowid = ?").run(rowid);
    expect(checkIndex(a.db).ok).toBe(true);
    expect(checkIndex(a.db, { deep: true }).problems).toEqual([
      `postings rows whose mask counts disagree with their postings: 1 row(s) (${rowid})`,
    ]);
  });

  it('refuses to search an index that is stale rather than return a short page', async () => {
    const a = await openTestArchive(['stripe-receipt']);
    archive = a;
    a.db.prepare("UPDATE keyword_meta SET value = 'stale' WHERE key = 'state'").run();
    try {
      searchMessages(a.db, { q: 'stripe' });
      throw new Error('expected index_unavailable');
    } catch (error) {
      expect(error).toBeInstanceOf(MailsiftError);
      expect((error as MailsiftError).code).toBe('index_unavailable');
    }
  });

  it('marks an index created over an existing archive stale until reindexed', async () => {
    const root = mkdtempSync(join(tmpdir(), 'mailsift-index-'));
    try {
      mkdirSync(join(root, 'mail'));
      copyFileSync(join(FIXTURES, 'stripe-receipt.eml'), join(root, 'mail', 'stripe-receipt.eml'));
      // A store written without the keyword index (an archive from before it existed).
      const plain = openArchive(join(root, 'plain.db'));
      await ingest(plain, [join(root, 'mail')], { workers: 0 });
      ensureKeywordIndex(plain.db);
      expect(checkIndex(plain.db).problems[0]).toMatch(/state is 'stale'/);
      expect(() => searchMessages(plain.db, { q: 'stripe' })).toThrow(/reindex/);
      reindex(plain.db);
      expect(searchMessages(plain.db, { q: 'stripe' }).count).toBe(1);
      plain.close();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

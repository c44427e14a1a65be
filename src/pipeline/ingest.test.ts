// Ingest end to end on the project's fixtures: dedupe, variants, threading order,
// loops, failures, unchanged re-runs and deletions propagated from the source.

import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Mailsift } from '../engine.js';
import { ensureKeywordIndex, keywordIndexHook, reindex } from '../index/index.js';
import { searchMessages } from '../search/index.js';
import { type IndexHook, type InsertedMessage, openArchive } from '../store/index.js';
import { ingest } from './ingest.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'test', 'fixtures');
const opened: Mailsift[] = [];

function freshArchive(): Mailsift {
  const engine = Mailsift.open(':memory:');
  opened.push(engine);
  return engine;
}

/** A private copy of a fixture folder, so tests can add and remove files. */
function copyFixture(topic: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'mailsift-ingest-'));
  cpSync(join(FIXTURES, topic), dir, { recursive: true });
  return dir;
}

afterEach(() => {
  for (const engine of opened.splice(0)) engine.close();
});

describe('ingest', () => {
  it('stores a message seen in two folders once, with both folders and their labels', async () => {
    const engine = freshArchive();
    const report = await engine.ingest([join(FIXTURES, 'duplicates', 'two-folders')], { workers: 0 });
    expect(report).toMatchObject({ scanned: 2, added: 1, duplicates: 1, failed: 0 });
    const message = engine.getMessage('<0100018fdd3a-inv4471@email.stripe.com>');
    expect(message.folders).toEqual(['Archive', 'INBOX']);
    expect(message.labels).toEqual(['archive', 'inbox']);
    expect(engine.status()).toMatchObject({ messages: 1, duplicates: 1, threads: 1 });
  });

  // Only with a worker pool are both names in flight before the first is stored; the pool
  // runs inline under vitest's TypeScript sources, so this runs the compiled engine.
  const compiledEngine = fileURLToPath(new URL('../../dist/src/engine.js', import.meta.url));
  it.skipIf(!existsSync(compiledEngine))(
    'stores a Maildir message listed twice in cur/ under two flag suffixes once, at one location',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'mailsift-maildir-'));
      for (const part of ['cur', 'new', 'tmp']) mkdirSync(join(dir, part));
      const raw = readFileSync(
        join(FIXTURES, 'duplicates', 'two-folders', 'INBOX', '1715600000.M1P2.mx1.eml'),
      );
      // A client that crashed between writing the new flags and unlinking the old name.
      writeFileSync(join(dir, 'cur', '1715600000.M1P2.mx1:2,S'), raw);
      writeFileSync(join(dir, 'cur', '1715600000.M1P2.mx1:2,RS'), raw);
      const compiled = (await import(compiledEngine)) as typeof import('../engine.js');
      const engine = compiled.Mailsift.open(':memory:');
      try {
        const report = await engine.ingest([dir], { workers: 1 });
        expect(report).toMatchObject({ scanned: 2, added: 1, duplicates: 1, failed: 0 });
        expect(engine.archive.db.prepare('SELECT count(*) FROM locations').pluck().get()).toBe(1);
        expect(engine.getMessage('0100018fdd3a-inv4471@email.stripe.com').labels).toContain('seen');
      } finally {
        engine.close();
        rmSync(dir, { recursive: true });
      }
    },
  );

  it('dedupes messages without Message-ID on a content hash and gives them a stable synthetic id', async () => {
    const engine = freshArchive();
    const report = await engine.ingest([join(FIXTURES, 'duplicates', 'no-message-id')], { workers: 0 });
    expect(report).toMatchObject({ scanned: 3, added: 2, duplicates: 1 });
    const again = freshArchive();
    await again.ingest([join(FIXTURES, 'duplicates', 'no-message-id')], { workers: 0 });
    const ids = (e: Mailsift) =>
      e.archive.db.prepare('SELECT message_id FROM messages ORDER BY message_id').pluck().all() as string[];
    expect(ids(again)).toEqual(ids(engine));
    expect(ids(engine).every((id) => id.endsWith('@mailsift.invalid'))).toBe(true);
  });

  it('keeps a reused Message-ID with different content as a flagged variant', async () => {
    const engine = freshArchive();
    const report = await engine.ingest([join(FIXTURES, 'duplicates', 'variant')], { workers: 0 });
    expect(report).toMatchObject({ added: 1, variants: 1 });
    const original = engine.getMessage('reused-id-42@crm.example');
    const variant = engine.archive.db
      .prepare('SELECT message_id FROM messages WHERE variant_of IS NOT NULL')
      .pluck()
      .get() as string;
    expect(variant).toMatch(/^reused-id-42@crm\.example#variant-[0-9a-f]{12}$/);
    expect(engine.getMessage(variant).variantOf).toBe(original.messageId);
    expect(engine.getMessage(variant).threadId).toBe(original.threadId);
    expect(engine.status().variants).toBe(1);
  });

  it('keeps a Message-ID present in its thread while a variant of it remains, and a placeholder after', async () => {
    const dir = copyFixture('duplicates/variant');
    const engine = freshArchive();
    await engine.ingest([dir], { workers: 0 });
    const present = (): number | undefined =>
      engine.archive.db
        .prepare("SELECT present FROM thread_nodes WHERE message_id = 'reused-id-42@crm.example'")
        .pluck()
        .get() as number | undefined;
    expect(present()).toBe(1);
    rmSync(join(dir, 'first.eml'));
    expect(await engine.ingest([dir], { workers: 0 })).toMatchObject({ deleted: 1 });
    expect(present()).toBe(1);
    rmSync(join(dir, 'second.eml'));
    expect(await engine.ingest([dir], { workers: 0 })).toMatchObject({ deleted: 1 });
    expect(present()).toBe(0);
    expect(engine.status().messages).toBe(0);
    rmSync(dir, { recursive: true });
  });

  it('threads replies that arrive before their parent, but not a message that only shares the subject', async () => {
    const engine = freshArchive();
    await engine.ingest([join(FIXTURES, 'threading', 'late-parent')], { workers: 0 });
    const thread = engine.getThread('CAF3kq9m2@mail.fornitore-acme.it');
    expect(thread.entries.map((e) => [e.message.messageId, e.depth])).toEqual([
      ['20240513080102.5512@fornitore-acme.it', 0],
      ['a1b2c3-reply1@example-buyer.com', 1],
      ['CAF3kq9m2@mail.fornitore-acme.it', 2],
    ]);
    expect(engine.getMessage('unrelated-99@other-vendor.example').threadId).not.toBe(thread.threadId);
    expect(engine.status().threads).toBe(2);
  });

  it('survives a reference loop', async () => {
    const engine = freshArchive();
    await engine.ingest([join(FIXTURES, 'threading', 'loop')], { workers: 0 });
    const thread = engine.getThread('loop-a@broken-client.example');
    expect(thread.entries).toHaveLength(2);
  });

  it('records a broken message with its location and reason and goes on', async () => {
    const dir = copyFixture('threading/late-parent');
    writeFileSync(join(dir, '00-empty.eml'), '');
    const engine = freshArchive();
    const report = await engine.ingest([dir], { workers: 0 });
    expect(report).toMatchObject({ added: 4, failed: 1 });
    const status = engine.status();
    expect(status.failures).toBe(1);
    expect(status.failureList[0]).toMatchObject({ location: '00-empty.eml' });
    expect(status.failureList[0]?.reason).toMatch(/empty|not a message/i);
    rmSync(dir, { recursive: true });
  });

  it('skips unchanged messages on a re-run and removes messages whose last location disappeared', async () => {
    const dir = copyFixture('threading/late-parent');
    const engine = freshArchive();
    await engine.ingest([dir], { workers: 0 });
    const again = await engine.ingest([dir], { workers: 0 });
    expect(again).toMatchObject({ scanned: 4, unchanged: 4, added: 0, deleted: 0 });

    rmSync(join(dir, '02-reply-1.eml'));
    const afterDelete = await engine.ingest([dir], { workers: 0 });
    expect(afterDelete).toMatchObject({ scanned: 3, unchanged: 3, deleted: 1 });
    expect(() => engine.getMessage('a1b2c3-reply1@example-buyer.com')).toThrow(/no message/);
    // The deleted message stays a placeholder: its reply still threads under the root.
    const thread = engine.getThread('20240513080102.5512@fornitore-acme.it');
    expect(thread.entries.map((e) => e.depth)).toEqual([0, 1]);
    expect(engine.status()).toMatchObject({ messages: 3, threads: 2 });
    rmSync(dir, { recursive: true });
  });

  it('points a location whose file changed at the new message and drops the one it held', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mailsift-changed-'));
    const file = join(dir, 'note.eml');
    writeFileSync(file, readFileSync(join(FIXTURES, 'search', 'tie-a.eml')));
    const engine = freshArchive();
    await engine.ingest([dir], { workers: 0 });
    writeFileSync(file, readFileSync(join(FIXTURES, 'search', 'tie-b.eml')));
    const report = await engine.ingest([dir], { workers: 0 });
    expect(report).toMatchObject({ scanned: 1, added: 1, unchanged: 0, failed: 0 });
    const db = engine.archive.db;
    expect(db.prepare('SELECT message_id FROM messages').pluck().all()).toEqual(['tie-b@birds.example']);
    expect(
      db
        .prepare('SELECT m.message_id FROM locations l JOIN messages m ON m.id = l.message_rowid')
        .pluck()
        .all(),
    ).toEqual(['tie-b@birds.example']);
    rmSync(dir, { recursive: true });
  });

  it('keeps a message while another location still holds it', async () => {
    const dir = copyFixture('duplicates/two-folders');
    const engine = freshArchive();
    await engine.ingest([dir], { workers: 0 });
    rmSync(join(dir, 'INBOX'), { recursive: true });
    const report = await engine.ingest([dir], { workers: 0 });
    expect(report.deleted).toBe(0);
    expect(engine.getMessage('0100018fdd3a-inv4471@email.stripe.com').labels).toEqual(['archive']);
    rmSync(dir, { recursive: true });
  });

  it('analyses messages for the keyword index only when a registered hook reads the analysis', async () => {
    const seen: Array<Record<string, unknown>> = [];
    const recorder = (usesKeywordDocument: boolean): IndexHook => ({
      name: 'recorder',
      usesKeywordDocument,
      onInsert: (_db, _rowid, inserted?: InsertedMessage) => {
        if (inserted) seen.push(inserted.prepared.precomputed);
      },
    });
    const fixture = join(FIXTURES, 'threading', 'late-parent');
    const bare = openArchive(':memory:');
    try {
      bare.hooks.push(recorder(false));
      await ingest(bare, [fixture], { workers: 0 });
      expect(seen).toHaveLength(4);
      expect(seen.every((precomputed) => Object.keys(precomputed).length === 0)).toBe(true);
      // Stored without an index, searchable once the index is built from the store.
      ensureKeywordIndex(bare.db);
      expect(reindex(bare.db).indexed).toBe(4);
      expect(searchMessages(bare.db, { q: 'fornitore-acme' }).count).toBe(3);
      seen.length = 0;
      const engine = freshArchive();
      engine.archive.hooks.push(recorder(true));
      await engine.ingest([fixture], { workers: 0 });
      expect(seen).toHaveLength(4);
      expect(
        seen.every((precomputed) => Object.keys(precomputed)[0]?.startsWith(keywordIndexHook.name)),
      ).toBe(true);
    } finally {
      bare.close();
    }
  });

  it('flushes the index inside a transaction every indexFlushSize messages, finding the same', async () => {
    const fixture = join(FIXTURES, 'search');
    const segmentDocs = (e: Mailsift) =>
      e.archive.db.prepare('SELECT docs FROM keyword_segments ORDER BY id').pluck().all() as number[];
    const found = (e: Mailsift, q: string) =>
      searchMessages(e.archive.db, { q, limit: 100 }).messages.map((m) => m.messageId);

    const flushed = freshArchive();
    const report = await flushed.ingest([fixture], { workers: 0, batchSize: 100, indexFlushSize: 5 });
    expect(report).toMatchObject({ scanned: 23, added: 23, failed: 0 });
    // At most 5 documents a segment (re-indexing a carrier of settled attachment text also flushes).
    const docs = segmentDocs(flushed);
    expect(Math.max(...docs)).toBe(5);
    expect(docs.length).toBeGreaterThanOrEqual(5);
    expect(docs.reduce((a, b) => a + b)).toBe(23);

    const whole = freshArchive();
    await whole.ingest([fixture], { workers: 0, batchSize: 100 });
    expect(Math.max(...segmentDocs(whole))).toBeGreaterThan(5);
    for (const q of ['invoice', 'INV-4471', 'stripe.com', 'budget', 'rechnung']) {
      expect(found(flushed, q).length, q).toBeGreaterThan(0);
      expect(found(flushed, q).sort(), q).toEqual(found(whole, q).sort());
    }
    // New messages' labels are written at each flush, and still set the exclusion flag.
    const labels = (e: Mailsift) =>
      e.archive.db
        .prepare(
          `SELECT m.message_id, (SELECT json_group_array(label) FROM
             (SELECT label FROM message_labels WHERE message_rowid = m.id ORDER BY label)) AS labels
           FROM messages m ORDER BY m.message_id`,
        )
        .all();
    expect(labels(flushed)).toEqual(labels(whole));
    const spam = flushed.archive.db
      .prepare(
        "SELECT d.excluded FROM keyword_docs d JOIN message_labels l ON l.message_rowid = d.rowid WHERE l.label = 'spam'",
      )
      .pluck()
      .all();
    expect(spam.length).toBeGreaterThan(0);
    expect(spam.every((excluded) => excluded === 1)).toBe(true);
  });

  it('names the path when a source does not exist', async () => {
    const engine = freshArchive();
    await expect(engine.ingest(['/nonexistent/mailbox'], { workers: 0 })).rejects.toMatchObject({
      code: 'not_found',
      param: '/nonexistent/mailbox',
    });
  });
});

// Reading messages back: a page of them at once reads as each does alone.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Mailsift } from '../engine.js';
import { loadMessage, loadMessages } from './message-reader.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'test', 'fixtures');
let engine: Mailsift;

beforeAll(async () => {
  engine = Mailsift.open(':memory:');
  // Messages with and without attachments, and one seen in two folders with their labels.
  for (const topic of ['search', join('duplicates', 'two-folders')])
    await engine.ingest([join(FIXTURES, topic)], { workers: 0 });
});
afterAll(() => engine.close());

describe('loading messages', () => {
  it('loads many at once as it loads each: attachments, labels and folders apart per message', () => {
    const { db } = engine.archive;
    const rowids = db.prepare('SELECT id FROM messages ORDER BY id DESC').pluck().all() as number[];
    const withAttachments = db
      .prepare('SELECT count(*) FROM messages WHERE attachment_count > 0')
      .pluck()
      .get() as number;
    expect(rowids.length).toBeGreaterThan(5);
    expect(withAttachments).toBeGreaterThan(0);
    const missing = Math.max(...rowids) + 1;
    const loaded = loadMessages(db, [...rowids, missing]);
    expect([...loaded.keys()].sort((a, b) => a - b)).toEqual([...rowids].sort((a, b) => a - b));
    for (const rowid of rowids) expect(loaded.get(rowid)).toEqual(loadMessage(db, rowid));
    const all = [...loaded.values()];
    expect(all.some((m) => m.attachments.length > 0)).toBe(true);
    expect(all.find((m) => m.folders.length === 2)?.labels).toEqual(['archive', 'inbox']);
    expect(loadMessage(db, missing)).toBeUndefined();
  });
});

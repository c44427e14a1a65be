// What the store defers to the end of a transaction (labels, sender counts) comes out as if
// written row by row, whatever happens to the messages before the flush.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prepareMessage, sha256 } from '../pipeline/prepare.js';
import { type Archive, openArchive } from './archive.js';
import { type Inbox, MessageStore } from './message-store.js';
import { checkSenders } from './senders.js';

/** A plain-text message as Thunderbird sends it, a reply when it has `references`. */
function message(id: string, from: string, references: readonly string[] = []): Buffer {
  const ids = references.map((ref) => `<${ref}@mail.example.org>`);
  return Buffer.from(
    [
      `From: ${from}`,
      ...(ids.length > 0 ? [`In-Reply-To: ${ids.at(-1)}`, `References: ${ids.join(' ')}`] : []),
      'To: Bob Lee <bob@example.org>',
      `Subject: Quarterly numbers ${id}`,
      `Message-ID: <${id}@mail.example.org>`,
      'Date: Tue, 3 Nov 2026 09:15:00 +0100',
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=UTF-8; format=flowed',
      'Content-Transfer-Encoding: 7bit',
      'User-Agent: Mozilla Thunderbird',
      '',
      `Hi Bob, the figures for ${id} are attached to the shared sheet.`,
      '',
    ].join('\r\n'),
  );
}

function prepare(id: string, from: string, references: readonly string[] = []) {
  const bytes = message(id, from, references);
  return prepareMessage(bytes, null, sha256(bytes), { keywordDocument: false });
}

let archive: Archive;
let store: MessageStore;
let inbox: Inbox;
beforeEach(() => {
  archive = openArchive(':memory:');
  store = new MessageStore(archive);
  inbox = store.inbox('work');
});
afterEach(() => archive.close());

describe('sender counts of a batch', () => {
  it('are written at the flush, a message deleted before it subtracted', async () => {
    const alice = 'Alice Ruiz <alice@example.org>';
    const prepared = await Promise.all(
      [
        ['q1', alice],
        ['q2', alice],
        ['q3', alice],
        ['q4', 'Carol Diaz <carol@example.net>'],
      ].map(([id, from]) => prepare(id as string, from as string)),
    );
    const senders = () =>
      archive.db.prepare('SELECT address, name, messages FROM senders ORDER BY address').all();
    archive.db.transaction(() => {
      const rowids = prepared.map((p) => store.storeMessage(inbox, p).rowid);
      expect(senders()).toEqual([]);
      store.deleteMessage(rowids[0] as number);
      store.storeMessage(inbox, prepared[0] as (typeof prepared)[number]);
      store.flushIndexes();
    })();
    expect(senders()).toEqual([
      { address: 'alice@example.org', name: 'Alice Ruiz', messages: 3 },
      { address: 'carol@example.net', name: 'Carol Diaz', messages: 1 },
    ]);
    expect(checkSenders(archive.db)).toEqual([]);
  });
});

describe('thread counts of a batch', () => {
  it('are written at the flush, through a merge of two threads and deletions before it', async () => {
    const from = 'Alice Ruiz <alice@example.org>';
    const threads = () =>
      archive.db.prepare('SELECT id, message_count AS messages FROM threads ORDER BY id').all();
    const counted = () =>
      archive.db
        .prepare('SELECT thread_id AS id, count(*) AS messages FROM messages GROUP BY thread_id ORDER BY id')
        .all();
    const batch = await Promise.all([
      prepare('a1', from),
      prepare('a2', from, ['a1']),
      prepare('b1', from),
      prepare('b2', from, ['b1']),
      // Puts b1 under a1: the two threads merge while their counts are pending.
      prepare('c1', from, ['a1', 'b1']),
      // Alone in its thread, and deleted before the flush: no thread left.
      prepare('d1', from),
    ]);
    archive.db.transaction(() => {
      const rowids = batch.map((p) => store.storeMessage(inbox, p).rowid);
      store.deleteMessage(rowids[1] as number);
      store.deleteMessage(rowids[5] as number);
      store.flushIndexes();
    })();
    expect(counted()).toHaveLength(1);
    expect(counted()[0]).toMatchObject({ messages: 4 });
    expect(threads()).toEqual(counted());
  });
});

describe('deleting a message', () => {
  // The foreign keys' actions (variants' variant_of set to NULL, labels and attachments deleted)
  // are part of the DELETE's plan: each must be an index search, or every delete reads every message.
  it('reaches every row that refers to it by an index, scanning no table', () => {
    const plan = archive.db.prepare('EXPLAIN QUERY PLAN DELETE FROM messages WHERE id = ?').all(1) as Array<{
      detail: string;
    }>;
    expect(plan.map((row) => row.detail)).toContainEqual(expect.stringMatching(/messages_variant_of/));
    expect(plan.map((row) => row.detail).filter((detail) => detail.startsWith('SCAN'))).toEqual([]);
  });
});

// What the store defers to the end of a transaction (labels, sender counts) comes out as if
// written row by row, whatever happens to the messages before the flush.

import { describe, expect, it } from 'vitest';
import { prepareMessage, sha256 } from '../pipeline/prepare.js';
import { openArchive } from './archive.js';
import { MessageStore } from './message-store.js';
import { checkSenders } from './senders.js';

/** A plain-text message as Thunderbird sends it. */
function message(id: string, from: string): Buffer {
  return Buffer.from(
    [
      `From: ${from}`,
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

describe('sender counts of a batch', () => {
  it('are written at the flush, a message deleted before it subtracted', async () => {
    const archive = openArchive(':memory:');
    try {
      const store = new MessageStore(archive);
      const inbox = store.inbox('work');
      const alice = 'Alice Ruiz <alice@example.org>';
      const prepared = await Promise.all(
        [
          ['q1', alice],
          ['q2', alice],
          ['q3', alice],
          ['q4', 'Carol Diaz <carol@example.net>'],
        ].map(([id, from]) => {
          const bytes = message(id as string, from as string);
          return prepareMessage(bytes, null, sha256(bytes), { keywordDocument: false });
        }),
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
    } finally {
      archive.close();
    }
  });
});

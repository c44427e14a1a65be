// Gmail sync (X-GM-EXT-1) against test/support/gmail-server.ts: a loopback IMAP server of our
// own that answers Gmail's IMAP extension as Gmail's public documentation describes it
// (developers.google.com/gmail/imap/imap-extensions). It is not Gmail: Gmail's extensions are
// not in Dovecot, and a test may not reach the network. A label is a folder there, so these
// tests count the bodies the server sends: a message is downloaded once whatever its labels.

import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Mailsift } from '../../src/engine.js';
import type { IngestOptions } from '../../src/pipeline/ingest.js';
import { type GmailServer, startGmailServer } from '../support/gmail-server.js';
import { testMessage } from '../support/imap-driver.js';
import { tempDir } from '../temp.js';

let server: GmailServer;
let engine: Mailsift;
let url: string;

const options: IngestOptions = {
  workers: 0,
  extractAttachments: false,
  imap: { credential: { kind: 'command', command: 'printf %s gmail-pw' } },
};
const sync = () => engine.ingest([url], options);

beforeEach(async () => {
  server = await startGmailServer('alice@gmail.test', 'gmail-pw');
  engine = Mailsift.open(join(tempDir('mailsift-gmail-'), 'archive.db'));
  url = `imap://alice%40gmail.test@127.0.0.1:${server.port}`;
});

afterEach(async () => {
  engine.close();
  await server.close();
});

const db = () => engine.archive.db;
const column = (query: string, ...args: unknown[]): unknown[] =>
  db()
    .prepare(query)
    .pluck()
    .all(...args);
const labelsOf = (messageId: string) =>
  column(
    `SELECT label FROM message_labels WHERE message_rowid = (SELECT id FROM messages WHERE message_id = ?)
     ORDER BY label`,
    messageId,
  );
const threadOf = (messageId: string) =>
  column('SELECT thread_id FROM messages WHERE message_id = ?', messageId)[0];
/** The folders the sync opened, in order. */
const examined = () => server.commands.filter((c) => /^EXAMINE /i.test(c)).map((c) => c.slice(8));

describe('Gmail sync', () => {
  it('downloads a message with three labels once, from All Mail, and stores it once with them', async () => {
    server.add(testMessage(1), { labels: ['\\Inbox', 'Work', 'Client X'], flags: ['\\Seen'] });
    server.add(testMessage(2), { labels: ['\\Sent', '\\Important'] });
    const report = await sync();
    expect(report).toMatchObject({ scanned: 2, added: 2, failed: 0, duplicates: 0 });
    expect(server.bodiesSent()).toBe(2);
    // Only All Mail, Trash and Spam are opened, never a label's folder (INBOX, Work, Sent Mail).
    expect(examined()).toEqual(['"[Gmail]/All Mail"', '"[Gmail]/Trash"', '"[Gmail]/Spam"']);
    expect(column('SELECT count(*) FROM messages')).toEqual([2]);
    expect(column('SELECT key FROM locations ORDER BY key')).toEqual([
      expect.stringMatching(/^X-GM-MSGID=\d+$/),
      expect.stringMatching(/^X-GM-MSGID=\d+$/),
    ]);
    expect(labelsOf('msg-1@test.example')).toEqual(['client x', 'inbox', 'seen', 'work']);
    expect(labelsOf('msg-2@test.example')).toEqual(['important', 'sent']);
    expect(engine.searchMessages({ q: 'word1', limit: 5 }).messages.map((m) => m.messageId)).toEqual([
      'msg-1@test.example',
    ]);
  });

  it('a label added or removed on the server relabels at the next sync without a download', async () => {
    const id = server.add(testMessage(1), { labels: ['\\Inbox', 'Work'] });
    server.add(testMessage(2), { labels: ['\\Inbox'] });
    await sync();
    server.relabel(id, ['Urgent', '\\Starred'], ['\\Inbox']);
    const before = server.commands.length;
    const report = await sync();
    expect(report).toMatchObject({ added: 0, deleted: 0, failed: 0 });
    expect(server.bodiesSent()).toBe(2);
    expect(labelsOf('msg-1@test.example')).toEqual(['flagged', 'urgent', 'work']);
    // CONDSTORE: only what changed is fetched, All Mail is not listed whole again.
    const fetches = server.commands.slice(before).filter((c) => /FETCH/i.test(c));
    expect(fetches).toEqual([expect.stringMatching(/^UID FETCH 1:\* .*\(CHANGEDSINCE \d+\)$/)]);
  });

  it('threads messages by X-GM-THRID when their headers do not link them', async () => {
    const first = server.add(testMessage(1));
    server.add(testMessage(2), { threadId: first });
    server.add(testMessage(3));
    await sync();
    expect(threadOf('msg-1@test.example')).toBe(threadOf('msg-2@test.example'));
    expect(threadOf('msg-3@test.example')).not.toBe(threadOf('msg-1@test.example'));
  });

  it('a message deleted from All Mail leaves the store; one moved to Trash stays, labelled trash, not downloaded again', async () => {
    const deleted = server.add(testMessage(1));
    const trashed = server.add(testMessage(2), { labels: ['\\Inbox', 'Work'] });
    server.add(testMessage(3));
    await sync();
    server.remove(deleted);
    server.relabel(trashed, ['\\Trash'], ['\\Inbox']);
    const report = await sync();
    expect(report).toMatchObject({ added: 0, deleted: 1, failed: 0 });
    expect(server.bodiesSent()).toBe(3);
    expect(column('SELECT message_id FROM messages ORDER BY message_id')).toEqual([
      'msg-2@test.example',
      'msg-3@test.example',
    ]);
    expect(labelsOf('msg-2@test.example')).toEqual(['trash', 'work']);
    expect(column('SELECT folder FROM locations ORDER BY folder')).toEqual([
      '[Gmail]/All Mail',
      '[Gmail]/Trash',
    ]);
  });
});

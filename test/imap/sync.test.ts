// IMAP sync against a real Dovecot on loopback (test/support/dovecot.ts): cold sync,
// incremental changes made by a second client (append, flag, move, expunge), a server killed
// mid-sync, a new UIDVALIDITY, a large message streamed (and cut mid-download), and the typed
// failures that store nothing.

import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MailsiftError } from '../../src/core/errors.js';
import { Mailsift } from '../../src/engine.js';
import type { IngestOptions } from '../../src/pipeline/ingest.js';
import { type DovecotServer, startDovecot } from '../support/dovecot.js';
import { largeMessage, MailboxDriver, testMessage } from '../support/imap-driver.js';
import { startImapProxy } from '../support/imap-proxy.js';
import { tempDir } from '../temp.js';

let server: DovecotServer;
let driver: MailboxDriver;
let engine: Mailsift;
let url: string;

const options = (extra: IngestOptions = {}): IngestOptions => ({
  workers: 0,
  extractAttachments: false,
  imap: { credential: { kind: 'command', command: `printf %s ${server.password}` } },
  ...extra,
});

beforeEach(async () => {
  server = await startDovecot();
  driver = await MailboxDriver.connect(server);
  engine = Mailsift.open(join(tempDir('mailsift-imap-'), 'archive.db'));
  url = `imap://${server.user}@127.0.0.1:${server.port}`;
});

afterEach(async () => {
  engine.close();
  await driver.close();
  await server.close();
});

const found = (word: string): string[] =>
  engine.searchMessages({ q: word, limit: 50 }).messages.map((m) => m.messageId);

const db = () => engine.archive.db;
const count = (query: string, ...args: unknown[]): number =>
  db()
    .prepare(query)
    .pluck()
    .get(...args) as number;

function labelsOf(messageId: string): string[] {
  return db()
    .prepare(
      'SELECT label FROM message_labels WHERE message_rowid = (SELECT id FROM messages WHERE message_id = ?) ORDER BY label',
    )
    .pluck()
    .all(messageId) as string[];
}

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** A message larger than a fetch batch (8 MB), which the sync streams. */
const LARGE_BYTES = 12 * 1024 * 1024;

function rowidOf(messageId: string): number {
  return count('SELECT id FROM messages WHERE message_id = ?', messageId);
}

describe('IMAP sync', () => {
  it('cold sync stores every folder with labels from flags and special-use folders', async () => {
    for (let n = 1; n <= 4; n++) await driver.append('INBOX', testMessage(n), n === 1 ? ['\\Seen'] : []);
    await driver.append('Archive', testMessage(5));
    await driver.append('Sent', testMessage(6));
    const report = await engine.ingest([url], options());
    expect(report).toMatchObject({ scanned: 6, added: 6, failed: 0 });
    expect(report.sources).toEqual([`imap://alice@127.0.0.1:${server.port}/`]);
    expect(found('word3')).toEqual(['msg-3@test.example']);
    expect(labelsOf('msg-1@test.example')).toEqual(['inbox', 'seen']);
    expect(labelsOf('msg-2@test.example')).toEqual(['inbox']);
    expect(labelsOf('msg-5@test.example')).toEqual(['archive']);
    expect(labelsOf('msg-6@test.example')).toEqual(['sent']);
    // Per folder what the sync saw, with the source: the method, never the password.
    const folders = db()
      .prepare('SELECT folder, uid_next, messages FROM source_folders ORDER BY folder')
      .all() as Array<{ folder: string; uid_next: number; messages: number }>;
    expect(folders).toEqual([
      { folder: 'Archive', uid_next: 2, messages: 1 },
      { folder: 'INBOX', uid_next: 5, messages: 4 },
      { folder: 'Sent', uid_next: 2, messages: 1 },
      { folder: 'Trash', uid_next: 1, messages: 0 },
    ]);
    const source = db().prepare('SELECT kind, credential, last_error FROM sources').get();
    expect(source).toEqual({ kind: 'imap', credential: 'command:printf %s secret-pw', last_error: null });
    // Nothing changed: nothing is fetched or written again.
    expect(await engine.ingest([url], options())).toMatchObject({ scanned: 6, added: 0, unchanged: 6 });
  });

  it('incremental sync: new mail searchable, flags relabel, a move keeps the message, an expunge deletes it', async () => {
    const uids: number[] = [];
    for (let n = 1; n <= 5; n++) uids.push(await driver.append('INBOX', testMessage(n)));
    await engine.ingest([url], options());
    const movedRowid = rowidOf('msg-2@test.example');

    await driver.append('INBOX', testMessage(6, 'freshword'));
    await driver.addFlags('INBOX', [uids[0] as number], ['\\Seen', '\\Flagged']);
    await driver.move('INBOX', uids[1] as number, 'Archive');
    await driver.expunge('INBOX', [uids[2] as number]);

    const report = await engine.ingest([url], options());
    expect(report).toMatchObject({ scanned: 5, added: 1, deleted: 1, failed: 0, duplicates: 0 });
    expect(found('freshword')).toEqual(['msg-6@test.example']);
    expect(found('word3')).toEqual([]);
    expect(count('SELECT count(*) FROM messages WHERE message_id = ?', 'msg-3@test.example')).toBe(0);
    expect(labelsOf('msg-1@test.example')).toEqual(['flagged', 'inbox', 'seen']);
    // Moved: the same row, now located in Archive only, found without a download.
    expect(rowidOf('msg-2@test.example')).toBe(movedRowid);
    expect(labelsOf('msg-2@test.example')).toEqual(['archive']);
    expect(
      db().prepare('SELECT folder FROM locations WHERE message_rowid = ?').pluck().all(movedRowid),
    ).toEqual(['Archive']);
    expect(count('SELECT count(*) FROM messages')).toBe(5);
  });

  it('a changed folder is synced from its changes (QRESYNC), not listed whole', async () => {
    server.deliver(
      'INBOX',
      Array.from({ length: 200 }, (_, i) => testMessage(i + 1)),
    );
    const uids = await driver.uids('INBOX');
    await driver.append('Archive', testMessage(500));
    const proxy = await startImapProxy(server);
    const viaProxy = `imap://${server.user}@127.0.0.1:${proxy.port}`;
    try {
      await engine.ingest([viaProxy], options());
      const movedRowid = rowidOf('msg-11@test.example');
      for (let n = 1; n <= 3; n++) await driver.append('INBOX', testMessage(1000 + n, `fresh${n}`));
      await driver.addFlags('INBOX', uids.slice(0, 3), ['\\Flagged']);
      await driver.expunge('INBOX', uids.slice(-3));
      await driver.move('INBOX', uids[10] as number, 'Archive');
      proxy.reset();

      const report = await engine.ingest([viaProxy], options());
      expect(report).toMatchObject({ scanned: 201, added: 3, deleted: 3, failed: 0, duplicates: 0 });
      expect(found('fresh2')).toEqual(['msg-1002@test.example']);
      expect(found('word200')).toEqual([]);
      expect(labelsOf('msg-3@test.example')).toEqual(['flagged', 'inbox']);
      expect(labelsOf('msg-4@test.example')).toEqual(['inbox']);
      expect(rowidOf('msg-11@test.example')).toBe(movedRowid);
      expect(labelsOf('msg-11@test.example')).toEqual(['archive']);
      expect(count('SELECT count(*) FROM messages')).toBe(201);
      expect(count('SELECT count(*) FROM locations')).toBe(201);
      // Listing INBOX whole is 200 FETCH responses; its changes, their envelopes and the new
      // bodies, and the move's, are 14.
      expect(proxy.commands()).toContainEqual(
        expect.stringMatching(/^UID FETCH 1:\* .*\(CHANGEDSINCE \d+ VANISHED\)$/),
      );
      expect(proxy.fetchResponses()).toBeLessThan(30);
    } finally {
      await proxy.close();
    }
  });

  // Both a connection cut mid-fetch and a crashed server: the next run resumes from what the
  // committed batches hold.
  it.each(['connection cut', 'server killed'])(
    'resumes after a %s mid-sync: nothing lost, nothing twice',
    async (fault) => {
      const total = 600;
      server.deliver(
        'INBOX',
        Array.from({ length: total }, (_, i) => testMessage(i + 1)),
      );
      await driver.close();
      let killed: Promise<unknown> | undefined;
      const first = engine.ingest(
        [url],
        options({
          batchSize: 100,
          progressIntervalMs: 0,
          onProgress: (p) => {
            if (p.added >= 250 && !killed)
              killed =
                fault === 'server killed' ? server.stop(true) : Promise.resolve(server.dropConnections());
          },
        }),
      );
      await expect(first).rejects.toMatchObject({ code: 'connection_failed' });
      await killed;
      const committed = count('SELECT count(*) FROM messages');
      expect(committed).toBeGreaterThanOrEqual(200);
      expect(committed).toBeLessThan(total);
      expect(count('SELECT last_error IS NOT NULL FROM sources')).toBe(1);

      if (fault === 'server killed') await server.restart();
      driver = await MailboxDriver.connect(server);
      const second = await engine.ingest([url], options());
      expect(second.added).toBe(total - committed);
      expect(count('SELECT count(*) FROM messages')).toBe(total);
      expect(count('SELECT count(DISTINCT message_id) FROM messages')).toBe(total);
      expect(count('SELECT count(*) FROM locations')).toBe(total);
      expect(count('SELECT last_error IS NULL FROM sources')).toBe(1);
      expect(found('word599')).toEqual(['msg-599@test.example']);
    },
  );

  it('a large message is streamed in chunks and stored byte for byte beside small ones', async () => {
    await driver.append('INBOX', testMessage(1));
    const large = largeMessage(2, LARGE_BYTES, 'bulkyword');
    const uid = await driver.append('INBOX', large);
    await driver.append('INBOX', testMessage(3));
    const proxy = await startImapProxy(server);
    try {
      const report = await engine.ingest([`imap://${server.user}@127.0.0.1:${proxy.port}`], options());
      expect(report).toMatchObject({ added: 3, failed: 0 });
      expect(sha256(engine.getRaw('msg-2@test.example'))).toBe(sha256(large));
      expect(engine.getMessage('msg-2@test.example').attachments).toMatchObject([
        { filename: 'report-2.bin', contentType: 'application/octet-stream' },
      ]);
      expect(found('bulkyword')).toEqual(['msg-2@test.example']);
      // The large one alone, a megabyte per command; the small ones whole, in a batch each side.
      const bodies = proxy.commands().filter((c) => c.includes('BODY.PEEK[]'));
      const chunks = bodies.filter((c) => c.startsWith(`UID FETCH ${uid} `));
      expect(chunks).toHaveLength(Math.ceil(large.length / 2 ** 20));
      for (const chunk of chunks) expect(chunk).toMatch(/BODY\.PEEK\[\]<\d+\.1048576>/);
      expect(bodies.filter((c) => !chunks.includes(c))).toEqual([
        expect.stringMatching(/^UID FETCH 1 \(.*BODY\.PEEK\[\][^<]/),
        expect.stringMatching(/^UID FETCH 3 \(.*BODY\.PEEK\[\][^<]/),
      ]);
    } finally {
      await proxy.close();
    }
  });

  it('a connection cut while a large message streams fails the run naming the source; the next sync stores it once', async () => {
    for (const n of [1, 2]) await driver.append('INBOX', testMessage(n));
    const large = largeMessage(3, LARGE_BYTES);
    await driver.append('INBOX', large);
    await driver.append('INBOX', testMessage(4));
    await driver.close();
    // Cut when the second megabyte is asked for: the message is half read.
    let cut = false;
    const proxy = await startImapProxy(server, (command) => {
      if (!cut && /BODY\.PEEK\[\]<[1-9]\d*\./.test(command)) {
        cut = true;
        server.dropConnections();
      }
    });
    const viaProxy = `imap://${server.user}@127.0.0.1:${proxy.port}`;
    try {
      const error = await engine.ingest([viaProxy], options()).catch((e: unknown) => e);
      expect(cut).toBe(true);
      expect(error).toBeInstanceOf(MailsiftError);
      expect(error).toMatchObject({ code: 'connection_failed', param: `${viaProxy}/` });
      expect(count('SELECT count(*) FROM messages WHERE message_id = ?', 'msg-3@test.example')).toBe(0);

      expect(await engine.ingest([viaProxy], options())).toMatchObject({ failed: 0, duplicates: 0 });
      expect(count('SELECT count(*) FROM messages')).toBe(4);
      expect(count('SELECT count(*) FROM messages WHERE message_id = ?', 'msg-3@test.example')).toBe(1);
      expect(sha256(engine.getRaw('msg-3@test.example'))).toBe(sha256(large));
    } finally {
      await proxy.close();
    }
    driver = await MailboxDriver.connect(server);
  });

  it('a new UIDVALIDITY re-lists the folder without duplicates or downloads', async () => {
    for (let n = 1; n <= 3; n++) await driver.append('INBOX', testMessage(n));
    await engine.ingest([url], options());
    const before = db().prepare('SELECT id, message_id FROM messages ORDER BY id').all();
    await driver.close();
    // Dovecot picks a new UIDVALIDITY when its uidlist and index are gone.
    await server.stop();
    for (const file of ['dovecot-uidlist', 'dovecot.index', 'dovecot.index.log', 'dovecot.index.cache'])
      rmSync(join(server.maildir, file), { force: true });
    await server.restart();
    driver = await MailboxDriver.connect(server);

    const report = await engine.ingest([url], options());
    expect(report).toMatchObject({ scanned: 3, added: 0, duplicates: 0, deleted: 0, unchanged: 3 });
    expect(db().prepare('SELECT id, message_id FROM messages ORDER BY id').all()).toEqual(before);
    expect(count('SELECT count(*) FROM locations')).toBe(3);
  });

  it('a folder the server says is unchanged (CONDSTORE) is not listed again, and is once it changes', async () => {
    await driver.append('INBOX', testMessage(1));
    await driver.append('Archive', testMessage(2));
    await driver.append('Archive', testMessage(3));
    await engine.ingest([url], options());
    // Drift only a listing would repair: one Archive location forgotten by the archive.
    db().prepare("DELETE FROM locations WHERE folder = 'Archive' AND key LIKE '%;UID=1'").run();
    await driver.append('INBOX', testMessage(4));
    const quiet = await engine.ingest([url], options());
    expect(quiet).toMatchObject({ scanned: 3, added: 1, unchanged: 2 });
    expect(count("SELECT count(*) FROM locations WHERE folder = 'Archive'")).toBe(1);
    // A flag change raises HIGHESTMODSEQ: Archive is listed again, and whole.
    const [first] = await driver.uids('Archive');
    await driver.addFlags('Archive', [first as number], ['\\Flagged']);
    const listed = await engine.ingest([url], options());
    expect(listed).toMatchObject({ scanned: 4, added: 0, failed: 0 });
    expect(count("SELECT count(*) FROM locations WHERE folder = 'Archive'")).toBe(2);
    expect(labelsOf('msg-2@test.example')).toEqual(['archive', 'flagged']);
  });

  it('--folder limits the sync and names its own source; --exclude-folder leaves a folder out', async () => {
    await driver.append('INBOX', testMessage(1));
    await driver.append('Archive', testMessage(2));
    const only = await engine.ingest([url], options({ imap: { ...options().imap, folders: ['Archive'] } }));
    expect(only).toMatchObject({
      added: 1,
      sources: [`imap://alice@127.0.0.1:${server.port}/?folder=Archive`],
    });
    const rest = await engine.ingest([url], options({ imap: { ...options().imap, exclude: ['Archive'] } }));
    expect(rest).toMatchObject({ scanned: 1, added: 1 });
    // The two sources do not sweep each other's folders.
    expect(count('SELECT count(*) FROM messages')).toBe(2);
  });

  it('a refused login is a typed error naming the source, and stores nothing', async () => {
    await driver.append('INBOX', testMessage(1));
    const wrong = engine.ingest([url], {
      ...options(),
      imap: { credential: { kind: 'command', command: 'echo nope' } },
    });
    const error = await wrong.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MailsiftError);
    expect(error).toMatchObject({ code: 'auth_failed', param: `imap://alice@127.0.0.1:${server.port}/` });
    expect((error as Error).message).not.toContain('nope');
    expect(count('SELECT count(*) FROM sources')).toBe(0);
    expect(count('SELECT count(*) FROM messages')).toBe(0);
  });

  it('an unknown folder is a typed error naming the source and the folders it has', async () => {
    const error = await engine
      .ingest([url], options({ imap: { ...options().imap, folders: ['Nope'] } }))
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'not_found' });
    expect((error as Error).message).toMatch(/has no folder 'Nope' \(it has: INBOX, /);
  });
});

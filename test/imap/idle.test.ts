// watch's IDLE connections against a real Dovecot: a change in INBOX, or in another folder the
// source syncs, calls back at once, and a connection cut is re-opened (with a callback, since
// what changed meanwhile was announced to nobody) and keeps announcing.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { idleFolders, MAX_IDLE_FOLDERS } from '../../src/source/imap/idle.js';
import { type ImapWatcher, watchImapFolders } from '../../src/source/imap/index.js';
import { parseImapUrl } from '../../src/source/imap/url.js';
import { type DovecotServer, startDovecot } from '../support/dovecot.js';
import { MailboxDriver, testMessage } from '../support/imap-driver.js';

/** Resolves with the time it took for `count()` to pass `n`. */
async function reaches(count: () => number, n: number, ms: number): Promise<number> {
  const started = Date.now();
  while (count() < n) {
    if (Date.now() - started > ms) throw new Error(`only ${count()} of ${n} callbacks after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Date.now() - started;
}

describe('watchImapFolders', () => {
  let server: DovecotServer;
  let driver: MailboxDriver;
  let watcher: ImapWatcher | undefined;

  beforeEach(async () => {
    server = await startDovecot();
    driver = await MailboxDriver.connect(server);
  });

  afterEach(async () => {
    await watcher?.close();
    await driver.close();
    await server.close();
  });

  it('calls back on new mail in INBOX, and again after its connection was cut', async () => {
    let changes = 0;
    const errors: string[] = [];
    watcher = watchImapFolders(`imap://${server.user}@127.0.0.1:${server.port}`, {
      credential: { kind: 'command', command: `printf %s ${server.password}` },
      onChange: () => changes++,
      onError: (message) => errors.push(message),
    });
    // Time to log in and enter IDLE.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await driver.append('INBOX', testMessage(1));
    expect(await reaches(() => changes, 1, 3000)).toBeLessThan(3000);

    await driver.close();
    const before = changes;
    expect(server.dropConnections()).toBeGreaterThanOrEqual(1);
    // Re-opened after the first backoff (1 s), with a callback for what it may have missed.
    await reaches(() => changes, before + 1, 5000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    driver = await MailboxDriver.connect(server);
    const after = changes;
    await driver.append('INBOX', testMessage(2));
    await reaches(() => changes, after + 1, 3000);
    expect(errors).toEqual([]);
  });

  it('watches the folders the source synced, not only INBOX', async () => {
    await driver.createFolder('Lists');
    let changes = 0;
    const errors: string[] = [];
    watcher = watchImapFolders(`imap://${server.user}@127.0.0.1:${server.port}`, {
      credential: { kind: 'command', command: `printf %s ${server.password}` },
      synced: () => ['Lists'],
      onChange: () => changes++,
      onError: (message) => errors.push(message),
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await driver.append('Lists', testMessage(3));
    expect(await reaches(() => changes, 1, 3000)).toBeLessThan(3000);
    const before = changes;
    await driver.append('INBOX', testMessage(4));
    await reaches(() => changes, before + 1, 3000);
    expect(errors).toEqual([]);
  });
});

describe('idleFolders', () => {
  const address = (url: string, selection = {}) => parseImapUrl(url, selection);
  it('puts INBOX first, then the synced folders, at most MAX_IDLE_FOLDERS', () => {
    const synced = ['Archive', 'INBOX', 'Lists', 'Sent', 'Spam', 'Work'];
    expect(idleFolders(address('imaps://me@mail.example'), synced)).toEqual(
      ['INBOX', 'Archive', 'Lists', 'Sent', 'Spam', 'Work'].slice(0, MAX_IDLE_FOLDERS),
    );
  });
  it('watches only the folders a source names, never one it excludes', () => {
    expect(idleFolders(address('imaps://me@mail.example/Work'), ['INBOX', 'Work'])).toEqual(['Work']);
    expect(
      idleFolders(address('imaps://me@mail.example', { exclude: ['INBOX'] }), ['INBOX', 'Lists']),
    ).toEqual(['Lists']);
  });
});

// watch's IDLE connection against a real Dovecot: a change in INBOX calls back at once, and a
// connection cut is re-opened (with a callback, since what changed meanwhile was announced
// to nobody) and keeps announcing.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ImapWatcher, watchImapInbox } from '../../src/source/imap/index.js';
import { type DovecotServer, startDovecot } from '../support/dovecot.js';
import { MailboxDriver, testMessage } from '../support/imap-driver.js';

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

/** Resolves with the time it took for `count()` to pass `n`. */
async function reaches(count: () => number, n: number, ms: number): Promise<number> {
  const started = Date.now();
  while (count() < n) {
    if (Date.now() - started > ms) throw new Error(`only ${count()} of ${n} callbacks after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Date.now() - started;
}

describe('watchImapInbox', () => {
  it('calls back on new mail in INBOX, and again after its connection was cut', async () => {
    let changes = 0;
    const errors: string[] = [];
    watcher = watchImapInbox(`imap://${server.user}@127.0.0.1:${server.port}`, {
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
});

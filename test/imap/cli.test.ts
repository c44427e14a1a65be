// The IMAP source through the built CLI against a real Dovecot on loopback: ingest of a URL
// with the password in the environment, status's per-source folders and last error, the exit
// code of a refused login, and `watch`'s IDLE making new mail searchable within 5 s.

import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli, waitForOutput } from '../e2e/cli.js';
import { type DovecotServer, startDovecot } from '../support/dovecot.js';
import { MailboxDriver, testMessage } from '../support/imap-driver.js';
import { tempDir } from '../temp.js';

let server: DovecotServer;
let driver: MailboxDriver;
let db: string;
let url: string;

beforeAll(async () => {
  server = await startDovecot();
  driver = await MailboxDriver.connect(server);
  db = join(tempDir('mailsift-imap-cli-'), 'archive.db');
  url = `imap://${server.user}@127.0.0.1:${server.port}`;
});

afterAll(async () => {
  await driver.close();
  await server.close();
});

const withPassword = { MAILSIFT_IMAP_PASSWORD: 'secret-pw' };

describe('mailsift with an IMAP source', () => {
  it('ingests a URL, and status shows its folders; a wrong password exits 7 and is shown as the last error', async () => {
    await driver.append('INBOX', testMessage(1, 'alphaword'));
    await driver.append('Archive', testMessage(2));
    const ingest = runCli(['--db', db, 'ingest', url, '--exclude-folder', 'Trash'], withPassword);
    expect(ingest.stderr).toBe('');
    expect(ingest.status).toBe(0);
    expect(ingest.stdout).toMatch(/2 scanned, 2 new/);
    const search = runCli(['--db', db, '--json', 'search', 'alphaword']);
    expect(JSON.parse(search.stdout).messages.map((m: { messageId: string }) => m.messageId)).toEqual([
      'msg-1@test.example',
    ]);
    const source = `imap://alice@127.0.0.1:${server.port}/?exclude=Trash`;
    expect(runCli(['--db', db, 'status']).stdout).toContain(`imap ${source} (last complete run 20`);
    expect(runCli(['--db', db, 'status']).stdout).toContain('folders: Archive (1), INBOX (1), Sent (0)');
    // The health checks cover the source like any other: its last sync and what it holds.
    const checks = runCli(['--db', db, 'status', '--check']).stdout;
    expect(checks).toContain(`ok   default ${source} sync: last completed sync`);
    expect(checks).toContain(`ok   default ${source} source_count: 2 seen at the source, 2 stored, 0 failed`);

    const refused = runCli(['--db', db, 'ingest', url, '--exclude-folder', 'Trash'], {
      MAILSIFT_IMAP_PASSWORD: 'wrong-pw',
    });
    expect(refused.status).toBe(7);
    expect(refused.stderr).toContain(`${source} refused the login`);
    expect(refused.stderr + refused.stdout).not.toContain('wrong-pw');
    expect(runCli(['--db', db, 'status']).stdout).toMatch(/last error at .*refused the login/);
  });

  it('a mailsift killed mid-sync resumes from its committed batches: nothing lost, nothing twice', async () => {
    const total = 800;
    server.deliver(
      'Bulk',
      Array.from({ length: total }, (_, i) => testMessage(10_000 + i)),
    );
    const killedDb = join(tempDir('mailsift-imap-kill-'), 'archive.db');
    const args = ['--db', killedDb, 'ingest', url, '--folder', 'Bulk', '--batch-size', '100', '--no-extract'];
    process.env.MAILSIFT_IMAP_PASSWORD = withPassword.MAILSIFT_IMAP_PASSWORD;
    const child = startCli(args);
    delete process.env.MAILSIFT_IMAP_PASSWORD;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const stored = (): number => {
      try {
        const connection = new Database(killedDb, { readonly: true, fileMustExist: true });
        try {
          return connection.prepare('SELECT count(*) FROM messages').pluck().get() as number;
        } finally {
          connection.close();
        }
      } catch {
        return 0;
      }
    };
    const deadline = Date.now() + 60_000;
    while (stored() < 200 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    child.kill('SIGKILL');
    await exited;
    const committed = stored();
    expect(committed).toBeGreaterThanOrEqual(200);
    expect(committed).toBeLessThan(total);

    const rerun = runCli(args, withPassword);
    expect(rerun.status).toBe(0);
    expect(rerun.stdout).toContain(`${total} scanned, ${total - committed} new`);
    const connection = new Database(killedDb, { readonly: true });
    try {
      const count = (sql: string) => connection.prepare(sql).pluck().get() as number;
      expect(count('SELECT count(*) FROM messages')).toBe(total);
      expect(count('SELECT count(DISTINCT message_id) FROM messages')).toBe(total);
      expect(count('SELECT count(*) FROM locations')).toBe(total);
    } finally {
      connection.close();
    }
  });

  it('watch keeps INBOX and the synced folders in IDLE: new mail is searchable within 5 s', async () => {
    // The source recorded 'env' as its password's method: watch finds it there again, and the
    // folders its sync saw (Archive, INBOX, Sent) to watch.
    process.env.MAILSIFT_IMAP_PASSWORD = withPassword.MAILSIFT_IMAP_PASSWORD;
    // The folders watch keeps in IDLE are those a sync saw: sync first (nothing new when the
    // first test ran).
    expect(runCli(['--db', db, 'ingest', url, '--exclude-folder', 'Trash'], withPassword).status).toBe(0);
    // At normal priority (--nice 0): what is timed is the sync, not the scheduler, and the
    // searches polling for the message and the other test files keep both cores busy.
    const watch = startCli([
      ...['--db', db, 'watch', '--source', url, '--exclude-folder', 'Trash', '--interval', '1h'],
      ...['--nice', '0'],
    ]);
    delete process.env.MAILSIFT_IMAP_PASSWORD;
    let output = '';
    for (const stream of [watch.stdout, watch.stderr])
      stream?.on('data', (chunk: Buffer) => (output += chunk));
    try {
      // The first cycle syncs; from then on only IDLE can start one within the hour.
      await waitForOutput(watch, /health \w+/, 30_000);
      await new Promise((resolve) => setTimeout(resolve, 500));
      /** Milliseconds from an append to `folder` until a search finds it. */
      const searchableAfter = async (folder: string, n: number, word: string): Promise<number> => {
        const sent = Date.now();
        await driver.append(folder, testMessage(n, word));
        while (Date.now() - sent < 10_000) {
          const found = runCli(['--db', db, '--json', 'search', word]);
          if (found.status === 0 && JSON.parse(found.stdout).messages.length === 1) return Date.now() - sent;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        return Number.POSITIVE_INFINITY;
      };
      expect(await searchableAfter('INBOX', 3, 'idleword'), output).toBeLessThan(5000);
      expect(await searchableAfter('Archive', 4, 'archiveword'), output).toBeLessThan(5000);
    } finally {
      watch.kill('SIGTERM');
      await new Promise((resolve) => watch.once('exit', resolve));
    }
  });
});

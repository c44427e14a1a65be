import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli } from '../../../test/e2e/cli.js';
import { type FixtureArchive, fixtureArchive } from './test-support.js';

let archive: FixtureArchive;
beforeAll(async () => {
  archive = await fixtureArchive();
});
afterAll(() => archive.close());

describe('mailsift keys and serve (built CLI)', () => {
  it('creates a key printed once, lists it without the secret, and revokes it by prefix', () => {
    const created = runCli([
      '--db',
      archive.path,
      'keys',
      'create',
      '--inbox',
      'acme',
      '--name',
      'agent',
      '--json',
    ]);
    expect(created.status).toBe(0);
    const key = JSON.parse(created.stdout) as { key: string; prefix: string; inboxes: string[] };
    expect(key.key).toMatch(/^msk_/);
    expect(key.inboxes).toEqual(['acme']);
    const listed = runCli(['keys', 'list', '--db', archive.path]);
    expect(listed.stdout).toContain(key.prefix);
    expect(listed.stdout).not.toContain(key.key);
    const revoked = runCli(['keys', 'revoke', key.prefix, '--db', archive.path, '--json']);
    expect(JSON.parse(revoked.stdout).revokedAt).not.toBeNull();
    const missing = runCli(['keys', 'revoke', 'msk_nothing', '--db', archive.path]);
    expect(missing.status).toBe(3);
  });

  it('refuses --no-auth on a non-loopback host, naming --host', () => {
    const result = runCli(['serve', '--db', archive.path, '--no-auth', '--host', '0.0.0.0', '--port', '0']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--host');
  });

  it('serves until SIGTERM, then exits cleanly', async () => {
    const child = startCli(['serve', '--db', archive.path, '--port', '0', '--no-auth', '--json', '--quiet']);
    const [chunk] = (await once(child.stdout as NodeJS.ReadableStream, 'data')) as [Buffer];
    const { url } = JSON.parse(chunk.toString('utf8')) as { url: string };
    const reply = await fetch(`${url}/v1/inboxes/acme/messages/search?q=INV-7781`);
    const body = (await reply.json()) as { messages: Array<{ messageId: string }> };
    expect(body.messages[0]?.messageId).toBe('inv-7781@billing.northwind.example');
    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
  });

  it('serves from several worker processes on one port, replaces a dead one, and stops them all on SIGTERM', async () => {
    const child = startCli([
      'serve',
      '--db',
      archive.path,
      '--port',
      '0',
      '--no-auth',
      '--json',
      '--workers',
      '2',
    ]);
    const [chunk] = (await once(child.stdout as NodeJS.ReadableStream, 'data')) as [Buffer];
    const { url, workers } = JSON.parse(chunk.toString('utf8')) as { url: string; workers: number };
    expect(workers).toBe(2);
    let log = '';
    child.stderr?.on('data', (data: Buffer) => {
      log += data.toString('utf8');
    });
    const lines = () =>
      log
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { pid?: number; event?: string; status?: number });
    const search = async () => {
      const reply = await fetch(`${url}/v1/inboxes/acme/messages/search?q=INV-7781`, {
        headers: { connection: 'close' },
      });
      const body = (await reply.json()) as { messages: Array<{ messageId: string }> };
      expect(body.messages[0]?.messageId).toBe('inv-7781@billing.northwind.example');
    };
    // The second worker may still be starting: ask until both have answered.
    for (let i = 0; i < 200 && new Set(lines().map((l) => l.pid)).size < 2; i++) await search();
    const pids = [...new Set(lines().map((l) => l.pid))];
    expect(pids).toHaveLength(2);

    process.kill(pids[0] as number, 'SIGKILL');
    for (let i = 0; i < 200 && !lines().some((l) => l.event === 'worker_exit'); i++)
      await new Promise((resolve) => setTimeout(resolve, 25));
    expect(lines().find((l) => l.event === 'worker_exit')).toMatchObject({ pid: pids[0], signal: 'SIGKILL' });
    for (let i = 0; i < 5; i++) await search();

    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
    expect(lines().every((l) => l.status === undefined || l.status === 200)).toBe(true);
  });
});

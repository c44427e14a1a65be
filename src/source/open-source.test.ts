import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MailsiftError } from '../core/index.js';
import { MailTreeSource, MboxSource, openSource } from './index.js';
import { collect, FIXTURES } from './test-helpers.js';

const scratch = mkdtemp(join(tmpdir(), 'mailsift-open-'));
afterAll(async () => rm(await scratch, { recursive: true, force: true }));

describe('openSource', () => {
  it.each([
    ['mbox/thunderbird/Inbox', MboxSource, 'mbox'],
    ['mbox/crlf/windows-export.mbox', MboxSource, 'mbox'],
    ['maildir/dovecot', MailTreeSource, 'maildir'],
    ['maildir/nested', MailTreeSource, 'maildir'],
    ['maildir/dovecot/.Sent', MailTreeSource, 'maildir'],
    ['eml', MailTreeSource, 'eml'],
    ['eml/warehouse.eml', MailTreeSource, 'eml'],
  ])('detects %s', async (relative, type, kind) => {
    const source = await openSource(join(FIXTURES, relative));
    expect(source).toBeInstanceOf(type);
    expect(source.kind).toBe(kind);
    expect(source.path).toBe(join(FIXTURES, relative));
  });

  it('detects a Maildir++ root that has only .Folder subdirectories', async () => {
    const root = join(await scratch, 'plusplus');
    await cp(join(FIXTURES, 'maildir/dovecot/.Sent'), join(root, '.Sent'), { recursive: true });
    const source = await openSource(root);
    expect(source.kind).toBe('maildir');
    expect((await collect(source)).map((e) => e.folder)).toEqual(['Sent']);
  });

  it('detects a root holding only nested maildirs (one per account, no dots) as a maildir tree', async () => {
    const root = join(await scratch, 'accounts');
    await cp(join(FIXTURES, 'maildir/nested/Work'), join(root, 'work'), { recursive: true });
    const source = await openSource(root);
    expect(source.kind).toBe('maildir');
    expect((await collect(source)).map((e) => e.folder)).toEqual(['work', 'work/Clients']);
  });

  it('reads an empty file as an empty mbox', async () => {
    const path = join(await scratch, 'Trash');
    await writeFile(path, '');
    const source = await openSource(path);
    expect(source.kind).toBe('mbox');
    expect(await collect(source)).toEqual([]);
  });

  it('throws not_found naming a missing path', async () => {
    const path = join(FIXTURES, 'mbox/no-such-file.mbox');
    const error = await openSource(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MailsiftError);
    expect(error).toMatchObject({ code: 'not_found', param: path });
    expect((error as Error).message).toContain(path);
  });

  it('throws bad_format naming a file that is neither an mbox nor a message, and why', async () => {
    const path = join(FIXTURES, 'mbox/not-mail/inventory.csv');
    const error = await openSource(path).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'bad_format', param: path });
    expect((error as Error).message).toContain('"sku,description,qty"');
  });

  it('does not take "key: value" text without mail header fields for a message', async () => {
    const path = join(await scratch, 'config.yaml');
    await writeFile(path, 'name: mailsift\nversion: 1\n');
    await expect(openSource(path)).rejects.toMatchObject({ code: 'bad_format', param: path });
  });

  it('throws unreadable for a path that is neither a file nor a directory (a socket)', async () => {
    const path = join(await scratch, 'mail.sock');
    const server = createServer();
    await new Promise<void>((done) => server.listen(path, done));
    try {
      await expect(openSource(path)).rejects.toMatchObject({ code: 'unreadable', param: path });
    } finally {
      await new Promise((done) => server.close(done));
    }
  });

  it('throws unreadable when the given kind does not match: a directory as mbox, a file as maildir', async () => {
    const dir = join(FIXTURES, 'maildir/dovecot');
    await expect(openSource(dir, { kind: 'mbox' })).rejects.toMatchObject({ code: 'unreadable', param: dir });
    const file = join(FIXTURES, 'eml/warehouse.eml');
    await expect(openSource(file, { kind: 'maildir' })).rejects.toMatchObject({
      code: 'unreadable',
      param: file,
    });
  });

  it('rejects an unknown kind before touching the path', async () => {
    await expect(openSource('/nonexistent', { kind: 'imap' as 'mbox' })).rejects.toMatchObject({
      code: 'invalid_argument',
      param: 'kind',
    });
  });

  it('passes mboxFormat and maxMessageBytes through, and validates them', async () => {
    const source = await openSource(join(FIXTURES, 'mbox/escaped/minutes.mbox'), { mboxFormat: 'mboxo' });
    const [first] = await collect(source);
    expect((await first?.read())?.toString()).toContain('\n>>>From deep in the archive.\n');
    await expect(openSource(join(FIXTURES, 'eml'), { maxMessageBytes: 0 })).rejects.toMatchObject({
      code: 'invalid_argument',
      param: 'maxMessageBytes',
    });
  });
});

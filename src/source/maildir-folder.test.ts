import { cp, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MailTreeSource } from './index.js';
import { maildirPlusPlusName, splitFileName } from './maildir-folder.js';
import { collect, FIXTURES, readText } from './test-helpers.js';

const dovecot = join(FIXTURES, 'maildir/dovecot');
const scratch = mkdtemp(join(tmpdir(), 'mailsift-maildir-'));
afterAll(async () => rm(await scratch, { recursive: true, force: true }));

/** A mail tree reading a maildir, as openSource opens one. */
const maildir = (path: string): MailTreeSource => new MailTreeSource(path, { kind: 'maildir' });

describe('Maildir folders in a mail tree', () => {
  it('walks a Dovecot Maildir++: INBOX first, then folders; skips tmp/, index files and dotfiles', async () => {
    const source = maildir(dovecot);
    const entries = await collect(source);
    expect(source.skipped().map((s) => [s.kind, s.count, s.example.slice(dovecot.length + 1)])).toEqual([
      ['dovecot', 4, '.Sent/dovecot-uidlist'],
      ['maildir-meta', 1, 'subscriptions'],
      ['hidden', 1, '.notes'],
      ['maildir-tmp', 1, 'tmp/1707300000.M404P2004.mx1'],
    ]);
    expect(entries.map((e) => e.key)).toEqual([
      'INBOX/1707123600.M101P2001.mx1,S=383,W=393',
      'INBOX/1707216300.M202P2002.mx1,S=357,W=367',
      'INBOX/1707292800.M303P2003.mx1,S=358,W=368',
      'Archive/2024/1707123600.M909P2009.mx1,S=383',
      'Entwürfe/1707411600.M606P2006.mx1,S=381',
      'Sent/1707235200.M505P2005.mx1,S=359',
      'Trash/1707300000.M707P2007.mx1,S=357',
    ]);
    expect(entries.map((e) => e.folder)).toEqual([
      'INBOX',
      'INBOX',
      'INBOX',
      'Archive/2024',
      'Entwürfe',
      'Sent',
      'Trash',
    ]);
  });

  it('maps info flags to labels; files in new/ have none', async () => {
    const entries = await collect(maildir(dovecot));
    expect(entries.map((e) => e.labels)).toEqual([
      ['seen'],
      ['seen', 'replied', 'flagged'],
      [],
      ['seen'],
      ['seen', 'draft'],
      ['seen'],
      ['seen', 'trashed'],
    ]);
  });

  it('yields the same message in two folders as two entries', async () => {
    const entries = await collect(maildir(dovecot));
    const forecast = entries.filter((e) => e.key.includes('1707123600'));
    expect(forecast.map((e) => e.folder)).toEqual(['INBOX', 'Archive/2024']);
    const [a, b] = await Promise.all(forecast.map(readText));
    expect(a).toBe(b);
    expect(a).toContain('Subject: Q1 forecast\n');
  });

  it('keeps the key when flags change or new/ moves to cur/, and changes the fingerprint', async () => {
    const root = join(await scratch, 'flags');
    await cp(dovecot, root, { recursive: true });
    const before = await collect(maildir(root));
    await rename(
      join(root, 'cur/1707123600.M101P2001.mx1,S=383,W=393:2,S'),
      join(root, 'cur/1707123600.M101P2001.mx1,S=383,W=393:2,FS'),
    );
    await rename(
      join(root, 'new/1707292800.M303P2003.mx1,S=358,W=368'),
      join(root, 'cur/1707292800.M303P2003.mx1,S=358,W=368:2,S'),
    );
    const after = await collect(maildir(root));
    expect(after.map((e) => e.key)).toEqual(before.map((e) => e.key));
    expect(after[0]?.labels).toEqual(['seen', 'flagged']);
    expect(after[0]?.fingerprint).not.toBe(before[0]?.fingerprint);
    expect(after[1]?.fingerprint).toBe(before[1]?.fingerprint);
    expect(after[2]?.labels).toEqual(['seen']);
  });

  it('yields a message caught mid-move (in new/ and cur/ at once) once, as its cur/ copy', async () => {
    const root = join(await scratch, 'mid-move');
    await cp(dovecot, root, { recursive: true });
    await cp(
      join(root, 'new/1707292800.M303P2003.mx1,S=358,W=368'),
      join(root, 'cur/1707292800.M303P2003.mx1,S=358,W=368:2,S'),
    );
    const inbox = (await collect(maildir(root))).filter((e) => e.folder === 'INBOX');
    expect(inbox.map((e) => [e.key, e.labels])).toEqual([
      ['INBOX/1707123600.M101P2001.mx1,S=383,W=393', ['seen']],
      ['INBOX/1707216300.M202P2002.mx1,S=357,W=367', ['seen', 'replied', 'flagged']],
      ['INBOX/1707292800.M303P2003.mx1,S=358,W=368', ['seen']],
    ]);
  });

  it('treats plain nested maildirs as folder paths', async () => {
    const entries = await collect(maildir(join(FIXTURES, 'maildir/nested')));
    expect(entries.map((e) => [e.folder, e.key, e.labels])).toEqual([
      ['INBOX', 'INBOX/1707123600.M1P1.host', ['seen']],
      ['Work', 'Work/1707216300.M2P2.host', []],
      ['Work/Clients', 'Work/Clients/1707292800.M3P3.host', []],
    ]);
  });

  it('reads files lazily and reports a message removed after the scan as not_found', async () => {
    const root = join(await scratch, 'lazy');
    await cp(dovecot, root, { recursive: true });
    const [first] = await collect(maildir(root));
    await rm(join(root, 'cur/1707123600.M101P2001.mx1,S=383,W=393:2,S'));
    await expect(first?.read()).rejects.toMatchObject({ code: 'not_found' });
  });

  it('rejects a missing path as not_found', async () => {
    await expect(collect(maildir(join(dovecot, 'nope')))).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('maildir names', () => {
  it('splits the unique part from the info, with ":" or "!" as separator', () => {
    expect(splitFileName('1707.M1P2.host,S=10:2,RS')).toEqual({ unique: '1707.M1P2.host,S=10', info: 'RS' });
    expect(splitFileName('1707.M1P2.host!2,S')).toEqual({ unique: '1707.M1P2.host', info: 'S' });
    expect(splitFileName('1707.M1P2.host')).toEqual({ unique: '1707.M1P2.host', info: '' });
  });

  it('decodes Maildir++ folder names, modified UTF-7 included', () => {
    expect(maildirPlusPlusName('.Archive.2024')).toBe('Archive/2024');
    expect(maildirPlusPlusName('.&BB4EQgQ,BEAEMAQyBDsENQQ9BD0ESwQ1-')).toBe('Отправленные');
    expect(maildirPlusPlusName('.R&-D')).toBe('R&D');
  });
});

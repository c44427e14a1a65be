import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MailTreeSource } from './index.js';
import {
  collect,
  expandNumbers,
  FIXTURES,
  MIXED_TREE_MESSAGES,
  NOTMUCH_LAYOUT,
  readText,
  writeMixedTree,
  writeNotmuchLayout,
} from './test-helpers.js';

const root = join(FIXTURES, 'eml');
const scratch = mkdtempSync(join(tmpdir(), 'mailsift-tree-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const subjectOf = async (entry: Parameters<typeof readText>[0]): Promise<string> =>
  /^Subject: (.*)$/m.exec(await readText(entry))?.[1] ?? '';

describe('MailTreeSource on a tree of .eml files', () => {
  it('walks message files in sorted order, counting other files and hidden directories', async () => {
    const source = new MailTreeSource(root);
    const entries = await collect(source);
    expect(entries.map((e) => [e.key, e.folder])).toEqual([
      ['2023/Q4/invoice-2023-Q4-118.eml', '2023/Q4'],
      ['2024/Order Confirmation 77812.EML', '2024'],
      ['warehouse.eml', ''],
    ]);
    expect(source.skipped().map((s) => [s.kind, s.count, s.example.slice(root.length + 1)])).toEqual([
      ['hidden', 1, '.trash'],
      ['not-mail', 1, '2024/readme.txt'],
    ]);
  });

  it('fingerprints by size and mtime, and reads the bytes on demand', async () => {
    const [first] = await collect(new MailTreeSource(root));
    const file = join(root, '2023/Q4/invoice-2023-Q4-118.eml');
    const stats = statSync(file);
    expect(first?.fingerprint).toBe(`${stats.size}:${stats.mtimeMs}`);
    expect(first?.fileTime).toEqual(stats.mtime);
    expect(first?.labels).toEqual([]);
    expect(await readText(first as NonNullable<typeof first>)).toContain('Subject: Invoice 2023-Q4-118\n');
  });

  it('reads a single message file as a one-entry source', async () => {
    const entries = await collect(new MailTreeSource(join(root, 'warehouse.eml')));
    expect(entries.map((e) => [e.key, e.folder])).toEqual([['warehouse.eml', '']]);
  });

  it('rejects a message larger than maxMessageBytes when read', async () => {
    const [first] = await collect(new MailTreeSource(root, { maxMessageBytes: 100 }));
    await expect(first?.read()).rejects.toMatchObject({ code: 'bad_format' });
  });
});

describe('MailTreeSource on a mixed mail tree', () => {
  const mixed = join(scratch, 'mixed');
  writeMixedTree(mixed);

  it('reads every message: maildirs with their flags, loose files whatever their name, mbox files', async () => {
    const entries = await collect(new MailTreeSource(mixed));
    const read = await Promise.all(entries.map(async (e) => [await subjectOf(e), e.folder]));
    expect(read.sort()).toEqual(MIXED_TREE_MESSAGES.map(([s, f]) => [s, f]).sort());
    const bySubject = new Map(await Promise.all(entries.map(async (e) => [await subjectOf(e), e] as const)));
    expect(bySubject.get('inbox replied flagged')?.labels).toEqual(['replied', 'flagged']);
    expect(bySubject.get('inbox new')?.key).toBe('INBOX/1707000003.M3P3.host');
    expect(bySubject.get('loose in a maildir')?.key).toBe('Lists/rust/0042');
    expect(bySubject.get('mh deep')?.key).toBe('MH/inbox/archive/2023/7');
    expect(bySubject.get('mbox two')?.key).toMatch(/^Archives\/2019\.mbox\/[0-9a-f]{20}:0$/);
  });

  it('counts what is not mail per kind, with its reason and a first path', async () => {
    const source = new MailTreeSource(mixed);
    expect(source.skipped()).toEqual([]);
    await collect(source);
    expect(source.skipped().map((s) => [s.kind, s.count, s.example.slice(mixed.length + 1)])).toEqual([
      ['dovecot', 6, '.Sent/dovecot-uidlist'],
      ['courier', 2, 'courierimapkeywords'],
      ['mbsync', 2, '.mbsyncstate'],
      ['maildir-meta', 2, '.Sent/maildirfolder'],
      ['notmuch', 1, '.notmuch'],
      ['mu', 1, '.mu'],
      ['thunderbird-index', 1, 'Local Folders/Inbox.msf'],
      ['editor-backup', 2, '.welcome.eml.swp'],
      ['hidden', 2, '.git'],
      ['maildir-tmp', 1, 'tmp/1707000099.M9P9.host'],
      ['empty', 1, 'Trash'],
      ['special', 1, 'link-to-lists'],
      ['not-mail', 1, 'README.txt'],
    ]);
    for (const kind of source.skipped()) expect(kind.reason).not.toBe('');
  });

  it('yields the same keys and fingerprints on every scan', async () => {
    const first = await collect(new MailTreeSource(mixed));
    const second = await collect(new MailTreeSource(mixed));
    expect(new Set(first.map((e) => e.key)).size).toBe(first.length);
    expect(second.map((e) => [e.key, e.fingerprint])).toEqual(first.map((e) => [e.key, e.fingerprint]));
  });
});

describe("MailTreeSource on the layout of notmuch's test corpus", () => {
  const corpus = join(scratch, 'notmuch');
  writeNotmuchLayout(corpus);

  it('reads all 53 message files: 43 in maildirs and 10 loose beside them', async () => {
    const source = new MailTreeSource(corpus, { kind: 'maildir' });
    const entries = await collect(source);
    expect(entries).toHaveLength(53);
    expect(source.skipped()).toEqual([]);
    const expected = NOTMUCH_LAYOUT.flatMap(([folder, part, numbers]) =>
      expandNumbers(numbers).map((n) => [
        `corpus message ${n}`,
        part !== '' && folder === '' ? 'INBOX' : folder,
      ]),
    );
    const read = await Promise.all(entries.map(async (e) => [await subjectOf(e), e.folder]));
    expect(read.sort()).toEqual(expected.sort());
    expect(entries.filter((e) => e.key.endsWith(':2,')).map((e) => e.key)).toEqual([
      '01:2,',
      '02:2,',
      'bar/17:2,',
      'bar/18:2,',
      'bar/baz/05:2,',
      'bar/baz/23:2,',
      'bar/baz/24:2,',
      'foo/06:2,',
      'foo/baz/11:2,',
      'foo/baz/12:2,',
    ]);
  });
});

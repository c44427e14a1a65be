import { copyFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MailsiftError } from '../core/index.js';
import { MboxSource } from './index.js';
import { MboxSplitter } from './mbox-splitter.js';
import { collect, FIXTURES, readText } from './test-helpers.js';

const mbox = (name: string) => join(FIXTURES, 'mbox', name);
const scratch = mkdtemp(join(tmpdir(), 'mailsift-mbox-'));
afterAll(async () => rm(await scratch, { recursive: true, force: true }));

describe('MboxSource', () => {
  it('splits a Thunderbird mbox, drops separator lines and maps X-Mozilla-Status', async () => {
    const entries = await collect(new MboxSource(mbox('thunderbird/Inbox')));
    expect(entries.map((e) => e.folder)).toEqual(['Inbox', 'Inbox', 'Inbox']);
    const texts = await Promise.all(entries.map(readText));
    expect(texts[0]?.startsWith('X-Mozilla-Status: 0001\n')).toBe(true);
    expect(texts[0]?.endsWith('Best regards,\nGiulia\n')).toBe(true);
    expect(texts.join('')).not.toMatch(/^From - /m);
    expect(entries.map((e) => e.labels)).toEqual([['seen'], ['seen', 'flagged'], ['seen', 'trashed']]);
    const { mtime } = await stat(mbox('thunderbird/Inbox'));
    expect(entries[0]?.fileTime).toEqual(mtime);
  });

  it('reads a Gmail Takeout mbox with its X-GM-THRID and X-Gmail-Labels headers intact', async () => {
    const entries = await collect(
      new MboxSource(mbox('gmail-takeout/All mail Including Spam and Trash.mbox')),
    );
    expect(entries).toHaveLength(3);
    expect(entries[0]?.folder).toBe('All mail Including Spam and Trash');
    const last = await readText(entries[2] as (typeof entries)[number]);
    expect(last).toMatch(/^X-GM-THRID: 1788234567890123999\nX-Gmail-Labels: Inbox,Opened\n/);
    // The final message keeps its own last line break; nothing is appended.
    expect(last.endsWith('Lena\n')).toBe(true);
  });

  it('unescapes every >+From line by one ">" in mboxrd (the default)', async () => {
    const [first] = await collect(new MboxSource(mbox('escaped/minutes.mbox')));
    const text = await readText(first as NonNullable<typeof first>);
    expect(text).toContain("\nFrom the supplier's side, the schedule holds.\n");
    expect(text).toContain('\n>From my earlier mail: gate 4 only.\n');
    expect(text).toContain('\n> quoted line that stays quoted\n');
    expect(text).toContain('\n>>From deep in the archive.\n');
  });

  it('unescapes only >From lines in mboxo', async () => {
    const [first] = await collect(new MboxSource(mbox('escaped/minutes.mbox'), { mboxFormat: 'mboxo' }));
    const text = await readText(first as NonNullable<typeof first>);
    expect(text).toContain("\nFrom the supplier's side, the schedule holds.\n");
    expect(text).toContain('\n>>From my earlier mail: gate 4 only.\n');
    expect(text).toContain('\n>>>From deep in the archive.\n');
  });

  it('splits a CRLF mbox and keeps a final message that has no trailing newline', async () => {
    const entries = await collect(new MboxSource(mbox('crlf/windows-export.mbox')));
    const texts = await Promise.all(entries.map(readText));
    expect(texts).toHaveLength(2);
    expect(texts[0]?.startsWith('From: Carlos Ruiz <carlos.ruiz@ejemplo.es>\r\n')).toBe(true);
    expect(texts[0]?.endsWith('\r\nFrom now on invoices come from facturas@ejemplo.es.\r\n')).toBe(true);
    expect(texts[1]?.endsWith('\r\n\r\nGracias, Carlos.')).toBe(true);
    expect(entries[0]?.labels).toEqual(['seen']);
  });

  it('maps Status and X-Status letters to labels, reading only the header block', async () => {
    const entries = await collect(new MboxSource(mbox('status/mutt-inbox.mbox')));
    expect(entries.map((e) => e.labels)).toEqual([
      ['seen', 'replied', 'flagged'],
      ['trashed'],
      ['draft'],
      [],
    ]);
  });

  it('keys by content hash and ordinal: identical copies differ, removals leave other keys alone', async () => {
    const path = mbox('duplicates/archive.mbox');
    const entries = await collect(new MboxSource(path));
    const keys = entries.map((e) => e.key);
    expect(keys[0]).toMatch(/^[0-9a-f]{20}:0$/);
    expect(keys[2]).toBe(`${keys[0]?.slice(0, 20)}:1`);
    expect(new Set(keys).size).toBe(3);
    expect(entries[0]?.fingerprint).toBe(entries[2]?.fingerprint);
    expect(await readText(entries[0] as NonNullable<(typeof entries)[0]>)).toBe(
      await readText(entries[2] as NonNullable<(typeof entries)[0]>),
    );

    // Remove the password mail from the middle: the payslip copies keep their keys.
    const text = await readFile(path, 'utf8');
    const pruned = join(await scratch, 'archive.mbox');
    await writeFile(pruned, text.replace(/From MAILER-DAEMON[^\n]*\nFrom: IT Desk[\s\S]*?\n\n(?=From )/, ''));
    const after = await collect(new MboxSource(pruned));
    expect(after.map((e) => e.key)).toEqual([keys[0], keys[2]]);
  });

  it('yields an oversized message as an entry whose read() rejects, and goes on', async () => {
    const big = `From a@example.org Mon Jan  1 00:00:00 2024\nSubject: big\nStatus: RO\n\n${'x'.repeat(4000)}\n\n`;
    const small = 'From b@example.org Mon Jan  1 00:00:00 2024\nSubject: small\n\nhello\n';
    const path = join(await scratch, 'big.mbox');
    await writeFile(path, big + small);
    const entries = await collect(new MboxSource(path, { maxMessageBytes: 1000 }));
    expect(entries).toHaveLength(2);
    expect(entries[0]?.labels).toEqual(['seen']);
    const error = await entries[0]?.read().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MailsiftError);
    expect(error).toMatchObject({ code: 'bad_format', param: path });
    expect((error as Error).message).toMatch(
      /message at byte offset 0 .* exceeds the 1000-byte message limit/,
    );
    expect(await readText(entries[1] as NonNullable<(typeof entries)[1]>)).toBe('Subject: small\n\nhello\n');
  });

  it('rejects a file that is not an mbox with bad_format naming the path', async () => {
    const path = mbox('not-mail/inventory.csv');
    await expect(collect(new MboxSource(path))).rejects.toMatchObject({ code: 'bad_format', param: path });
  });

  it('treats a directory given as an mbox as unreadable', async () => {
    await expect(collect(new MboxSource(mbox('thunderbird')))).rejects.toMatchObject({ code: 'unreadable' });
  });

  it('rejects an unknown mboxFormat', () => {
    expect(() => new MboxSource('x', { mboxFormat: 'mboxcl2' as 'mboxo' })).toThrow(/mboxFormat/);
  });

  it('copies of a file give the same keys (keys depend on content, not path)', async () => {
    const copy = join(await scratch, 'copy.mbox');
    await copyFile(mbox('status/mutt-inbox.mbox'), copy);
    const a = (await collect(new MboxSource(copy))).map((e) => e.key);
    const b = (await collect(new MboxSource(mbox('status/mutt-inbox.mbox')))).map((e) => e.key);
    expect(a).toEqual(b);
  });
});

describe('MboxSplitter', () => {
  const split = (chunks: string[]) => {
    const splitter = new MboxSplitter({ format: 'mboxrd', maxMessageBytes: 1 << 20, param: 'test' });
    const out = chunks.flatMap((chunk) => splitter.push(Buffer.from(chunk)));
    return [...out, ...splitter.end()].map((m) => (m.kind === 'message' ? m.bytes.toString() : `!${m.size}`));
  };

  it('finds separators split across chunk boundaries, at every cut point', async () => {
    const text = await readFile(mbox('escaped/minutes.mbox'), 'utf8');
    const whole = split([text]);
    for (let cut = 1; cut < text.length; cut += 7) {
      expect(split([text.slice(0, cut), text.slice(cut)])).toEqual(whole);
    }
    expect(split(text.match(/[\s\S]{1,3}/g) ?? [])).toEqual(whole);
  });

  it('skips leading blank lines and ignores a trailing separator with no message', () => {
    expect(split(['\n\r\nFrom a b\nSubject: one\n\nbody\n\nFrom x y\n'])).toEqual(['Subject: one\n\nbody\n']);
  });

  it('reports the byte offset of each message', () => {
    const splitter = new MboxSplitter({ format: 'mboxrd', maxMessageBytes: 1 << 20, param: 'test' });
    const text = 'From a\nS: 1\n\nFrom b\nS: 2\n';
    const out = [
      ...splitter.push(Buffer.from(text.slice(0, 9))),
      ...splitter.push(Buffer.from(text.slice(9))),
    ];
    expect([...out, ...splitter.end()].map((m) => m.offset)).toEqual([0, text.indexOf('From b')]);
  });

  it('reads an empty input as no messages', () => {
    expect(split([])).toEqual([]);
    expect(split(['\n\n'])).toEqual([]);
  });
});

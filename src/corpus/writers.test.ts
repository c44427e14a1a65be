import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { composeMessage } from './compose.js';
import { generateCorpus } from './generator.js';
import { type MailboxEntry, mboxrdEscape, writeMaildir, writeMbox } from './writers.js';

const tmp = mkdtempSync(join(tmpdir(), 'mailsift-corpus-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const date = new Date('2024-09-03T07:12:01Z');
const tricky = composeMessage({
  from: { name: 'Anna Weber', address: 'anna.weber@nordwind-logistik.de' },
  to: [{ name: 'Kevin Miller', address: 'kevin.miller@acme-corp.com' }],
  subject: 'Lines that look like mbox separators',
  date,
  tzOffset: 120,
  messageId: 'from-lines@nordwind-logistik.de',
  charset: 'utf-8',
  transferEncoding: '8bit',
  text: 'Hello Kevin,\n\nFrom the warehouse: pallets are ready.\n>From the quote above, nothing changed.\n>>From deeper still.\nFromage is not a separator.\n',
  html: null,
  boundary: 'b1',
});

/** Reads an mboxrd file back: split on separator lines, drop one '>' from quoted From lines. */
function readMbox(file: string): string[] {
  const text = readFileSync(file, 'latin1');
  return text
    .split(/^From [^\n]*\n/m)
    .slice(1)
    .map((m) => m.replace(/\n$/, '').replace(/^>(>*From )/gm, '$1'));
}

describe('mboxrd writer', () => {
  it('quotes every From line in bodies and restores the exact bytes on reading', async () => {
    const file = join(tmp, 'tricky.mbox');
    const entries: MailboxEntry[] = [
      { bytes: tricky, folder: 'INBOX', flags: 'S', date },
      { bytes: tricky, folder: 'Archive', flags: '', date },
    ];
    const stats = await writeMbox(file, entries, { gmailLabels: true });
    expect(stats.messages).toBe(2);
    const raw = readFileSync(file, 'latin1');
    expect(raw).toMatch(/^From anna\.weber@nordwind-logistik\.de Tue Sep {2}3 07:12:01 2024\n/);
    expect(raw).toContain('\n>From the warehouse');
    expect(raw).toContain('\n>>From the quote above');
    expect(raw).toContain('\n>>>From deeper still');
    expect(raw).toContain('\nFromage is not a separator');
    expect(raw).toContain('X-Gmail-Labels: Inbox,Opened\n');
    expect(raw).toContain('X-Gmail-Labels: Archived,Unread\n');
    const back = readMbox(file).map((m) => m.replace(/^X-Gmail-Labels: [^\n]*\n/, ''));
    expect(back).toEqual([tricky.toString('latin1'), tricky.toString('latin1')]);
  });

  it('leaves messages without From lines untouched', () => {
    const plain = Buffer.from('Subject: x\n\nno separators here\n');
    expect(mboxrdEscape(plain)).toBe(plain);
  });

  it('streams a generated corpus and keeps every message', async () => {
    const file = join(tmp, 'corpus.mbox');
    const messages = [...generateCorpus({ seed: 3, messages: 400 })];
    const stats = await writeMbox(file, messages);
    expect(stats.messages).toBe(400);
    expect(readMbox(file)).toEqual(messages.map((m) => m.bytes.toString('latin1')));
  });
});

describe('Maildir++ writer', () => {
  it('writes INBOX at the root, folders as dot-subfolders, flags in file names', async () => {
    const dir = join(tmp, 'Maildir');
    const messages = [...generateCorpus({ seed: 11, messages: 500 })];
    const stats = await writeMaildir(dir, messages);
    expect(stats).toEqual({ messages: 500, bytes: messages.reduce((s, m) => s + m.bytes.length, 0) });
    const top = readdirSync(dir).sort();
    expect(top).toEqual(expect.arrayContaining(['.Archive', '.Sent', 'cur', 'new', 'tmp']));
    expect(readdirSync(join(dir, '.Sent'))).toContain('maildirfolder');
    let files = 0;
    for (const folder of ['', ...top.filter((t) => t.startsWith('.'))]) {
      for (const name of readdirSync(join(dir, folder, 'cur'))) {
        expect(name).toMatch(/^\d+\.M\d+P1Q1\.mailsift,S=\d+:2,[DFPRST]+$/);
        files++;
      }
      for (const name of readdirSync(join(dir, folder, 'new'))) {
        expect(name).not.toContain(':2,');
        files++;
      }
    }
    expect(files).toBe(500);
    const sent = readdirSync(join(dir, '.Sent', 'cur'));
    expect(sent.every((n) => n.endsWith(':2,S'))).toBe(true);
  });
});

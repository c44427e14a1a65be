// Writes messages to disk as a Maildir++ tree or one mboxrd file, streaming: neither
// writer holds more than a few messages in memory, so million-message corpora fit.

import { once } from 'node:events';
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MailsiftError } from '../core/errors.js';
import { formatMboxDate } from './encode.js';

/** What a writer needs from a message; GeneratedMessage has all of it. */
export interface MailboxEntry {
  readonly bytes: Buffer;
  /** 'INBOX' or a folder name; '/' separates nested folders ('Archive/2024'). */
  readonly folder: string;
  /** Maildir info flags in ASCII order ('RS', 'S', ''). */
  readonly flags: string;
  readonly date: Date;
  /** Gmail labels for a Takeout-style mbox; derived from folder and flags when absent. */
  readonly labels?: readonly string[];
}

export interface WriteStats {
  readonly messages: number;
  readonly bytes: number;
}

type Entries = Iterable<MailboxEntry> | AsyncIterable<MailboxEntry>;

/** Files written concurrently: enough to hide filesystem latency, few enough to bound memory. */
const MAILDIR_CONCURRENCY = 32;

function maildirFolder(root: string, folder: string): string {
  if (folder === 'INBOX' || folder === '') return root;
  if (folder.includes('..') || folder.startsWith('/'))
    throw new MailsiftError('invalid_argument', `folder name is not allowed: ${folder}`, { param: 'folder' });
  return join(root, `.${folder.split('/').join('.')}`);
}

/**
 * Writes a Maildir++ tree under `dir`: INBOX at the root, other folders as `.Name`
 * subfolders. Unflagged messages go to new/ (unseen), others to cur/ with `:2,FLAGS`.
 * File names are deterministic (date, sequence number, size), so the same input writes the same tree;
 * the sequence restarts on every call, so write into an empty directory.
 */
export async function writeMaildir(dir: string, messages: Entries): Promise<WriteStats> {
  const made = new Set<string>();
  let pending: Promise<void>[] = [];
  let n = 0;
  let bytes = 0;
  for await (const m of messages) {
    const folder = maildirFolder(dir, m.folder);
    if (!made.has(folder)) {
      for (const sub of ['cur', 'new', 'tmp']) mkdirSync(join(folder, sub), { recursive: true });
      if (folder !== dir) writeFileSync(join(folder, 'maildirfolder'), '');
      made.add(folder);
    }
    n++;
    const base = `${Math.floor(m.date.getTime() / 1000)}.M${n}P1Q1.mailsift,S=${m.bytes.length}`;
    const path = m.flags === '' ? join(folder, 'new', base) : join(folder, 'cur', `${base}:2,${m.flags}`);
    pending.push(writeFile(path, m.bytes));
    bytes += m.bytes.length;
    if (pending.length >= MAILDIR_CONCURRENCY) {
      await Promise.all(pending);
      pending = [];
    }
  }
  await Promise.all(pending);
  return { messages: n, bytes };
}

const FROM_LINE = /\n>*From /;

/**
 * mboxrd quoting: every line that starts with zero or more '>' then "From " gets one more
 * '>', so a reader can split on "From " lines and undo the quoting exactly.
 */
export function mboxrdEscape(bytes: Buffer): Buffer {
  const s = bytes.toString('latin1');
  if (!FROM_LINE.test(s) && !s.startsWith('From ')) return bytes;
  return Buffer.from(s.replace(/^(>*From )/gm, '>$1'), 'latin1');
}

function envelopeSender(bytes: Buffer): string {
  const head = bytes.toString('latin1', 0, Math.min(bytes.length, 8192));
  const m = /^(?:Return-Path:\s*<([^>\s]*)>|From:[^\n]*<([^>\s]+)>)/im.exec(head);
  return m?.[1] || m?.[2] || 'MAILER-DAEMON';
}

function gmailLabels(m: MailboxEntry): string {
  if (m.labels) return m.labels.join(',');
  const labels = [m.folder === 'INBOX' ? 'Inbox' : m.folder === 'Archive' ? 'Archived' : m.folder];
  if (m.flags.includes('F')) labels.push('Starred');
  labels.push(m.flags.includes('S') ? 'Opened' : 'Unread');
  return labels.join(',');
}

export interface MboxOptions {
  /** Prepend Google Takeout's `X-Gmail-Labels` header to each message. */
  readonly gmailLabels?: boolean;
}

/** Writes one mboxrd file, awaiting the stream's drain so memory stays flat. */
export async function writeMbox(
  file: string,
  messages: Entries,
  options: MboxOptions = {},
): Promise<WriteStats> {
  const out = createWriteStream(file);
  const failed = once(out, 'error').then(([e]) => {
    throw new MailsiftError('unreadable', `cannot write mbox ${file}: ${(e as Error).message}`, {
      param: 'file',
      cause: e,
    });
  });
  failed.catch(() => undefined);
  let n = 0;
  let bytes = 0;
  for await (const m of messages) {
    let chunk = `From ${envelopeSender(m.bytes)} ${formatMboxDate(m.date)}\n`;
    if (options.gmailLabels) chunk += `X-Gmail-Labels: ${gmailLabels(m)}\n`;
    const body = mboxrdEscape(m.bytes);
    const tail = body[body.length - 1] === 0x0a ? '\n' : '\n\n';
    bytes += m.bytes.length;
    n++;
    out.write(chunk, 'latin1');
    out.write(body);
    if (!out.write(tail)) await Promise.race([once(out, 'drain'), failed]);
  }
  out.end();
  await Promise.race([once(out, 'finish'), failed]);
  return { messages: n, bytes };
}

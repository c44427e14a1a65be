// Opens a mailbox path as the right MailSource, detecting its kind from the directory
// layout or the first bytes of the file when the caller does not say.
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { MailSource, SourceKind } from '../core/index.js';
import { MailsiftError } from '../core/index.js';
import { EmlTreeSource } from './eml-tree-source.js';
import { fsError, hasMaildirParts, sortedEntries, statExpecting } from './fs-util.js';
import { MaildirSource } from './maildir-source.js';
import { type MboxOptions, MboxSource } from './mbox-source.js';

export interface OpenSourceOptions extends MboxOptions {
  /** Skips detection. */
  readonly kind?: SourceKind;
}

/** What each kind's path must be; an .eml source reads a tree or a single file. */
const EXPECTED: Readonly<Record<SourceKind, 'file' | 'directory' | 'file or directory'>> = {
  mbox: 'file',
  maildir: 'directory',
  eml: 'file or directory',
};

/** Bytes read to recognise a file: enough for the header block of nearly any message. */
const PROBE_BYTES = 64 * 1024;
/** Header fields of which a file must carry one to pass as a single message. */
const MAIL_FIELDS = new Set([
  'from',
  'to',
  'subject',
  'date',
  'message-id',
  'received',
  'return-path',
  'delivered-to',
  'mime-version',
  'content-type',
]);
const FIELD = /^([\x21-\x39\x3b-\x7e]+)[ \t]*:/;

export async function openSource(path: string, options: OpenSourceOptions = {}): Promise<MailSource> {
  const absolute = resolve(path);
  const given = options.kind;
  if (given !== undefined && !Object.hasOwn(EXPECTED, given)) {
    throw new MailsiftError(
      'invalid_argument',
      `kind must be 'mbox', 'maildir' or 'eml', got ${String(given)}`,
      {
        param: 'kind',
      },
    );
  }
  // With the kind given, a path of the wrong type fails here rather than at the first scan.
  if (given !== undefined) await statExpecting(absolute, EXPECTED[given]);
  const kind = given ?? (await detectKind(absolute));
  if (kind === 'mbox') return new MboxSource(absolute, options);
  if (kind === 'maildir') return new MaildirSource(absolute, options);
  return new EmlTreeSource(absolute, options);
}

/**
 * A directory is a Maildir when it (or a Maildir++ '.Folder' in it) has cur/ or new/,
 * otherwise a tree of .eml files. A file is an mbox when its first non-blank line starts
 * with 'From ', one message when it opens with RFC 5322 header fields. An empty file is an
 * empty mbox: mail clients leave 0-byte mbox files for emptied folders.
 */
export async function detectKind(path: string): Promise<SourceKind> {
  const stats = await statExpecting(path, 'file or directory');
  if (stats.isDirectory()) return (await isMaildir(path)) ? 'maildir' : 'eml';
  const probe = await readProbe(path);
  const text = probe.toString('latin1');
  const firstLine = text.replace(/^\s+/, '').split(/\r?\n/, 1)[0] ?? '';
  if (firstLine === '' || firstLine.startsWith('From ')) return 'mbox';
  if (looksLikeHeader(text, probe.length === PROBE_BYTES)) return 'eml';
  throw new MailsiftError(
    'bad_format',
    `${path} is not a mailbox: its first line ${JSON.stringify(firstLine.slice(0, 60))} is neither an mbox ` +
      `'From ' separator nor an RFC 5322 header field`,
    { param: path },
  );
}

async function isMaildir(dir: string): Promise<boolean> {
  if (await hasMaildirParts(dir)) return true;
  for (const entry of (await sortedEntries(dir)) ?? []) {
    if (
      entry.isDirectory() &&
      /^\.[^.]/.test(entry.name) &&
      (await hasMaildirParts(`${dir}/${entry.name}`))
    ) {
      return true;
    }
  }
  return false;
}

async function readProbe(path: string): Promise<Buffer> {
  try {
    const handle = await open(path, 'r');
    try {
      const buffer = Buffer.alloc(PROBE_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, PROBE_BYTES, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw fsError(error, path);
  }
}

/**
 * Every line up to the first blank one is a header field or a folded continuation, and
 * one of them is a field mail always has. A probe cut mid-line ignores that last line.
 */
function looksLikeHeader(text: string, truncated: boolean): boolean {
  const end = text.search(/\r?\n\r?\n/);
  const lines = (end === -1 ? text : text.slice(0, end)).split(/\r?\n/);
  if (end === -1 && truncated) lines.pop();
  let mailField = false;
  for (const [index, line] of lines.entries()) {
    if (index > 0 && /^[ \t]/.test(line)) continue;
    const name = FIELD.exec(line)?.[1];
    if (name === undefined) return false;
    if (MAIL_FIELDS.has(name.toLowerCase())) mailField = true;
  }
  return mailField;
}

// Opens a mailbox path as the right MailSource, detecting its kind from the directory
// layout or the first bytes of the file when the caller does not say; an imap(s):// URL
// is a mailbox on a server.
import { resolve } from 'node:path';
import type { FileSourceKind, MailSource } from '../core/index.js';
import { MailsiftError } from '../core/index.js';
import { sortedEntries, statExpecting } from './fs-util.js';
import type { ImapOpenOptions } from './imap/index.js';
import { isImapUrl } from './imap/url.js';
import { MailTreeSource } from './mail-tree-source.js';
import { isMaildirListing } from './maildir-folder.js';
import { type MboxOptions, MboxSource } from './mbox-source.js';
import { firstLine, readHead, sniff } from './sniff.js';

export interface OpenSourceOptions extends MboxOptions {
  /** Skips detection. */
  readonly kind?: FileSourceKind;
  /** For an imap:// or imaps:// source: credentials, folders, CA. */
  readonly imap?: ImapOpenOptions;
}

/** What each kind's path must be; an .eml source reads a tree or a single file. */
const EXPECTED: Readonly<Record<FileSourceKind, 'file' | 'directory' | 'file or directory'>> = {
  mbox: 'file',
  maildir: 'directory',
  eml: 'file or directory',
};

/** Bytes read to recognise a file: enough for the header block of nearly any message. */
const PROBE_BYTES = 64 * 1024;

export async function openSource(path: string, options: OpenSourceOptions = {}): Promise<MailSource> {
  // Loaded here, not imported above: only an IMAP source may load imapflow.
  if (isImapUrl(path)) return (await import('./imap/index.js')).openImapSource(path, options.imap);
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
  // Either kind of directory is a mail tree: Maildir folders, loose messages and mbox files
  // are all read wherever they sit (mail-tree-source.ts).
  return new MailTreeSource(absolute, { ...options, kind });
}

/**
 * A directory is a Maildir when it (or a directory in it: a Maildir++ '.Folder', a nested
 * maildir) has cur/ or new/, otherwise a tree of loose messages. A file is an mbox when its
 * first non-blank line starts with 'From ', one message when it opens with RFC 5322 header
 * fields. An empty file is an empty mbox: mail clients leave 0-byte mbox files for emptied
 * folders.
 */
export async function detectKind(path: string): Promise<FileSourceKind> {
  const stats = await statExpecting(path, 'file or directory');
  if (stats.isDirectory()) return (await isMaildir(path)) ? 'maildir' : 'eml';
  const head = readHead(path, PROBE_BYTES);
  const sniffed = sniff(head, head.length === PROBE_BYTES);
  if (sniffed === 'empty' || sniffed === 'mbox') return 'mbox';
  if (sniffed === 'message') return 'eml';
  throw new MailsiftError(
    'bad_format',
    `${path} is not a mailbox: its first line ${JSON.stringify(firstLine(head).slice(0, 60))} is neither an mbox ` +
      `'From ' separator nor an RFC 5322 header field`,
    { param: path },
  );
}

async function isMaildir(dir: string): Promise<boolean> {
  const entries = (await sortedEntries(dir)) ?? [];
  if (isMaildirListing(entries)) return true;
  for (const entry of entries) {
    if (entry.isDirectory() && isMaildirListing((await sortedEntries(`${dir}/${entry.name}`)) ?? [])) {
      return true;
    }
  }
  return false;
}

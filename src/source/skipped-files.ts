// What a mail tree holds besides mail: the index and state files of mail servers and sync
// tools, tool databases, editor leftovers. Each kind is counted with its reason, so a scan
// never drops a file silently (DESIGN.md, ingestion rules).
import type { SkippedFiles } from '../core/index.js';

/** Why each kind is not read as mail; the order is the order of a report. */
const REASONS = {
  dovecot: 'Dovecot index, cache, log, UID list and keyword files',
  courier: 'Courier IMAP UID database, keyword and ACL files',
  mbsync: 'mbsync/isync synchronisation state',
  'maildir-meta': 'Maildir++ folder markers, quota and subscription files',
  notmuch: 'notmuch database directories',
  mu: 'mu database directories and .noindex/.noupdate markers',
  'thunderbird-index': 'Thunderbird folder summaries (.msf)',
  'editor-backup': 'editor backup and swap files: copies, not mail of the folder',
  hidden: "hidden files and directories (name starting with '.') that are not Maildir++ folders",
  'maildir-tmp': 'Maildir deliveries in progress (tmp/): read once the deliverer moves them to new/',
  empty: 'empty files',
  special: 'neither a regular file nor a directory (a link to a directory, a socket): not followed',
  'too-deep': 'directories nested deeper than 32 levels: almost surely a link loop',
  'not-mail': "other files: neither RFC 5322 header fields nor an mbox 'From ' line at their start",
} as const;

export type SkipKind = keyof typeof REASONS;

const ORDER = Object.keys(REASONS) as SkipKind[];

/** Tool databases and server state kept in directories of their own, skipped whole. */
export function skippedDirectory(name: string): SkipKind | null {
  if (name === '.notmuch') return 'notmuch';
  if (name === '.mu') return 'mu';
  if (name.startsWith('courierimap')) return 'courier';
  return null;
}

/**
 * Files skipped on their name alone: editor leftovers (a backup of a message looks like
 * mail, but is a stale copy of one) and hidden files, which mail stores keep their state in.
 */
export function skippedByName(name: string): SkipKind | null {
  if (name.endsWith('~') || /^\..*\.sw[a-p]$/.test(name) || /^#.*#$/.test(name)) return 'editor-backup';
  if (!name.startsWith('.')) return null;
  if (/^\.(mbsyncstate|isyncuidmap|uidvalidity)/.test(name)) return 'mbsync';
  if (name === '.noindex' || name === '.noupdate') return 'mu';
  return 'hidden';
}

/** The kind of a file whose content is not mail: named after its owner when the name says. */
export function notMailKind(name: string, empty: boolean): SkipKind {
  if (/^dovecot[.-]/.test(name)) return 'dovecot';
  if (name.startsWith('courierimap')) return 'courier';
  if (name === 'maildirfolder' || name === 'maildirsize' || name === 'subscriptions') return 'maildir-meta';
  if (name.endsWith('.msf')) return 'thunderbird-index';
  return empty ? 'empty' : 'not-mail';
}

/** Counts of one scan's skipped files per kind, each with the first path met. */
export class SkipTally {
  private readonly kinds = new Map<SkipKind, { count: number; example: string }>();

  add(kind: SkipKind, path: string, count = 1): void {
    const seen = this.kinds.get(kind);
    if (seen) seen.count += count;
    else this.kinds.set(kind, { count, example: path });
  }

  list(): SkippedFiles[] {
    return ORDER.flatMap((kind) => {
      const seen = this.kinds.get(kind);
      return seen ? [{ kind, reason: REASONS[kind], count: seen.count, example: seen.example }] : [];
    });
  }
}

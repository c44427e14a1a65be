// Helpers shared by this module's tests (and the ingest tests of mail trees): drain a source,
// read entries as text, write mail trees of every layout.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { MailSource, SourceEntry } from '../core/index.js';

export async function collect(source: MailSource): Promise<SourceEntry[]> {
  const entries: SourceEntry[] = [];
  for await (const entry of source.scan()) entries.push(entry);
  return entries;
}

export async function readText(entry: SourceEntry): Promise<string> {
  return (await entry.read()).toString('utf8');
}

export const FIXTURES = new URL('../../test/fixtures/', import.meta.url).pathname;

/** A message of its own, numbered `n`, for the trees below; `replyTo` threads it. */
export function fixtureMessage(n: number, subject: string, replyTo?: number): string {
  const thread = replyTo === undefined ? '' : `In-Reply-To: <m${replyTo}@tree.example>\n`;
  return (
    `From: Sender ${n} <sender${n}@tree.example>\nTo: list@tree.example\n` +
    `Date: Mon, 5 Feb 2024 10:${String(n % 60).padStart(2, '0')}:00 +0000\n` +
    `Subject: ${subject}\nMessage-ID: <m${n}@tree.example>\n${thread}\n` +
    `Body of message ${n}: ${subject}.\n`
  );
}

function put(root: string, path: string, content: string | Buffer): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
}

/** The messages of writeMixedTree in scan order: each one's subject and the folder it belongs in. */
export const MIXED_TREE_MESSAGES: ReadonlyArray<readonly [subject: string, folder: string]> = [
  ['inbox seen', 'INBOX'],
  ['inbox replied flagged', 'INBOX'],
  ['inbox new', 'INBOX'],
  ['sent', 'Sent'],
  ['archived', 'Archive/2024'],
  ['loose at the root', ''],
  ['rust list', 'Lists/rust'],
  ['rust list new', 'Lists/rust'],
  ['loose in a maildir', 'Lists/rust'],
  ['rust announcement', 'Lists/rust/Announcements'],
  ['mh one', 'MH/inbox'],
  ['mh two', 'MH/inbox'],
  ['mh deep', 'MH/inbox/archive/2023'],
  ['mbox one', 'Archives/2019'],
  ['mbox two', 'Archives/2019'],
  ['thunderbird inbox', 'Local Folders/Inbox'],
];

/**
 * A mail root mixing every layout a ~/Mail holds: the root's own maildir, Maildir++ folders,
 * a nested maildir without dots (with a Maildir++ folder and a loose message of its own), MH
 * folders of numbered files at several depths, a loose .eml, an mbox file and a Thunderbird
 * mbox without extension, beside one file (or directory) of every kind that is not mail.
 */
export function writeMixedTree(root: string): void {
  const subject = (index: number): string => MIXED_TREE_MESSAGES[index]?.[0] as string;
  const message = (index: number): string => fixtureMessage(index + 1, subject(index));
  put(root, 'cur/1707000001.M1P1.host:2,S', message(0));
  put(root, 'cur/1707000002.M2P2.host:2,FR', message(1));
  put(root, 'new/1707000003.M3P3.host', message(2));
  put(root, 'tmp/1707000099.M9P9.host', 'From: half a delivery\n');
  put(root, '.Sent/cur/1707000004.M4P4.host:2,S', message(3));
  put(root, '.Sent/maildirfolder', '');
  put(root, '.Sent/dovecot-uidlist', '3 V1707000000 N2\n1 1707000004.M4P4.host\n');
  put(root, '.Archive.2024/cur/1707000005.M5P5.host:2,S', message(4));
  put(root, 'welcome.eml', message(5));
  put(root, 'Lists/rust/cur/1707000007.M7P7.host:2,S', message(6));
  put(root, 'Lists/rust/new/1707000008.M8P8.host', message(7));
  put(root, 'Lists/rust/0042', message(8));
  put(root, 'Lists/rust/.Announcements/cur/1707000010.M10P10.host:2,', message(9));
  put(root, 'MH/inbox/1', message(10));
  put(root, 'MH/inbox/2', message(11));
  put(root, 'MH/inbox/.mh_sequences', 'unseen: 2\n');
  put(root, 'MH/inbox/archive/2023/7', message(12));
  put(
    root,
    'Archives/2019.mbox',
    `From sender14@tree.example Mon Feb  5 10:14:00 2024\n${message(13)}\n` +
      `From sender15@tree.example Mon Feb  5 10:15:00 2024\n${message(14)}\n`,
  );
  put(root, 'Local Folders/Inbox', `From - Mon Feb  5 10:16:00 2024\n${message(15)}\n`);
  put(root, 'Local Folders/Inbox.msf', '// <!-- <mdb:mork:z v="1.4"/> -->\n< <(a=c)> // (f=iso-8859-1)\n');
  // What is not mail, one of each kind.
  put(root, 'dovecot.index', Buffer.from([7, 2, 0, 0, 0x80, 0, 0, 0, 0xde, 0xad, 0xbe, 0xef]));
  put(root, 'dovecot.index.cache', Buffer.from([0, 0, 0, 1, 0xff, 0xfe]));
  put(root, 'dovecot.index.log', Buffer.from([1, 3, 0x2c, 0, 0, 0, 0, 0]));
  put(root, 'dovecot-uidlist', '3 V1707000000 N4 G5c3f2a1b\n1 :1707000001.M1P1.host\n');
  put(root, 'dovecot-keywords', '0 $Forwarded\n1 Junk\n');
  put(root, 'courierimapuiddb', '1 1707000000 3\n1 1707000001.M1P1.host\n');
  put(root, 'courierimapkeywords/:list', 'Junk\n\n');
  put(root, 'subscriptions', 'Sent\nArchive.2024\n');
  put(root, '.mbsyncstate', 'FarUidValidity 1707000000\nNearUidValidity 12\nMaxPulledUid 3\n');
  put(root, '.uidvalidity', '1707000000\n3\n');
  put(root, '.notmuch/xapian/postlist.glass', Buffer.from([0x0f, 0xe8, 0x93, 0]));
  put(root, '.mu/xapian/termlist.glass', Buffer.from([0x0f, 0xe8, 0x93, 0]));
  put(root, '.git/HEAD', 'ref: refs/heads/main\n');
  put(root, 'welcome.eml~', message(5));
  put(root, '.welcome.eml.swp', Buffer.concat([Buffer.from('b0VIM 9.0'), Buffer.alloc(16)]));
  put(root, 'README.txt', 'These folders hold my mail since 2019.\n');
  put(root, 'Trash', '');
  symlinkSync(join(root, 'Lists'), join(root, 'link-to-lists'));
}

/**
 * The layout of notmuch's test corpus (test/corpora/default): 53 message files named like
 * Maildir files ('01:2,'), 43 in the cur/ and new/ of four maildirs (the root, foo, foo/baz,
 * bar, bar/baz) and 10 loose beside them. Messages of our own: the layout only is modelled.
 */
export const NOTMUCH_LAYOUT: ReadonlyArray<
  readonly [folder: string, part: 'cur' | 'new' | '', numbers: string]
> = [
  ['', 'cur', '29-53'],
  ['', 'new', '04'],
  ['', '', '01 02'],
  ['foo', 'cur', '07 08'],
  ['foo', 'new', '03 09 10'],
  ['foo', '', '06'],
  ['foo/baz', 'cur', '13 14'],
  ['foo/baz', 'new', '15 16'],
  ['foo/baz', '', '11 12'],
  ['bar', 'cur', '19 20'],
  ['bar', 'new', '21 22'],
  ['bar', '', '17 18'],
  ['bar/baz', 'cur', '25 26'],
  ['bar/baz', 'new', '27 28'],
  ['bar/baz', '', '05 23 24'],
];

/** Writes NOTMUCH_LAYOUT under `root`; every message but the first few replies to an earlier one. */
export function writeNotmuchLayout(root: string): void {
  for (const [folder, part, numbers] of NOTMUCH_LAYOUT) {
    for (const n of expandNumbers(numbers)) {
      const path = [folder, part, `${String(n).padStart(2, '0')}:2,`].filter(Boolean).join('/');
      put(root, path, fixtureMessage(n, `corpus message ${n}`, n > 5 ? (n % 5) + 1 : undefined));
    }
  }
}

export function expandNumbers(numbers: string): number[] {
  return numbers.split(' ').flatMap((part) => {
    const [from, to] = part.split('-').map(Number) as [number, number | undefined];
    return Array.from({ length: (to ?? from) - from + 1 }, (_, i) => from + i);
  });
}

// Gmail over IMAP (X-GM-EXT-1, developers.google.com/gmail/imap/imap-extensions): a label is a
// folder there, so a message with three labels sits in four folders (its labels' and All Mail)
// and a folder-by-folder sync would download it four times. A Gmail source syncs `\All` once
// instead, with each message's labels from X-GM-LABELS, its conversation from X-GM-THRID and
// its identity from X-GM-MSGID, plus `\Trash` and `\Junk`, which Gmail keeps out of All Mail.

import type { ListResponse } from 'imapflow';
import { MailsiftError } from '../../core/errors.js';

/** The server is Gmail, or answers as its extension describes. */
export const GMAIL_CAPABILITY = 'X-GM-EXT-1';

/**
 * Gmail's system labels and the labels a Maildir folder or an IMAP flag of that meaning gets;
 * user labels are kept as they are named. `\Starred` is also the `\Flagged` flag.
 */
const SYSTEM_LABELS: Readonly<Record<string, string>> = {
  '\\Inbox': 'inbox',
  '\\Sent': 'sent',
  '\\Draft': 'draft',
  '\\Drafts': 'draft',
  '\\Important': 'important',
  '\\Starred': 'flagged',
  '\\Trash': 'trash',
  '\\Spam': 'spam',
};

/**
 * The folders a Gmail source syncs: All Mail (every message but spam and trash) and, when
 * listed, Trash and Spam. Trash and Spam are synced because a message moved there leaves All
 * Mail: without them, deleting a message in Gmail would delete it here at once (Gmail keeps
 * it 30 days), where every other source keeps its Trash and Junk, labelled `trash` and `spam`
 * and left out of search; and a message taken back out of them would be downloaded again.
 */
export function gmailFolders(all: readonly ListResponse[], source: string): ListResponse[] {
  const bySpecialUse = (use: string) => all.find((f) => f.specialUse === use && !f.flags.has('\\Noselect'));
  const allMail = bySpecialUse('\\All');
  if (!allMail)
    throw new MailsiftError(
      'not_found',
      `${source} is Gmail but lists no All Mail folder (\\All): show it in IMAP in Gmail's settings, or name the folders to sync with --folder`,
      { param: source },
    );
  return [allMail, bySpecialUse('\\Trash'), bySpecialUse('\\Junk')].filter(
    (f): f is ListResponse => f !== undefined,
  );
}

/** The labels of X-GM-LABELS: system labels in the shared vocabulary, user labels as named. */
export function gmailLabels(labels: Iterable<string>): string[] {
  return [...labels].map((label) => SYSTEM_LABELS[label] ?? label.replace(/^\\/, ''));
}

/** A Gmail message's location key: its X-GM-MSGID, the same in every folder and UIDVALIDITY. */
export function gmailKey(messageId: string): string {
  return `X-GM-MSGID=${messageId}`;
}

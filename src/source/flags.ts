// Flags stored beside a message (Maildir file names, mbox Status/X-Status headers, IMAP flags)
// turned into the shared label vocabulary, always in one canonical order.

/** Maildir info flags (cr.yp.to/proto/maildir.html): the letter after ':2,'. */
export const MAILDIR_FLAGS: Readonly<Record<string, string>> = {
  S: 'seen',
  R: 'replied',
  F: 'flagged',
  T: 'trashed',
  D: 'draft',
  P: 'passed',
};

/**
 * mbox Status (R = read, O = old) and X-Status (A, F, D, T) letters as written by
 * mutt, Pine and Thunderbird. D means deleted and T draft here: the reverse of Maildir.
 */
export const MBOX_STATUS_FLAGS: Readonly<Record<string, string>> = {
  R: 'seen',
  A: 'replied',
  F: 'flagged',
  D: 'trashed',
  T: 'draft',
};

/** IMAP system flags (RFC 9051 §2.3.2) and the common $Forwarded keyword. */
export const IMAP_FLAGS: Readonly<Record<string, string>> = {
  '\\Seen': 'seen',
  '\\Answered': 'replied',
  '\\Flagged': 'flagged',
  '\\Deleted': 'trashed',
  '\\Draft': 'draft',
  $Forwarded: 'passed',
};

const LABEL_ORDER = ['seen', 'replied', 'flagged', 'trashed', 'draft', 'passed'];

/** Labels for the known letters (or IMAP flags) of `flags`; unknown ones (keywords, 'O') are ignored. */
export function flagLabels(flags: Iterable<string>, table: Readonly<Record<string, string>>): string[] {
  const found = new Set<string>();
  for (const letter of flags) {
    const label = table[letter];
    if (label !== undefined) found.add(label);
  }
  return LABEL_ORDER.filter((label) => found.has(label));
}

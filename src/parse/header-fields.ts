// Headers mailparser leaves uninterpreted: conversation ids (Gmail, Outlook), labels a
// message carries about itself (Takeout, Dovecot, mbox status flags) and the mailing list id.

import { firstHeader, type HeaderField, headerValues } from './header-block.js';

/** Gmail's X-GM-THRID: a decimal thread id. */
export function gmailThreadId(fields: readonly HeaderField[]): string | null {
  const value = firstHeader(fields, 'x-gm-thrid')?.trim();
  return value !== undefined && /^\d{1,40}$/.test(value) ? value : null;
}

/**
 * Outlook's Thread-Index: 22 bytes of header (timestamp + conversation GUID) followed by
 * 5 bytes per reply. The first 22 are the same for the whole conversation.
 */
export function outlookThreadIndex(fields: readonly HeaderField[]): string | null {
  const value = firstHeader(fields, 'thread-index')?.replace(/\s+/g, '');
  if (value === undefined || !/^[A-Za-z0-9+/]+=*$/.test(value)) return null;
  const bytes = Buffer.from(value, 'base64');
  return bytes.length >= 22 ? bytes.subarray(0, 22).toString('base64') : null;
}

/** Splits a comma-separated list where values may be quoted ("Work, 2024"). */
function splitQuotedList(value: string): string[] {
  const items: string[] = [];
  const pattern = /"((?:[^"\\]|\\.)*)"|([^,]+)/g;
  for (let match = pattern.exec(value); match !== null; match = pattern.exec(value)) {
    items.push((match[1] ?? match[2] ?? '').replace(/\\(.)/g, '$1'));
  }
  return items;
}

// mbox status flags (RFC 4155 lineage): Status R = read; X-Status A/F/T/D as Maildir's flags.
const STATUS_FLAGS: Record<string, string> = { R: 'seen' };
const X_STATUS_FLAGS: Record<string, string> = { A: 'replied', F: 'flagged', T: 'draft', D: 'trashed' };

function flagLabels(value: string | null, flags: Record<string, string>): string[] {
  return [...(value ?? '')].flatMap((flag) => (flags[flag] ? [flags[flag]] : []));
}

/**
 * Labels from X-Gmail-Labels (Google Takeout: "Inbox,Important,Opened,Category Updates"),
 * X-Keywords (Dovecot, comma- or space-separated) and Status/X-Status, lowercased, deduplicated.
 */
export function messageLabels(fields: readonly HeaderField[]): string[] {
  const labels = [
    ...headerValues(fields, 'x-gmail-labels').flatMap(splitQuotedList),
    ...headerValues(fields, 'x-keywords').flatMap((value) => value.split(/[\s,]+/)),
    ...flagLabels(firstHeader(fields, 'status'), STATUS_FLAGS),
    ...flagLabels(firstHeader(fields, 'x-status'), X_STATUS_FLAGS),
  ]
    .map((label) => label.trim().replace(/\s+/g, ' ').toLowerCase())
    .filter((label) => label !== '');
  return [...new Set(labels)];
}

/** List-Id (RFC 2919): the id inside the angle brackets, or the bare value; lowercased. */
export function listId(fields: readonly HeaderField[]): string | null {
  const value = firstHeader(fields, 'list-id');
  if (value === null) return null;
  const id = (/<([^<>]+)>/.exec(value)?.[1] ?? value).trim().toLowerCase();
  return id === '' ? null : id;
}

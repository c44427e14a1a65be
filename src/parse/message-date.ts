// The best date of a message: its Date header, else the topmost Received stamp (the time
// our side received it), else the file time, else epoch 0. A date before 1971 or more than
// two days ahead is a broken clock or a forgery, and would pin the message to a wrong place.

import type { DateSource } from '../core/types.js';
import { stripComments } from './comments.js';

const EARLIEST = Date.UTC(1971, 0, 1);
const MAX_AHEAD_MS = 2 * 24 * 60 * 60 * 1000;

/** Parses an RFC 5322 date (obsolete forms included); null when it cannot be read. */
export function parseMailDate(value: string): Date | null {
  let text = stripComments(value).replace(/\s+/g, ' ').trim();
  if (text === '') return null;
  // A date without a zone would be read as local time of this machine; RFC 5322 4.3 says -0000.
  if (!/(?:[+-]\d{4}|\b(?:UT|UTC|GMT|[ECMP][SD]T|Z))\s*$/i.test(text)) text += ' +0000';
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : new Date(ms);
}

function usable(date: Date | null, now: number): date is Date {
  return date !== null && date.getTime() >= EARLIEST && date.getTime() <= now + MAX_AHEAD_MS;
}

export interface DateChoice {
  readonly date: Date;
  readonly dateSource: DateSource;
  readonly warnings: readonly string[];
}

/** Picks the date by the fallback order above, with a warning for each source that failed. */
export function chooseDate(
  dateHeader: string | null,
  topReceived: string | null,
  fileTime: Date | null,
  now: number = Date.now(),
): DateChoice {
  const warnings: string[] = [];
  if (dateHeader !== null) {
    const date = parseMailDate(dateHeader);
    if (usable(date, now)) return { date, dateSource: 'date', warnings };
    warnings.push(`date: unusable Date header "${dateHeader.slice(0, 80)}"`);
  }
  if (topReceived !== null) {
    const semicolon = topReceived.lastIndexOf(';');
    const date = semicolon === -1 ? null : parseMailDate(topReceived.slice(semicolon + 1));
    if (usable(date, now)) return { date, dateSource: 'received', warnings };
    warnings.push('date: topmost Received header has no usable date');
  }
  if (fileTime !== null && usable(fileTime, now)) return { date: fileTime, dateSource: 'file', warnings };
  warnings.push('date: no usable date');
  return { date: new Date(0), dateSource: 'none', warnings };
}

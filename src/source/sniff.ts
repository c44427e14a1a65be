// Recognises what a file holds from its first bytes: an mbox, one RFC 5322 message, or
// neither. Names are not trusted: MH folders number their messages ('1', '2', ...), notmuch's
// corpus names loose messages like Maildir files, and an index file may be called anything.
import { readSync } from 'node:fs';
import { withFile } from './fs-util.js';

/** What a file's first bytes say it is; 'empty' is nothing but whitespace. */
export type Sniffed = 'mbox' | 'message' | 'empty' | 'other';

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

/**
 * The first `bytes` bytes of a file (fewer when it is shorter). Synchronous, as the reads of
 * message files are (fs-util.ts): a probe is one page from the cache or one disk read.
 */
export function readHead(path: string, bytes: number): Buffer {
  return withFile(path, (fd) => {
    const buffer = Buffer.alloc(bytes);
    return buffer.subarray(0, readSync(fd, buffer, 0, bytes, 0));
  });
}

/** The first line after any leading whitespace. */
export function firstLine(head: Buffer): string {
  return head.toString('latin1').replace(/^\s+/, '').split(/\r?\n/, 1)[0] ?? '';
}

/**
 * An mbox opens with a 'From ' separator line, a message with RFC 5322 header fields.
 * `truncated` says the file goes on past `head`, so its last line may be cut.
 */
export function sniff(head: Buffer, truncated: boolean): Sniffed {
  const first = firstLine(head);
  if (first === '') return 'empty';
  if (first.startsWith('From ')) return 'mbox';
  return looksLikeHeader(head.toString('latin1'), truncated) ? 'message' : 'other';
}

/**
 * Every line up to the first blank one is a header field or a folded continuation, and
 * one of them is a field mail always has. A line cut by the end of the probe need only
 * start like a field: its name may be all there is of it.
 */
function looksLikeHeader(text: string, truncated: boolean): boolean {
  const end = text.search(/\r?\n\r?\n/);
  const lines = (end === -1 ? text : text.slice(0, end)).split(/\r?\n/);
  const cut = end === -1 && truncated ? lines.length - 1 : -1;
  let mailField = false;
  for (const [index, line] of lines.entries()) {
    if (index > 0 && /^[ \t]/.test(line)) continue;
    // A message of headers alone ends with its last field's line break.
    if (line === '' && index === lines.length - 1) break;
    const name = FIELD.exec(line)?.[1];
    if (name === undefined) {
      if (index === cut) break;
      return false;
    }
    if (MAIL_FIELDS.has(name.toLowerCase())) mailField = true;
  }
  return mailField;
}

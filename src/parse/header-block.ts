// Pre-scan of the top-level header block before the MIME parser sees it: tells a message from
// non-mail bytes, enforces the header limits, repairs undeclared 8-bit header bytes, and keeps
// the unfolded fields for the headers mailparser does not interpret (References, Received...).

import { isUtf8 } from 'node:buffer';
import { MailsiftError } from '../core/errors.js';
import { LIMITS } from '../core/limits.js';
import { decodeNonUtf8, legacyHeaderCharset } from './charset.js';

export interface HeaderField {
  /** Field name, lowercased. */
  readonly name: string;
  /** Unfolded value, trimmed, decoded from raw bytes (UTF-8, or repaired legacy 8-bit). */
  readonly value: string;
}

export interface HeaderBlock {
  readonly fields: readonly HeaderField[];
  /** Message bytes for the MIME parser: the input, or a copy whose header block was repaired. */
  readonly bytes: Buffer;
  /** Length of the header block in `bytes`, up to the blank line that ends it. */
  readonly headerEnd: number;
  readonly warnings: readonly string[];
}

const LF = 0x0a;
/** Longer field names exist only in garbage; real ones stay under 80 characters. */
const MAX_NAME_LENGTH = 200;
const CRLF = Buffer.from('\r\n');
/** Offset just past the line break that ends the header block, and where the body starts. */
function findHeaderEnd(bytes: Buffer, start: number): { headerEnd: number; bodyStart: number } {
  const lfLf = bytes.indexOf('\n\n', start);
  const lfCrLf = bytes.indexOf('\n\r\n', start);
  if (lfLf === -1 && lfCrLf === -1) return { headerEnd: bytes.length, bodyStart: bytes.length };
  if (lfCrLf === -1 || (lfLf !== -1 && lfLf < lfCrLf)) return { headerEnd: lfLf + 1, bodyStart: lfLf + 2 };
  return { headerEnd: lfCrLf + 1, bodyStart: lfCrLf + 3 };
}

/** Field name of the line starting at `start`, or null when the line is not a header field. */
function fieldName(bytes: Buffer, start: number, end: number): string | null {
  // Bounded: an unbounded indexOf would scan to the next colon anywhere, for every colon-less line.
  const found = bytes.subarray(start, Math.min(end, start + MAX_NAME_LENGTH + 1)).indexOf(0x3a);
  if (found <= 0) return null;
  const colon = start + found;
  for (let i = start; i < colon; i++) {
    const b = bytes[i] as number;
    // RFC 5322 2.2: printable US-ASCII except colon; trailing WSP before ':' is obsolete syntax.
    if ((b < 33 || b > 126) && !(b === 0x20 || b === 0x09)) return null;
  }
  return bytes.toString('latin1', start, colon).trim().toLowerCase() || null;
}

/**
 * What a field costs against LIMITS.maxHeaderBytes: its bytes plus 64 per physical line, the
 * fixed overhead mailsplit charges per parsed line. Counting it here keeps a block we accept
 * under mailsplit's own maxHeadSize, so a 1 MB block of tiny lines cannot fail the parse there.
 */
function headerCost(raw: Buffer): number {
  let lines = 1;
  for (let at = raw.indexOf(LF); at !== -1 && at < raw.length - 1; at = raw.indexOf(LF, at + 1)) lines++;
  return raw.length + 64 * lines;
}

function unfold(raw: string): string {
  return raw.replace(/\r?\n(?=[ \t])/g, '').replace(/\r?\n$/, '');
}

interface RawField {
  readonly name: string;
  raw: Buffer;
}

/**
 * Re-encodes as UTF-8 the fields holding 8-bit bytes that are not UTF-8 (RFC 6532 allows raw
 * UTF-8; anything else is an old client writing its local charset). One charset is picked
 * for all of them together: a single Subject is too short for detection to be trusted.
 */
function repairLegacyHeaders(kept: RawField[], message: Buffer, warnings: string[]): boolean {
  const legacy = kept.filter(({ raw }) => !isUtf8(raw));
  if (legacy.length === 0) return false;
  const charset = legacyHeaderCharset(
    Buffer.concat(legacy.map(({ raw }) => raw)),
    message.toString('latin1', 0, Math.min(message.length, 64 * 1024)),
  );
  for (const field of legacy) {
    const decoded = decodeNonUtf8(field.raw, charset);
    warnings.push(`charset: undeclared 8-bit ${field.name} header decoded as ${decoded.usedCharset}`);
    field.raw = Buffer.from(decoded.text, 'utf8');
  }
  return true;
}

/**
 * Shortens an oversized field where a shorter one still means something: an id list keeps its
 * newest (last) ids, an address list its first addresses. Other fields are dropped (null).
 */
function shortenField(name: string, raw: Buffer): Buffer | null {
  const limit = LIMITS.maxHeaderLineBytes - name.length - 4;
  const value = unfold(raw.toString('latin1'));
  let kept: string;
  if (name === 'references' || name === 'in-reply-to') {
    const tail = value.slice(value.length - limit);
    const cut = tail.search(/[\s<]/);
    kept = cut === -1 ? '' : tail.slice(cut);
  } else if (name === 'to' || name === 'cc' || name === 'bcc') {
    const head = value.slice(name.length + 1, limit);
    kept = head.slice(0, Math.max(0, head.lastIndexOf(',')));
  } else return null;
  return Buffer.from(`${name}: ${kept.trim()}\r\n`, 'latin1');
}

/**
 * Reads and sanitizes the header block. Throws MailsiftError('bad_format') when the bytes do
 * not start with a header block at all (empty input, binary data, plain text).
 */
export function readHeaderBlock(bytes: Buffer): HeaderBlock {
  // An mbox "From " separator line left in front of the headers is not a header.
  const start = bytes.subarray(0, 5).toString('latin1') === 'From ' ? bytes.indexOf(LF) + 1 : 0;
  const { headerEnd, bodyStart } = findHeaderEnd(bytes, start);
  const firstLineEnd = bytes.indexOf(LF, start);
  if (fieldName(bytes, start, firstLineEnd === -1 ? bytes.length : firstLineEnd) === null) {
    throw new MailsiftError('bad_format', 'not a message: the first line is not a header field', {
      param: 'bytes',
    });
  }

  const kept: RawField[] = [];
  const warnings: string[] = [];
  let changed = start > 0;
  let total = 0;
  let overflow = false;
  let malformed = 0;

  const addField = (fieldStart: number, fieldEnd: number, name: string): void => {
    const size = fieldEnd - fieldStart;
    let raw = bytes.subarray(fieldStart, fieldEnd);
    if (size > LIMITS.maxHeaderLineBytes) {
      changed = true;
      const shortened = shortenField(name, raw);
      if (shortened === null) {
        warnings.push(`header: dropped ${name} line of ${size} bytes (limit ${LIMITS.maxHeaderLineBytes})`);
        return;
      }
      warnings.push(`header: ${name} line of ${size} bytes shortened to ${shortened.length}`);
      raw = shortened;
    }
    const cost = headerCost(raw);
    if (total + cost > LIMITS.maxHeaderBytes) {
      if (!overflow) warnings.push(`header: block over ${LIMITS.maxHeaderBytes} bytes, rest dropped`);
      overflow = true;
      changed = true;
      return;
    }
    total += cost;
    kept.push({ name, raw });
  };

  let fieldStart = -1;
  let name = '';
  for (let lineStart = start; lineStart < headerEnd; ) {
    const lf = bytes.indexOf(LF, lineStart);
    const lineEnd = lf === -1 || lf >= headerEnd ? headerEnd : lf + 1;
    const first = bytes[lineStart];
    if (first === 0x20 || first === 0x09) {
      if (fieldStart === -1) malformed++;
    } else {
      if (fieldStart !== -1) addField(fieldStart, lineStart, name);
      fieldStart = -1;
      const next = fieldName(bytes, lineStart, lineEnd);
      if (next === null) malformed++;
      else {
        fieldStart = lineStart;
        name = next;
      }
    }
    lineStart = lineEnd;
  }
  if (fieldStart !== -1) addField(fieldStart, headerEnd, name);
  if (malformed > 0) {
    warnings.push(`header: dropped ${malformed} malformed header line${malformed > 1 ? 's' : ''}`);
    changed = true;
  }
  if (repairLegacyHeaders(kept, bytes, warnings)) changed = true;
  const fields = kept.map(({ name, raw }) => {
    const value = unfold(raw.toString('utf8'));
    return { name, value: value.slice(value.indexOf(':') + 1).trim() };
  });
  if (!changed) return { fields, bytes, headerEnd, warnings };

  const parts = kept.map(({ raw }) => (raw[raw.length - 1] === LF ? raw : Buffer.concat([raw, CRLF])));
  const newHeaderEnd = parts.reduce((sum, part) => sum + part.length, 0);
  parts.push(bodyStart > headerEnd ? bytes.subarray(headerEnd) : CRLF);
  return { fields, bytes: Buffer.concat(parts), headerEnd: newHeaderEnd, warnings };
}

/** Every value of a header, in message order (the topmost first). */
export function headerValues(fields: readonly HeaderField[], name: string): string[] {
  return fields.filter((field) => field.name === name).map((field) => field.value);
}

/** The first value of a header, or null. */
export function firstHeader(fields: readonly HeaderField[], name: string): string | null {
  return fields.find((field) => field.name === name)?.value ?? null;
}

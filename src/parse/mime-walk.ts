// A light walk of the MIME structure over the raw bytes: where each leaf part's headers and
// body sit, its type and parameters. It bounds depth and part count before mailparser runs,
// and hands the charset repair the raw bytes of each body part, which mailparser never exposes.

import iconv from 'iconv-lite';
import { LIMITS } from '../core/limits.js';

export interface RawField {
  /** Lowercased name. */
  readonly name: string;
  /** The field as written, folding kept, without its final line break (latin1 view of the bytes). */
  readonly raw: string;
  /** Unfolded value after the colon, trimmed. */
  readonly value: string;
}

export interface MimeLeaf {
  /** Lowercased type/subtype; text/plain when the part declares none (RFC 2045 5.2). */
  readonly contentType: string;
  /** Content-Type parameters, names lowercased, RFC 2231 continuations joined and decoded. */
  readonly params: ReadonlyMap<string, string>;
  readonly disposition: string | null;
  readonly dispositionParams: ReadonlyMap<string, string>;
  readonly transferEncoding: string;
  readonly fields: readonly RawField[];
  /** Inside a multipart/alternative: mailparser then takes the part as one version of the body. */
  readonly alternative: boolean;
  /** Byte offsets in the walked message: the part's headers, then its body. */
  readonly start: number;
  readonly bodyStart: number;
  readonly end: number;
}

export interface MimeTree {
  readonly leaves: readonly MimeLeaf[];
  /** The header fields of each multipart entity walked through, in walk order. */
  readonly containers: readonly (readonly RawField[])[];
  readonly warnings: readonly string[];
  /** True when a limit cut the walk short, so mailparser must not see the whole structure. */
  readonly truncated: boolean;
}

/** Splits `name=value; name*0*=utf-8''a%20b` parameter lists; RFC 2231 values decoded. */
export function parseParams(text: string): Map<string, string> {
  const params = new Map<string, string>();
  const pieces = new Map<string, { index: number; value: string; encoded: boolean }[]>();
  const pattern = /;\s*([^\s=;]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const key = (match[1] as string).toLowerCase();
    const value = match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : (match[3] ?? '').trim();
    const extended = /^([^*]+)(?:\*(\d+))?(\*)?$/.exec(key);
    if (extended === null || (extended[2] === undefined && extended[3] === undefined)) {
      params.set(key, value);
      continue;
    }
    const name = extended[1] as string;
    const list = pieces.get(name) ?? [];
    list.push({ index: Number(extended[2] ?? 0), value, encoded: extended[3] !== undefined });
    pieces.set(name, list);
  }
  for (const [name, list] of pieces) {
    list.sort((a, b) => a.index - b.index);
    let charset = 'utf-8';
    const bytes: Buffer[] = list.map((piece, i) => {
      if (!piece.encoded) return Buffer.from(piece.value, 'latin1');
      let value = piece.value;
      if (i === 0) {
        const quote = /^([^']*)'[^']*'/.exec(value);
        if (quote) {
          charset = quote[1] || charset;
          value = value.slice(quote[0].length);
        }
      }
      return Buffer.from(
        value.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
        'latin1',
      );
    });
    const joined = Buffer.concat(bytes);
    params.set(name, iconv.encodingExists(charset) ? iconv.decode(joined, charset) : joined.toString('utf8'));
  }
  return params;
}

function headerParams(value: string): Map<string, string> {
  const semicolon = value.indexOf(';');
  return semicolon === -1 ? new Map() : parseParams(value.slice(semicolon));
}

function readFields(s: string, start: number, end: number): RawField[] {
  const fields: RawField[] = [];
  for (const raw of s.slice(start, end).split(/\r?\n(?![ \t])/)) {
    const colon = raw.indexOf(':');
    if (colon <= 0) continue;
    const value = raw
      .slice(colon + 1)
      .replace(/\r?\n[ \t]/g, ' ')
      .trim();
    fields.push({ name: raw.slice(0, colon).trim().toLowerCase(), raw, value });
  }
  return fields;
}

/** Where a part's header block ends (start of the blank line) and its body starts. */
function splitEntity(s: string, start: number, end: number): { headerEnd: number; bodyStart: number } {
  // Searching a slice (O(1) in V8) keeps each search inside the part: a regex or indexOf on
  // the whole message would run to its end for every part that lacks a blank line.
  const part = s.slice(start, end);
  if (part.startsWith('\r\n')) return { headerEnd: start, bodyStart: start + 2 };
  if (part.startsWith('\n')) return { headerEnd: start, bodyStart: start + 1 };
  const match = /\r?\n\r?\n/.exec(part);
  if (match === null) return { headerEnd: end, bodyStart: end };
  return { headerEnd: start + match.index, bodyStart: start + match.index + match[0].length };
}

/** Offsets of the body parts between `--boundary` delimiter lines (RFC 2046 5.1.1). */
function splitMultipart(s: string, start: number, end: number, boundary: string): [number, number][] {
  const body = s.slice(start, end);
  const parts: [number, number][] = [];
  const delimiter = `--${boundary}`;
  let partStart = -1;
  for (let at = body.indexOf(delimiter); at !== -1; at = body.indexOf(delimiter, at + 1)) {
    if (at !== 0 && body[at - 1] !== '\n') continue;
    const after = at + delimiter.length;
    const closing = body.startsWith('--', after);
    const lineEnd = body.indexOf('\n', after);
    const rest = body.slice(closing ? after + 2 : after, lineEnd === -1 ? body.length : lineEnd);
    if (rest.trim() !== '') continue;
    if (partStart !== -1) {
      // The line break before a delimiter belongs to the delimiter.
      const partEnd = body[at - 2] === '\r' ? at - 2 : at - 1;
      parts.push([start + partStart, start + Math.max(partStart, partEnd)]);
    }
    if (closing) return parts;
    partStart = lineEnd === -1 ? body.length : lineEnd + 1;
  }
  // A missing closing delimiter is common in truncated mail: the last part runs to the end.
  if (partStart !== -1) parts.push([start + partStart, end]);
  return parts;
}

/** Walks the message, stopping below LIMITS.maxMimeDepth and after LIMITS.maxMimeParts parts. */
export function walkMime(bytes: Buffer): MimeTree {
  const s = bytes.toString('latin1');
  const leaves: MimeLeaf[] = [];
  const containers: RawField[][] = [];
  const warnings: string[] = [];
  let nodes = 0;
  let tooDeep = false;
  let tooMany = false;

  const visit = (start: number, end: number, depth: number, alternative: boolean): void => {
    if (++nodes > LIMITS.maxMimeParts) {
      tooMany = true;
      return;
    }
    const { headerEnd, bodyStart } = splitEntity(s, start, end);
    const fields = readFields(s, start, headerEnd);
    const contentTypeValue = fields.find((field) => field.name === 'content-type')?.value ?? '';
    const contentType = contentTypeValue.split(';')[0]?.trim().toLowerCase() || 'text/plain';
    const params = headerParams(contentTypeValue);
    const boundary = params.get('boundary');
    if (contentType.startsWith('multipart/') && boundary) {
      if (depth >= LIMITS.maxMimeDepth) {
        tooDeep = true;
        return;
      }
      containers.push(fields);
      const inAlternative = alternative || contentType === 'multipart/alternative';
      for (const [partStart, partEnd] of splitMultipart(s, bodyStart, end, boundary)) {
        if (tooMany) return;
        visit(partStart, partEnd, depth + 1, inAlternative);
      }
      return;
    }
    const dispositionValue = fields.find((field) => field.name === 'content-disposition')?.value ?? '';
    const encoding = fields.find((field) => field.name === 'content-transfer-encoding')?.value ?? '';
    leaves.push({
      contentType,
      params,
      disposition: dispositionValue.split(';')[0]?.trim().toLowerCase() || null,
      dispositionParams: headerParams(dispositionValue),
      transferEncoding: encoding.toLowerCase() || '7bit',
      fields,
      alternative,
      start,
      bodyStart,
      end,
    });
  };

  visit(0, s.length, 0, false);
  if (tooDeep) warnings.push(`mime: nesting deeper than ${LIMITS.maxMimeDepth} levels, deeper parts skipped`);
  if (tooMany) warnings.push(`mime: more than ${LIMITS.maxMimeParts} parts, the rest skipped`);
  return { leaves, containers, warnings, truncated: tooDeep || tooMany };
}

const SPACE = 0x20;
const TAB = 0x09;
const CR = 0x0d;
const LF = 0x0a;
const EQUALS = 0x3d;

/** Value of an ASCII hex digit, -1 for any other byte. */
function hexValue(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1;
}

/**
 * Quoted-printable as mailparser's decoder (libqp) reads it: whitespace at the end of a line
 * dropped (RFC 2045 6.7: it was added in transport), soft line breaks removed, =XX escapes.
 * Three passes over a copy of the bytes, each in place and in that order (a soft break
 * removed can join an escape: `==<CRLF>41` is `=A`), each jumping between the bytes it acts
 * on (line breaks, `=`) with indexOf and moving the spans between them whole: three regex
 * replaces over a latin1 string, with a callback per escape, cost ~20 us of a ~150 us parse.
 */
function decodeQuotedPrintable(body: Buffer): Buffer {
  const bytes = Buffer.from(body);
  const length = dropTrailingBlanks(bytes, bytes.length);
  const decoded = decodeEscapes(bytes, dropSoftBreaks(bytes, length));
  return decoded === bytes.length ? bytes : Buffer.from(bytes.subarray(0, decoded));
}

/** Index of `byte` in bytes[from, length), or `length`. */
function find(bytes: Buffer, byte: number, from: number, length: number): number {
  const at = bytes.indexOf(byte, from);
  return at < 0 || at > length ? length : at;
}

/** Removes each run of spaces and tabs before a CR, an LF or the end; returns the new length. */
function dropTrailingBlanks(bytes: Buffer, length: number): number {
  let out = 0;
  let from = 0;
  let cr = find(bytes, CR, 0, length);
  let lf = find(bytes, LF, 0, length);
  for (;;) {
    const at = Math.min(cr, lf);
    let kept = at;
    while (kept > from && (bytes[kept - 1] === SPACE || bytes[kept - 1] === TAB)) kept--;
    bytes.copyWithin(out, from, kept);
    out += kept - from;
    if (at === length) return out;
    from = at;
    if (at === cr) cr = find(bytes, CR, at + 1, length);
    else lf = find(bytes, LF, at + 1, length);
  }
}

/** Removes `=` before CRLF, LF or the end; returns the new length. */
function dropSoftBreaks(bytes: Buffer, length: number): number {
  let out = 0;
  let from = 0;
  for (let at = find(bytes, EQUALS, 0, length); at < length; at = find(bytes, EQUALS, at + 1, length)) {
    const next = at + 1 === length || bytes[at + 1] === LF ? at + 2 : -1;
    const end =
      next >= 0 ? next : at + 2 < length && bytes[at + 1] === CR && bytes[at + 2] === LF ? at + 3 : -1;
    if (end < 0) continue;
    bytes.copyWithin(out, from, at);
    out += at - from;
    from = Math.min(end, length);
    at = from - 1;
  }
  bytes.copyWithin(out, from, length);
  return out + length - from;
}

/** Decodes each `=` and two hex digits into its byte; returns the new length. */
function decodeEscapes(bytes: Buffer, length: number): number {
  let out = 0;
  let from = 0;
  for (let at = find(bytes, EQUALS, 0, length); at < length; at = find(bytes, EQUALS, at + 1, length)) {
    if (at + 2 >= length) break;
    const high = hexValue(bytes[at + 1] as number);
    const low = high < 0 ? -1 : hexValue(bytes[at + 2] as number);
    if (low < 0) continue;
    bytes.copyWithin(out, from, at);
    out += at - from;
    bytes[out++] = (high << 4) | low;
    from = at + 3;
    at = from - 1;
  }
  bytes.copyWithin(out, from, length);
  return out + length - from;
}

/** The decoded bytes of a leaf body (base64, quoted-printable, or as is). */
export function leafContent(bytes: Buffer, leaf: MimeLeaf): Buffer {
  const body = bytes.subarray(leaf.bodyStart, leaf.end);
  if (leaf.transferEncoding === 'base64') return Buffer.from(body.toString('latin1'), 'base64');
  if (leaf.transferEncoding === 'quoted-printable') return decodeQuotedPrintable(body);
  return body;
}

/** Whether a leaf is body text rather than an attachment, by mailparser's rule. */
export function isBodyLeaf(leaf: MimeLeaf): boolean {
  return (
    (leaf.contentType === 'text/plain' || leaf.contentType === 'text/html') &&
    leaf.disposition !== 'attachment'
  );
}

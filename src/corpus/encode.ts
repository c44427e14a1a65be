// Byte-level encoders for generated mail: charsets (iconv-lite, plus ISO-2022-JP built on
// EUC-JP), quoted-printable, base64 line wrapping, RFC 2047 encoded words and RFC 5322 dates.

import iconv from 'iconv-lite';

export type Charset =
  | 'utf-8'
  | 'iso-8859-1'
  | 'windows-1252'
  | 'koi8-r'
  | 'windows-1251'
  | 'iso-2022-jp'
  | 'gb2312';

export type TransferEncoding = '7bit' | '8bit' | 'quoted-printable' | 'base64';

/** True when every character is 7-bit; byteLength is native and far faster than a regex here. */
export function isAscii(text: string): boolean {
  return Buffer.byteLength(text, 'utf8') === text.length;
}

/** Encodes text to bytes in `charset`; unmappable characters become '?' (use canEncode first). */
export function encodeText(text: string, charset: Charset): Buffer {
  if (charset === 'utf-8') return Buffer.from(text, 'utf8');
  if (charset === 'iso-2022-jp') return encodeIso2022Jp(text);
  return iconv.encode(text, charset);
}

export function decodeText(bytes: Buffer, charset: Charset): string {
  if (charset === 'utf-8') return bytes.toString('utf8');
  if (charset === 'iso-2022-jp') return decodeIso2022Jp(bytes);
  return iconv.decode(bytes, charset);
}

/** True when every character of `text` exists in `charset`. */
export function canEncode(text: string, charset: Charset): boolean {
  if (charset === 'utf-8' || isAscii(text)) return true;
  // iconv-lite writes '?' for a character the charset lacks, so extra '?' bytes mean a loss:
  // one encode and a native byte search instead of a full decode and string comparison.
  // ISO-2022-JP pairs are 7-bit and may contain 0x3F, so probe its 8-bit form, EUC-JP.
  const probe = charset === 'iso-2022-jp' ? iconv.encode(text, 'euc-jp') : encodeText(text, charset);
  return countQuestionMarks(probe) === countQuestionMarks(text);
}

function countQuestionMarks(value: string | Buffer): number {
  let n = 0;
  for (let i = value.indexOf('?'); i >= 0; i = value.indexOf('?', i + 1)) n++;
  return n;
}

const ESC_JIS = Buffer.from([0x1b, 0x24, 0x42]); // ESC $ B: JIS X 0208
const ESC_ASCII = Buffer.from([0x1b, 0x28, 0x42]); // ESC ( B: back to ASCII

/**
 * ISO-2022-JP (RFC 1468) from EUC-JP: iconv-lite has no ISO-2022-JP codec, but a JIS X 0208
 * character in EUC-JP is its ISO-2022-JP pair with the high bit set on both bytes.
 */
function encodeIso2022Jp(text: string): Buffer {
  const euc = iconv.encode(text, 'euc-jp');
  // Worst case: every character a JIS pair wrapped in its own pair of 3-byte escapes.
  const out = Buffer.allocUnsafe(euc.length * 4 + 3);
  let o = 0;
  let inJis = false;
  for (let i = 0; i < euc.length; i++) {
    const b = euc[i] as number;
    if (b < 0x80) {
      if (inJis) o += ESC_ASCII.copy(out, o);
      inJis = false;
      out[o++] = b;
    } else {
      if (!inJis) o += ESC_JIS.copy(out, o);
      inJis = true;
      out[o++] = b & 0x7f;
      out[o++] = (euc[++i] as number) & 0x7f;
    }
  }
  if (inJis) o += ESC_ASCII.copy(out, o);
  return Buffer.from(out.subarray(0, o));
}

function decodeIso2022Jp(bytes: Buffer): string {
  const euc: number[] = [];
  let inJis = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    if (b === 0x1b) {
      inJis = bytes[i + 1] === 0x24;
      i += 2;
    } else if (inJis && b > 0x20) {
      euc.push(b | 0x80, (bytes[++i] as number) | 0x80);
    } else euc.push(b);
  }
  return iconv.decode(Buffer.from(euc), 'euc-jp');
}

const HEX = '0123456789ABCDEF';

/** Bytes QP may write as themselves: printable ASCII except '=' (tab and space handled apart). */
const QP_LITERAL = new Uint8Array(256);
for (let b = 33; b <= 126; b++) QP_LITERAL[b] = b === 61 ? 0 : 1;

/** Scratch output reused across calls: QP runs on most bodies, and a fresh 3x buffer each time is GC churn. */
let qpScratch = Buffer.allocUnsafe(64 * 1024);

/** Quoted-printable (RFC 2045 §6.7) of `bytes` whose line breaks are LF. */
export function quotedPrintable(bytes: Buffer): Buffer {
  const need = bytes.length * 3 + Math.ceil(bytes.length / 24) * 2 + 4;
  if (qpScratch.length < need) qpScratch = Buffer.allocUnsafe(need * 2);
  const out = qpScratch;
  const n = bytes.length;
  let o = 0;
  let col = 0;
  for (let i = 0; i < n; i++) {
    const b = bytes[i] as number;
    if (b === 0x0a) {
      out[o++] = b;
      col = 0;
      continue;
    }
    // Trailing whitespace would be stripped by transports, so it is encoded (RFC 2045 rule 3).
    const literal = QP_LITERAL[b] === 1 || ((b === 32 || b === 9) && i + 1 < n && bytes[i + 1] !== 0x0a);
    if (literal) {
      if (col >= 75) {
        out[o++] = 61;
        out[o++] = 0x0a;
        col = 0;
      }
      out[o++] = b;
      col++;
    } else {
      if (col >= 73) {
        out[o++] = 61;
        out[o++] = 0x0a;
        col = 0;
      }
      out[o++] = 61;
      out[o++] = HEX.charCodeAt(b >> 4);
      out[o++] = HEX.charCodeAt(b & 15);
      col += 3;
    }
  }
  return Buffer.from(out.subarray(0, o));
}

/** Base64 of `bytes` in 76-character lines, LF-terminated. */
export function wrapBase64(b64: string): string {
  let out = '';
  for (let i = 0; i < b64.length; i += 76) out += `${b64.slice(i, i + 76)}\n`;
  return out;
}

/** Applies a transfer encoding to body bytes. */
export function encodeBytes(bytes: Buffer, cte: TransferEncoding): Buffer {
  switch (cte) {
    case 'quoted-printable':
      return quotedPrintable(bytes);
    case 'base64':
      return Buffer.from(wrapBase64(bytes.toString('base64')), 'latin1');
    default:
      return bytes;
  }
}

/** A header value: kept as is when ASCII, else RFC 2047 encoded words folded onto lines. */
export function encodeWords(text: string, charset: Charset, mode: 'B' | 'Q' = 'B'): string {
  if (isAscii(text)) return text;
  const cs = canEncode(text, charset) ? charset : 'utf-8';
  const words: string[] = [];
  // Encode chunks of whole characters: an encoded word must not split a multi-byte character.
  const chars = Array.from(text);
  const step = mode === 'B' ? 12 : 8;
  for (let i = 0; i < chars.length; i += step) {
    const bytes = encodeText(chars.slice(i, i + step).join(''), cs);
    words.push(`=?${cs}?${mode}?${mode === 'B' ? bytes.toString('base64') : qWord(bytes)}?=`);
  }
  return words.join('\n ');
}

function qWord(bytes: Buffer): string {
  let out = '';
  for (const b of bytes) {
    if (b === 32) out += '_';
    else if ((b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b === 45 || b === 46)
      out += String.fromCharCode(b);
    else out += `=${HEX[b >> 4]}${HEX[b & 15]}`;
  }
  return out;
}

export interface Mailbox {
  readonly name: string;
  readonly address: string;
}

const NEEDS_QUOTES = /[()<>[\]:;@\\,."]/;

/** `Name <addr>` for a header, the name quoted or encoded as RFC 5322/2047 require. */
export function formatMailbox(box: Mailbox, charset: Charset = 'utf-8'): string {
  if (box.name === '') return box.address;
  if (!isAscii(box.name)) return `${encodeWords(box.name, charset)} <${box.address}>`;
  if (NEEDS_QUOTES.test(box.name)) return `"${box.name.replace(/["\\]/g, '\\$&')}" <${box.address}>`;
  return `${box.name} <${box.address}>`;
}

/** `Name <addr>` as a mail client prints it inside a body (no quoting or encoding). */
export function displayMailbox(box: Mailbox): string {
  return box.name === '' ? box.address : `${box.name} <${box.address}>`;
}

export function formatMailboxList(boxes: readonly Mailbox[], charset: Charset = 'utf-8'): string {
  return boxes.map((b) => formatMailbox(b, charset)).join(',\n ');
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Wall-clock fields of `date` in a zone `offsetMinutes` east of UTC. */
export function localParts(date: Date, offsetMinutes: number): Date {
  return new Date(date.getTime() + offsetMinutes * 60_000);
}

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));

/** RFC 5322 date-time, e.g. `Tue, 3 Sep 2024 09:12:01 +0200`. */
export function formatRfc5322Date(date: Date, offsetMinutes: number): string {
  const l = localParts(date, offsetMinutes);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${DAYS[l.getUTCDay()]}, ${l.getUTCDate()} ${MONTHS[l.getUTCMonth()]} ${l.getUTCFullYear()} ${pad2(
    l.getUTCHours(),
  )}:${pad2(l.getUTCMinutes())}:${pad2(l.getUTCSeconds())} ${sign}${pad2(Math.floor(abs / 60))}${pad2(abs % 60)}`;
}

/** asctime-style date of an mbox `From ` separator line: `Tue Sep  3 07:12:01 2024` (UTC). */
export function formatMboxDate(date: Date): string {
  const d = date.getUTCDate();
  return `${DAYS[date.getUTCDay()]} ${MONTHS[date.getUTCMonth()]} ${d < 10 ? ` ${d}` : d} ${pad2(
    date.getUTCHours(),
  )}:${pad2(date.getUTCMinutes())}:${pad2(date.getUTCSeconds())} ${date.getUTCFullYear()}`;
}

const HTML_SPECIAL = /[&<>"]/;
const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

export function escapeHtml(text: string): string {
  return HTML_SPECIAL.test(text) ? text.replace(/[&<>"]/g, (c) => HTML_ESCAPES[c] as string) : text;
}

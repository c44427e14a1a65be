// Charset repair for text the sender labelled wrongly or not at all: a latin-1 body declared
// utf-8, an 8-bit body or header with no charset. Detection (chardet) only runs on bytes that
// the declared charset could not decode, so correctly labelled mail never pays for it.

import { isUtf8 } from 'node:buffer';
import chardet from 'chardet';
import iconv from 'iconv-lite';

/** Result of decoding bytes whose declared charset may be wrong. */
export interface RepairedText {
  readonly text: string;
  /** Charset actually used, or null when the declared one was right. */
  readonly usedCharset: string | null;
}

/** Counts U+FFFD in a string: the mark a decoder leaves on bytes it could not read. */
export function countReplacements(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\uFFFD'); i !== -1; i = text.indexOf('\uFFFD', i + 1)) count++;
  return count;
}

/** Counts encoded U+FFFD (EF BF BD) in raw bytes: replacement characters the sender really sent. */
export function countRawReplacements(bytes: Buffer): number {
  let count = 0;
  const mark = Buffer.from([0xef, 0xbf, 0xbd]);
  for (let i = bytes.indexOf(mark); i !== -1; i = bytes.indexOf(mark, i + 3)) count++;
  return count;
}

function isUtf8Label(charset: string): boolean {
  return /^(?:utf-?8|us-?ascii|ascii)$/i.test(charset.trim());
}

const DETECTION_SAMPLE_BYTES = 64 * 1024;

/**
 * Picks the charset of 8-bit bytes that are not UTF-8. ISO-8859-1 becomes windows-1252,
 * as browsers do (WHATWG Encoding): senders label cp1252 text latin-1 all the time, and
 * the 0x80–0x9F range then holds € “ ” – instead of C1 controls nobody writes.
 */
export function detectLegacyCharset(bytes: Buffer): string {
  // chardet's cost grows with its input (seconds on 20 MB); 64 KB from the first 8-bit byte decides.
  const first = bytes.findIndex((b) => b >= 0x80);
  const sample = bytes.subarray(Math.max(0, first), Math.max(0, first) + DETECTION_SAMPLE_BYTES);
  for (const match of chardet.analyse(sample)) {
    const name = match.name.toLowerCase();
    if (name.startsWith('utf') || name === 'ascii') continue;
    if (name === 'iso-8859-1') return 'windows-1252';
    if (iconv.encodingExists(name)) return name;
  }
  return 'windows-1252';
}

/**
 * Decodes bytes that are mostly UTF-8 with stray legacy bytes (a signature pasted from an
 * old client, a latin-1 quote inside a utf-8 reply): valid sequences stay UTF-8, each run
 * of invalid bytes is decoded with `fallback`.
 */
function decodeMixedUtf8(bytes: Buffer, fallback: string): string {
  let out = '';
  let start = 0;
  let i = 0;
  while (i < bytes.length) {
    const length = utf8SequenceLength(bytes, i);
    if (length > 0) {
      i += length;
      continue;
    }
    let end = i + 1;
    while (end < bytes.length && utf8SequenceLength(bytes, end) === 0) end++;
    out += bytes.toString('utf8', start, i) + iconv.decode(bytes.subarray(i, end), fallback);
    start = end;
    i = end;
  }
  return out + bytes.toString('utf8', start);
}

/** Length of the valid UTF-8 sequence starting at `i`, or 0 when the byte there starts none. */
function utf8SequenceLength(bytes: Buffer, i: number): number {
  const b = bytes[i] as number;
  if (b < 0x80) return 1;
  const length = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
  if (length === 0 || i + length > bytes.length) return 0;
  for (let k = 1; k < length; k++) {
    const c = bytes[i + k] as number;
    if (c < 0x80 || c > 0xbf) return 0;
  }
  // Overlongs, surrogates and code points past U+10FFFF are invalid too.
  const second = bytes[i + 1] as number;
  if (b === 0xe0 && second < 0xa0) return 0;
  if (b === 0xed && second > 0x9f) return 0;
  if (b === 0xf0 && second < 0x90) return 0;
  if (b === 0xf4 && second > 0x8f) return 0;
  return length;
}

/** Counts valid multi-byte UTF-8 sequences and invalid bytes, to tell mixed text from legacy text. */
function utf8Balance(bytes: Buffer): { valid: number; invalid: number } {
  let valid = 0;
  let invalid = 0;
  for (let i = 0; i < bytes.length; ) {
    const length = utf8SequenceLength(bytes, i);
    if (length === 0) {
      invalid++;
      i++;
    } else {
      if (length > 1) valid++;
      i += length;
    }
  }
  return { valid, invalid };
}

/**
 * Decodes bytes that are not valid UTF-8 although they claim (or default) to be. When most
 * 8-bit sequences are valid UTF-8, only the invalid runs are decoded as legacy text;
 * otherwise the whole text is legacy and is decoded with the detected charset.
 */
export function decodeNonUtf8(bytes: Buffer, fallback: string = detectLegacyCharset(bytes)): RepairedText {
  const { valid, invalid } = utf8Balance(bytes);
  if (valid > invalid) return { text: decodeMixedUtf8(bytes, fallback), usedCharset: `utf-8+${fallback}` };
  return { text: iconv.decode(bytes, fallback), usedCharset: fallback };
}

const LATIN1_LABELS = new Set(['iso-8859-1', 'iso8859-1', 'iso_8859-1', 'latin1', 'l1', 'cp819']);

/** Charsets mailparser decodes with its own Japanese decoder although iconv-lite lacks them. */
const JAPANESE_JIS = /^(?:iso-?2022-?jp(?:-\d+)?|csiso2022jp|jis)$/i;

/**
 * Decodes a body part from its declared charset, repairing it when the label is wrong.
 * usedCharset is null when the declared charset served, so what mailparser decoded stands.
 */
export function decodeDeclared(bytes: Buffer, declared: string | null): RepairedText {
  const label = (declared ?? '').trim().toLowerCase();
  // As libmime (and every browser) does: latin-1 labels mean windows-1252.
  const charset = LATIN1_LABELS.has(label) ? 'windows-1252' : label;
  if (charset === '' || isUtf8Label(charset)) {
    if (isUtf8(bytes)) return { text: bytes.toString('utf8'), usedCharset: null };
    return decodeNonUtf8(bytes);
  }
  if (!iconv.encodingExists(charset)) {
    // JIS is 7-bit and valid UTF-8 as bytes; mailparser decodes it, only the fallback walk reads this.
    if (JAPANESE_JIS.test(charset) || isUtf8(bytes))
      return { text: bytes.toString('utf8'), usedCharset: null };
    return decodeNonUtf8(bytes);
  }
  const text = iconv.decode(bytes, charset);
  const lost = countReplacements(text) - countRawReplacements(bytes);
  if (lost <= 0) return { text, usedCharset: null };
  if (isUtf8(bytes)) return { text: bytes.toString('utf8'), usedCharset: 'utf-8' };
  const detected = detectLegacyCharset(bytes);
  const retry = iconv.decode(bytes, detected);
  if (countReplacements(retry) < countReplacements(text)) return { text: retry, usedCharset: detected };
  return { text, usedCharset: null };
}

/**
 * The charset of undeclared 8-bit header bytes. Old clients wrote headers in the charset of
 * their body, so the first non-UTF-8 charset the message declares (`head` is its start) is the
 * best guess; detection over all such header bytes comes second.
 */
export function legacyHeaderCharset(headerBytes: Buffer, head: string): string {
  const pattern = /charset\s*=\s*"?([\w.:-]+)/gi;
  for (let match = pattern.exec(head); match !== null; match = pattern.exec(head)) {
    const declared = (match[1] as string).toLowerCase();
    if (isUtf8Label(declared) || !iconv.encodingExists(declared)) continue;
    return declared === 'iso-8859-1' || declared === 'latin1' ? 'windows-1252' : declared;
  }
  return detectLegacyCharset(headerBytes);
}

// Splits an mbox byte stream into messages, chunk by chunk, holding at most one message
// (or, past the size limit, none: an oversized message is hashed as it streams by).
import { createHash, type Hash } from 'node:crypto';
import { LIMITS, MailsiftError } from '../core/index.js';

/**
 * How '>From ' lines in bodies were escaped. mboxrd (the default) escapes every
 * /^>*From / line by adding one '>', so reading removes one '>' from each such line and
 * round-trips exactly. mboxo escapes only /^From /, so only '>From ' can be unescaped
 * ('>>From ' stays as written). Both split identically; only unescaping differs.
 */
export type MboxFormat = 'mboxrd' | 'mboxo';

export type SplitMessage =
  | { readonly kind: 'message'; readonly offset: number; readonly bytes: Buffer }
  | {
      readonly kind: 'oversized';
      readonly offset: number;
      readonly size: number;
      /** sha256 (hex) of the raw bytes, so the entry still gets a stable key. */
      readonly sha256: string;
      /** The first bytes of the message, enough for its header block. */
      readonly head: Buffer;
    };

export interface SplitterOptions {
  readonly format: MboxFormat;
  readonly maxMessageBytes: number;
  /** Path named in errors. */
  readonly param: string;
}

const SEPARATOR = Buffer.from('\nFrom ');
const FROM = Buffer.from('From ');
const NL_GT = Buffer.from('\n>');
const GT = 0x3e;
const EMPTY = Buffer.alloc(0);

type State = 'start' | 'separator' | 'body';

export class MboxSplitter {
  private state: State = 'start';
  /** Unprocessed bytes carried into the next chunk (a possible split separator). */
  private tail: Buffer = EMPTY;
  /** Absolute file offset of tail[0]. */
  private tailOffset = 0;
  private parts: Buffer[] = [];
  private size = 0;
  private offset = 0;
  /** Set once the current message passes the limit; its bytes then only feed the hash. */
  private hash: Hash | null = null;
  private head: Buffer = EMPTY;

  constructor(private readonly options: SplitterOptions) {}

  /** Feeds the next chunk; returns the messages it completed. */
  push(chunk: Buffer): SplitMessage[] {
    const buf = this.tail.length === 0 ? chunk : Buffer.concat([this.tail, chunk]);
    const base = this.tailOffset;
    const out: SplitMessage[] = [];
    this.tail = EMPTY;
    let pos = 0;
    while (pos < buf.length) {
      if (this.state === 'start') {
        while (pos < buf.length && isBlank(buf[pos] as number)) pos++;
        if (buf.length - pos < FROM.length) {
          this.tail = buf.subarray(pos);
          break;
        }
        if (!startsWithFrom(buf, pos)) throw this.notMbox(buf, pos);
        this.offset = base + pos;
        this.state = 'separator';
      } else if (this.state === 'separator') {
        // The 'From sender date' line carries nothing we keep, so it is dropped as it passes.
        const newline = buf.indexOf(0x0a, pos);
        if (newline === -1) break;
        pos = newline + 1;
        this.state = 'body';
      } else {
        const hit = buf.indexOf(SEPARATOR, pos);
        if (hit === -1) {
          // The last bytes may be the start of a separator split across chunks.
          const keep = Math.max(pos, buf.length - (SEPARATOR.length - 1));
          this.append(buf.subarray(pos, keep));
          this.tail = buf.subarray(keep);
          break;
        }
        this.append(buf.subarray(pos, hit + 1));
        this.finish(out);
        this.offset = base + hit + 1;
        this.state = 'separator';
        pos = hit + 1;
      }
    }
    this.tailOffset = base + buf.length - this.tail.length;
    return out;
  }

  /** Signals the end of the stream; returns the last message, if any. */
  end(): SplitMessage[] {
    const out: SplitMessage[] = [];
    if (this.state === 'start') {
      const rest = this.tail.findIndex((byte) => !isBlank(byte));
      if (rest !== -1) throw this.notMbox(this.tail, rest);
    } else if (this.state === 'body') {
      this.append(this.tail);
      this.finish(out);
    }
    this.tail = EMPTY;
    this.state = 'start';
    return out;
  }

  private append(part: Buffer): void {
    if (part.length === 0) return;
    this.size += part.length;
    if (this.hash !== null) {
      this.hash.update(part);
      return;
    }
    this.parts.push(part);
    if (this.size > this.options.maxMessageBytes) {
      this.head = Buffer.concat(prefix(this.parts, LIMITS.maxHeaderBytes));
      this.hash = createHash('sha256');
      for (const held of this.parts) this.hash.update(held);
      this.parts = [];
    }
  }

  private finish(out: SplitMessage[]): void {
    if (this.hash !== null) {
      const sha256 = this.hash.digest('hex');
      out.push({ kind: 'oversized', offset: this.offset, size: this.size, sha256, head: this.head });
    } else {
      // concat copies, so a message never pins the 1 MB read chunk it came from.
      const bytes = unescapeFromLines(
        stripSeparatorBlank(Buffer.concat(this.parts, this.size)),
        this.options.format,
      );
      if (bytes.length > 0) out.push({ kind: 'message', offset: this.offset, bytes });
    }
    this.parts = [];
    this.size = 0;
    this.hash = null;
    this.head = EMPTY;
  }

  private notMbox(buf: Buffer, pos: number): MailsiftError {
    const line = buf
      .subarray(pos, pos + 60)
      .toString('latin1')
      .split(/\r?\n/)[0];
    return new MailsiftError(
      'bad_format',
      `${this.options.param} is not an mbox: it must start with a "From " line, found ${JSON.stringify(line)}`,
      { param: this.options.param },
    );
  }
}

function startsWithFrom(buf: Buffer, pos: number): boolean {
  return pos + FROM.length <= buf.length && buf.compare(FROM, 0, FROM.length, pos, pos + FROM.length) === 0;
}

function isBlank(byte: number): boolean {
  return byte === 0x0a || byte === 0x0d || byte === 0x20 || byte === 0x09;
}

/** The leading parts of `parts`, cut to `limit` bytes in total. */
function prefix(parts: readonly Buffer[], limit: number): Buffer[] {
  const out: Buffer[] = [];
  let left = limit;
  for (const part of parts) {
    if (left <= 0) break;
    out.push(part.subarray(0, left));
    left -= part.length;
  }
  return out;
}

/** Drops the blank line mbox writers put before the next 'From ' line (LF or CRLF). */
function stripSeparatorBlank(bytes: Buffer): Buffer {
  const n = bytes.length;
  if (n >= 2 && bytes[n - 1] === 0x0a && bytes[n - 2] === 0x0a) return bytes.subarray(0, n - 1);
  if (
    n >= 4 &&
    bytes[n - 1] === 0x0a &&
    bytes[n - 2] === 0x0d &&
    bytes[n - 3] === 0x0a &&
    bytes[n - 4] === 0x0d
  ) {
    return bytes.subarray(0, n - 2);
  }
  return bytes;
}

/** Removes the escaping '>' from quoted 'From ' lines, per `format`. */
export function unescapeFromLines(bytes: Buffer, format: MboxFormat): Buffer {
  const cuts: number[] = [];
  let at = bytes[0] === GT ? 0 : lineStartGt(bytes, 0);
  while (at !== -1) {
    let end = at;
    while (bytes[end] === GT) end++;
    const escaped = format === 'mboxrd' || end === at + 1;
    if (escaped && startsWithFrom(bytes, end)) cuts.push(at);
    at = lineStartGt(bytes, end);
  }
  if (cuts.length === 0) return bytes;
  const pieces: Buffer[] = [];
  let from = 0;
  for (const cut of cuts) {
    pieces.push(bytes.subarray(from, cut));
    from = cut + 1;
  }
  pieces.push(bytes.subarray(from));
  return Buffer.concat(pieces, bytes.length - cuts.length);
}

/** Index of the next '>' that starts a line at or after `from`, or -1. */
function lineStartGt(bytes: Buffer, from: number): number {
  const hit = bytes.indexOf(NL_GT, from);
  return hit === -1 ? -1 : hit + 1;
}

// An mbox file as a MailSource: streamed in 1 MB chunks and split on 'From ' lines, so
// memory stays bounded by the largest message however large the file is.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { MailSource, SkippedFiles, SourceEntry } from '../core/index.js';
import { LIMITS, MailsiftError } from '../core/index.js';
import { flagLabels, MBOX_STATUS_FLAGS } from './flags.js';
import { fsError, resolveMaxMessageBytes, type SourceOptions, statExpecting } from './fs-util.js';
import { type MboxFormat, MboxSplitter, type SplitMessage } from './mbox-splitter.js';

export interface MboxOptions extends SourceOptions {
  /** How '>From ' lines were escaped; 'mboxrd' unless told (see MboxFormat). */
  readonly mboxFormat?: MboxFormat;
}

const CHUNK_BYTES = 1024 * 1024;
const MBOX_EXTENSION = /\.(mbox|mbx|mbs)$/i;

export class MboxSource implements MailSource {
  readonly kind = 'mbox';
  readonly path: string;
  private readonly format: MboxFormat;
  private readonly maxMessageBytes: number;

  constructor(path: string, options: MboxOptions = {}) {
    this.path = resolve(path);
    this.format = resolveMboxFormat(options);
    this.maxMessageBytes = resolveMaxMessageBytes(options);
  }

  /** An mbox is one file of messages: nothing in it is passed over. */
  skipped(): readonly SkippedFiles[] {
    return [];
  }

  /**
   * Keys are the first 20 hex digits of the message's sha256 plus the ordinal of that
   * hash in this file: removing another message leaves a key unchanged, and identical
   * copies stay distinct.
   */
  async *scan(): AsyncGenerator<SourceEntry> {
    const stats = await statExpecting(this.path, 'file');
    // Thunderbird names mbox files without an extension and uses dots inside names
    // ('Archive.2024'), so only the known mbox extensions are stripped.
    const folder = basename(this.path).replace(MBOX_EXTENSION, '');
    const splitter = new MboxSplitter({
      format: this.format,
      maxMessageBytes: this.maxMessageBytes,
      param: this.path,
    });
    const ordinals = new OrdinalCounter();
    const toEntry = (message: SplitMessage): SourceEntry => {
      const hash =
        message.kind === 'message'
          ? createHash('sha256').update(message.bytes).digest('hex')
          : message.sha256;
      const short = hash.slice(0, 20);
      const header = message.kind === 'message' ? message.bytes : message.head;
      return {
        key: `${short}:${ordinals.next(short)}`,
        folder,
        labels: statusLabels(header),
        fingerprint: short,
        fileTime: stats.mtime,
        read:
          message.kind === 'message' ? () => Promise.resolve(message.bytes) : () => this.oversized(message),
      };
    };
    const stream = createReadStream(this.path, { highWaterMark: CHUNK_BYTES });
    try {
      for await (const chunk of stream) {
        for (const message of splitter.push(chunk as Buffer)) yield toEntry(message);
      }
    } catch (error) {
      throw error instanceof MailsiftError ? error : fsError(error, this.path);
    } finally {
      stream.destroy();
    }
    for (const message of splitter.end()) yield toEntry(message);
  }

  private oversized(message: SplitMessage & { kind: 'oversized' }): Promise<Buffer> {
    return Promise.reject(
      new MailsiftError(
        'bad_format',
        `message at byte offset ${message.offset} of ${this.path} is ${message.size} bytes, which exceeds the ` +
          `${this.maxMessageBytes}-byte message limit`,
        { param: this.path },
      ),
    );
  }
}

export function resolveMboxFormat(options: MboxOptions): MboxFormat {
  const format = options.mboxFormat ?? 'mboxrd';
  if (format !== 'mboxrd' && format !== 'mboxo') {
    throw new MailsiftError('invalid_argument', `mboxFormat must be 'mboxrd' or 'mboxo', got ${format}`, {
      param: 'mboxFormat',
    });
  }
  return format;
}

/** Labels from Status, X-Status and X-Mozilla-Status; only the header block is looked at. */
export function statusLabels(message: Buffer): string[] {
  const window = message.subarray(0, LIMITS.maxHeaderBytes);
  const lf = window.indexOf('\n\n');
  const crlf = window.indexOf('\n\r\n');
  const end = lf === -1 ? crlf : crlf === -1 ? lf : Math.min(lf, crlf);
  const header = window.subarray(0, end === -1 ? window.length : end + 1).toString('latin1');
  let letters = '';
  for (const match of header.matchAll(/^(?:x-)?status:([^\r\n]*)/gim)) letters += match[1];
  const mozilla = /^x-mozilla-status:[ \t]*([0-9a-f]{4})/im.exec(header)?.[1];
  if (mozilla !== undefined) letters += mozillaLetters(Number.parseInt(mozilla, 16));
  return flagLabels(letters, MBOX_STATUS_FLAGS);
}

/**
 * Thunderbird keeps flags in X-Mozilla-Status (nsMsgMessageFlags): 0x1 read, 0x2 replied,
 * 0x4 marked, 0x8 expunged (deleted, awaiting compaction). Mapped to Status letters.
 */
function mozillaLetters(bits: number): string {
  return (
    (bits & 0x1 ? 'R' : '') + (bits & 0x2 ? 'A' : '') + (bits & 0x4 ? 'F' : '') + (bits & 0x8 ? 'D' : '')
  );
}

/**
 * Counts how often each short hash was seen. Every hash goes into a Set of 52-bit numbers
 * (~40 bytes a message instead of ~80 for a Map of strings: a 10 GB mbox holds ~1M
 * messages); only repeats get a Map entry. A 52-bit collision (p ≈ 1e-4 at 1M messages)
 * gives a unique message ordinal 1: its key is still unique and stable across runs.
 */
class OrdinalCounter {
  private readonly seen = new Set<number>();
  private readonly repeats = new Map<string, number>();

  next(hash: string): number {
    const bits = Number.parseInt(hash.slice(0, 13), 16);
    if (!this.seen.has(bits)) {
      this.seen.add(bits);
      return 0;
    }
    const ordinal = (this.repeats.get(hash) ?? 0) + 1;
    this.repeats.set(hash, ordinal);
    return ordinal;
  }
}

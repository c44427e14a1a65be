// Turns raw message bytes into a PreparedMessage: parse, clean, hash, compress. This is
// the CPU-heavy part of ingest, so it runs in worker threads (see prepare-pool.ts).

import { createHash } from 'node:crypto';
import { resolveLimits } from '../attachments/limits.js';
import { skipped } from '../attachments/outcome.js';
import { settledWithoutExtracting } from '../attachments/settle.js';
import { cleanMessage } from '../clean/index.js';
import type { ParsedAttachment, ParsedMessage } from '../core/types.js';
import { precomputeKeywordDocument } from '../index/index.js';
import { parseMessage } from '../parse/index.js';
import type { StoredExtraction } from '../store/index.js';
import type { PreparedMessage } from '../store/records.js';
import { toStoredExtraction } from './attachment-content.js';
import { deflateRaw, deflateText } from './compress.js';

export interface PrepareOptions {
  /**
   * Analyse the message for the keyword index here, off the ingest thread: only when a
   * registered index hook reads it (IndexHook.usesKeywordDocument).
   */
  readonly keywordDocument: boolean;
}

/** `rawSha256` is the hash ingest already took of `bytes` to find stored copies. */
export async function prepareMessage(
  bytes: Buffer,
  fileTime: Date | null,
  rawSha256: string,
  options: PrepareOptions,
): Promise<PreparedMessage> {
  const parsed = await parseMessage(bytes, { fileTime });
  const cleaned = cleanMessage({ text: parsed.text, html: parsed.html });
  const attachments = parsed.attachments.map(({ content: _content, ...meta }) => meta);
  return {
    rawSha256,
    rawSize: bytes.length,
    rawDeflated: deflateRaw(bytes),
    headerMessageId: parsed.messageId,
    contentHash: contentHash(parsed),
    from: parsed.from,
    to: parsed.to,
    cc: parsed.cc,
    bcc: parsed.bcc,
    replyTo: parsed.replyTo,
    subject: parsed.subject,
    date: parsed.date,
    dateSource: parsed.dateSource,
    references: parsed.references,
    inReplyTo: parsed.inReplyTo,
    threadKeys: threadKeys(parsed),
    auth: parsed.auth,
    listId: parsed.listId,
    headerLabels: parsed.labels,
    warnings: parsed.warnings,
    attachments,
    settled: parsed.attachments.flatMap((attachment) => {
      const settled = settledOutcome(attachment);
      return settled ? [[attachment.sha256, settled] as const] : [];
    }),
    bodyDeflated: deflateText(JSON.stringify(cleaned)),
    precomputed: options.keywordDocument
      ? precomputeKeywordDocument({
          ...parsed,
          cleaned,
          attachments: attachments.map((meta) => ({ ...meta, extraction: null })),
        })
      : {},
  };
}

export function sha256(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Hash of what makes two copies "the same message": sender, recipients, date, subject,
 * body and attachments — not the transport headers (Received, X-Gmail-Labels…) that
 * differ between the copies delivered to different folders.
 */
export function contentHash(parsed: ParsedMessage): string {
  const hash = createHash('sha256');
  const field = (value: string): void => {
    hash.update(value);
    hash.update('\u0000');
  };
  field(parsed.from?.address ?? '');
  field([...parsed.to, ...parsed.cc].map((a) => a.address).join(','));
  field(String(parsed.dateSource === 'date' ? parsed.date.getTime() : ''));
  field(parsed.subject);
  field((parsed.text ?? parsed.html ?? '').replace(/\s+/g, ' ').trim());
  field(parsed.attachments.map((a) => a.sha256).join(','));
  return hash.digest('hex');
}

/** The limits ingest's extractor applies (the defaults): what they skip is settled here. */
const EXTRACTION_LIMITS = resolveLimits({});

/**
 * The outcome of an attachment no extractor reads: not kept by the parser (over
 * LIMITS.maxAttachmentBytes), an image, a format without an extractor. Null for the others,
 * which are extracted after storing.
 */
function settledOutcome(attachment: ParsedAttachment): StoredExtraction | null {
  const { filename, contentType, content } = attachment;
  const settled =
    content.length === 0 && attachment.size > 0
      ? skipped(
          { contentType, format: 'other' },
          `too large (${attachment.size} bytes, not kept by the parser)`,
        )
      : settledWithoutExtracting({ filename, contentType, content }, EXTRACTION_LIMITS);
  return settled && toStoredExtraction(settled);
}

function threadKeys(parsed: ParsedMessage): string[] {
  const keys: string[] = [];
  if (parsed.gmailThreadId) keys.push(`gm:${parsed.gmailThreadId}`);
  if (parsed.outlookThreadIndex) keys.push(`ti:${parsed.outlookThreadIndex}`);
  return keys;
}

// Attachment bytes on demand. The store keeps attachment metadata and extracted text, not
// the bytes: they come from re-parsing the stored raw message, which is the one copy.

import { type Extraction, messagePart } from '../attachments/index.js';
import { MailsiftError } from '../core/errors.js';
import {
  type Db,
  loadRaw,
  type StoredAttachment,
  type StoredExtraction,
  type StoredMessage,
} from '../store/index.js';

export interface AttachmentContent {
  readonly ordinal: number;
  readonly attachment: StoredAttachment;
  readonly content: Buffer;
}

/**
 * Picks an attachment by 0-based ordinal or by filename (exact, then case-insensitive).
 * Throws no_such_item naming `param` when the message has no such attachment.
 */
export function findAttachment(message: StoredMessage, which: string | number, param = 'attachment'): number {
  const count = message.attachments.length;
  if (typeof which === 'number' || /^\d{1,4}$/.test(which)) {
    const ordinal = Number(which);
    if (ordinal < count) return ordinal;
    throw new MailsiftError('no_such_item', `message has no attachment ${ordinal} (it has ${count})`, {
      param,
    });
  }
  const exact = message.attachments.findIndex((a) => a.filename === which);
  if (exact >= 0) return exact;
  const folded = message.attachments.findIndex((a) => a.filename?.toLowerCase() === which.toLowerCase());
  if (folded >= 0) return folded;
  throw new MailsiftError('no_such_item', `message has no attachment named '${which}'`, { param });
}

export function loadAttachmentContent(
  db: Db,
  message: StoredMessage,
  ordinal: number,
): Promise<AttachmentContent> {
  return attachmentFromRaw(message, ordinal, () => loadRaw(db, message.rowid));
}

/** An attachment's bytes cut from its message's original bytes (read only when the ordinal exists). */
export async function attachmentFromRaw(
  message: StoredMessage,
  ordinal: number,
  raw: () => Buffer | Promise<Buffer>,
): Promise<AttachmentContent> {
  const attachment = message.attachments[ordinal];
  if (!attachment) {
    throw new MailsiftError('no_such_item', `message has no attachment ${ordinal}`, {
      param: 'attachmentId',
    });
  }
  const part = await messagePart(
    {
      filename: attachment.filename,
      contentType: attachment.contentType,
      message: await raw(),
      ordinal,
      sha256: attachment.sha256,
    },
    'attachmentId',
  );
  return { ordinal, attachment, content: part.content };
}

/** What the store keeps of an extraction (children are folded into its text already). */
export function toStoredExtraction(extraction: Extraction): StoredExtraction {
  return {
    status: extraction.status,
    reason: extraction.reason,
    format: extraction.format,
    detectedType: extraction.detectedType,
    language: extraction.language ?? null,
    truncated: extraction.truncated,
    text: extraction.text,
    message: extraction.message ?? null,
  };
}

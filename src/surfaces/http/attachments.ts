// Attachment bytes and text for the API. The store keeps attachment metadata only, so the
// bytes come from re-parsing the stored raw message; text comes from the store once it
// keeps extracted text (storedAttachmentText), else from extracting on demand.

import { extractAttachment } from '../../attachments/index.js';
import { MailsiftError } from '../../core/errors.js';
import type { ParsedAttachment } from '../../core/types.js';
import { parseMessage } from '../../parse/index.js';
import { type AttachmentMeta, type Db, loadRaw, type StoredMessage } from '../../store/index.js';

export interface AttachmentContent {
  readonly attachmentId: string;
  readonly meta: AttachmentMeta;
  readonly content: Buffer;
}

/** Parses an attachment id (the 0-based ordinal within its message). */
export function attachmentOrdinal(attachmentId: string): number {
  if (!/^\d{1,4}$/.test(attachmentId)) {
    throw new MailsiftError(
      'invalid_argument',
      `attachmentId '${attachmentId.slice(0, 40)}' is not an attachment number`,
      {
        param: 'attachmentId',
      },
    );
  }
  return Number(attachmentId);
}

export async function loadAttachment(
  db: Db,
  message: StoredMessage,
  attachmentId: string,
): Promise<AttachmentContent> {
  const ordinal = attachmentOrdinal(attachmentId);
  const meta = message.attachments[ordinal];
  if (!meta) {
    throw new MailsiftError(
      'no_such_item',
      `message has no attachment ${ordinal} (it has ${message.attachments.length})`,
      {
        param: 'attachmentId',
      },
    );
  }
  const parsed = await parseMessage(loadRaw(db, message.rowid));
  // Ordinals follow parse order; the hash guards against a parser change reordering parts.
  const part: ParsedAttachment | undefined =
    parsed.attachments[ordinal]?.sha256 === meta.sha256
      ? parsed.attachments[ordinal]
      : parsed.attachments.find((a) => a.sha256 === meta.sha256);
  if (!part) {
    throw new MailsiftError(
      'internal',
      `attachment ${ordinal} could not be found again in the stored message`,
      {
        param: 'attachmentId',
      },
    );
  }
  return { attachmentId: String(ordinal), meta, content: part.content };
}

/**
 * Seam for stored extraction results: ingest extracts attachment text but the store does
 * not keep it yet. When it does, read it here and on-demand extraction stops.
 */
export function storedAttachmentText(_db: Db, _message: StoredMessage, _ordinal: number): string | null {
  return null;
}

/** The attachment's text: stored when available, else extracted now (within the extractor's limits). */
export async function attachmentText(
  db: Db,
  attachment: AttachmentContent,
  message: StoredMessage,
): Promise<string | null> {
  const stored = storedAttachmentText(db, message, Number(attachment.attachmentId));
  if (stored !== null) return stored;
  const extraction = await extractAttachment({
    filename: attachment.meta.filename,
    contentType: attachment.meta.contentType,
    content: attachment.content,
  });
  return extraction.status === 'ok' && extraction.text.trim() !== '' ? extraction.text : null;
}

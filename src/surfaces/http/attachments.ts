// Attachment bytes and text for the API: bytes come from the stored raw message, text
// from the extraction stored at ingest (extracted now only for messages ingested before
// the store kept extractions).

import { extractAttachment } from '../../attachments/index.js';
import { MailsiftError } from '../../core/errors.js';
import { loadAttachmentContent } from '../../pipeline/attachment-content.js';
import type { Db, StoredAttachment, StoredMessage } from '../../store/index.js';

export interface AttachmentContent {
  readonly attachmentId: string;
  readonly meta: StoredAttachment;
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
  const { ordinal, attachment, content } = await loadAttachmentContent(
    db,
    message,
    attachmentOrdinal(attachmentId),
  );
  return { attachmentId: String(ordinal), meta: attachment, content };
}

/** The attachment's extracted text, or null when it has none. */
export async function attachmentText(attachment: AttachmentContent): Promise<string | null> {
  const extraction =
    attachment.meta.extraction ??
    (await extractAttachment({
      filename: attachment.meta.filename,
      contentType: attachment.meta.contentType,
      content: attachment.content,
    }));
  return extraction.status === 'ok' && extraction.text.trim() !== '' ? extraction.text : null;
}

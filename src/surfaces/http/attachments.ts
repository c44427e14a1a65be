// Attachment bytes and text for the API: bytes come from the stored raw message, text
// from the extraction stored at ingest (extracted now only for messages ingested before
// the store kept extractions).

import { extractAttachment } from '../../attachments/index.js';
import { MailsiftError } from '../../core/errors.js';
import { loadAttachmentContent } from '../../pipeline/attachment-content.js';
import type { Db, StoredAttachment, StoredMessage, ThreadView } from '../../store/index.js';

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

/** An attachment of a thread's message, with the message and the attachment's text. */
export interface ThreadAttachment {
  readonly attachment: AttachmentContent;
  readonly message: StoredMessage;
  readonly text: string | null;
}

/** Finds `<ordinal>:<messageId>` among a thread's messages and loads it with `load`. */
export async function threadAttachment(
  thread: ThreadView | Promise<ThreadView>,
  attachmentId: string,
  load: (message: StoredMessage, ordinal: string) => Promise<AttachmentContent>,
): Promise<ThreadAttachment> {
  const colon = attachmentId.indexOf(':');
  const messageId = colon < 0 ? '' : attachmentId.slice(colon + 1);
  const { threadId, entries } = await thread;
  const entry = entries.find((e) => e.message.messageId === messageId.replace(/^<|>$/g, ''));
  if (!entry) {
    throw new MailsiftError(
      'no_such_item',
      `no attachment '${attachmentId.slice(0, 200)}' in thread ${threadId}`,
      {
        param: 'attachmentId',
      },
    );
  }
  const attachment = await load(entry.message, attachmentId.slice(0, colon));
  return { attachment, message: entry.message, text: await attachmentText(attachment) };
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

// The shapes the store writes and reads back: what ingest hands over for one message,
// and the view of a stored message that indexes and surfaces consume.

import type { CleanedBody, MessageEnvelope, ParsedAttachment } from '../core/types.js';
import type { StoredExtraction } from './attachment-texts.js';

export type AttachmentMeta = Omit<ParsedAttachment, 'content'>;

/** A stored attachment: its metadata and, once extracted, its text (shared by content hash). */
export interface StoredAttachment extends AttachmentMeta {
  readonly extraction: StoredExtraction | null;
}

/** One parsed and cleaned message, ready to store (built off the main thread during ingest). */
export interface PreparedMessage extends MessageEnvelope {
  readonly rawSha256: string;
  readonly rawSize: number;
  readonly rawDeflated: Buffer;
  /** Message-ID from the headers, normalised; null when missing or unusable. */
  readonly headerMessageId: string | null;
  /** Hash of the main headers and the body: dedupe key without a Message-ID, variant detector with one. */
  readonly contentHash: string;
  readonly threadKeys: readonly string[];
  readonly headerLabels: readonly string[];
  readonly attachments: readonly AttachmentMeta[];
  /** Attachments whose text is still to be extracted (content kept only for those). */
  readonly toExtract: readonly ExtractionRequest[];
  /** The CleanedBody as deflated JSON (what the store keeps; not sent twice from the worker). */
  readonly bodyDeflated: Buffer;
  /** Work an index did in the prepare worker, keyed by its IndexHook name (plain data). */
  readonly precomputed: Readonly<Record<string, unknown>>;
}

/** An attachment handed to text extraction, or one whose outcome is known without it (images, oversized). */
export interface ExtractionRequest {
  readonly sha256: string;
  readonly filename: string | null;
  readonly contentType: string;
  readonly content: Buffer;
  readonly known: StoredExtraction | null;
}

/** A stored message as indexes and surfaces see it. */
export interface StoredMessage extends MessageEnvelope {
  readonly rowid: number;
  readonly inboxId: number;
  readonly inbox: string;
  readonly messageId: string;
  readonly headerMessageId: string | null;
  readonly variantOf: string | null;
  readonly threadId: string;
  readonly labels: readonly string[];
  readonly folders: readonly string[];
  readonly attachments: readonly StoredAttachment[];
  readonly cleaned: CleanedBody;
}

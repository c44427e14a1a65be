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
  /**
   * Outcomes of the attachments no extractor reads (oversized, images, unknown formats),
   * by content hash. The others are extracted after storing, from the stored raw bytes,
   * so no attachment bytes travel with the prepared message.
   */
  readonly settled: ReadonlyArray<readonly [sha256: string, extraction: StoredExtraction]>;
  /** The CleanedBody as deflated JSON (what the store keeps; not sent twice from the worker). */
  readonly bodyDeflated: Buffer;
  /** Work an index did in the prepare worker, keyed by its IndexHook name (plain data). */
  readonly precomputed: Readonly<Record<string, unknown>>;
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

// Builds ParsedAttachment records with the size limit applied in one place, for parts decoded
// by mailparser and for parts decoded by the fallback walk alike.

import { createHash } from 'node:crypto';
import { LIMITS } from '../core/limits.js';
import type { ParsedAttachment } from '../core/types.js';

export interface AttachmentMeta {
  readonly filename: string | null;
  readonly contentType: string;
  /** Content-ID as written, brackets and all, or null. */
  readonly contentId: string | null;
  readonly disposition: string | null;
}

/**
 * Finishes an attachment. `content` is null when the part was larger than
 * LIMITS.maxAttachmentBytes and its bytes were not kept; size and sha256 still describe the
 * whole decoded part, so a duplicate is recognisable even without its bytes.
 */
export function makeAttachment(
  meta: AttachmentMeta,
  content: Buffer | null,
  size: number,
  sha256: string,
): ParsedAttachment {
  const contentId = meta.contentId?.trim().replace(/^<|>$/g, '').trim() || null;
  return {
    filename: meta.filename?.trim() || null,
    contentType: meta.contentType.toLowerCase(),
    size,
    contentId,
    inline: meta.disposition?.toLowerCase() === 'inline' && contentId !== null,
    sha256,
    content: content ?? Buffer.alloc(0),
  };
}

/** An attachment from fully decoded bytes (the fallback walk), with the size limit applied. */
export function attachmentFromBytes(meta: AttachmentMeta, bytes: Buffer): ParsedAttachment {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return makeAttachment(meta, bytes.length > LIMITS.maxAttachmentBytes ? null : bytes, bytes.length, sha256);
}

export function oversizeWarning(attachment: ParsedAttachment): string {
  return `attachment: ${attachment.filename ?? attachment.contentType} is ${attachment.size} bytes, over ${LIMITS.maxAttachmentBytes}; content not kept`;
}

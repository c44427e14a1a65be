// Outcomes decided by sniffing alone: an attachment too large, an image or a format with no
// extractor is skipped without one. Light on imports (no pdf.js, no mammoth) so the parser
// worker settles these while parsing and never hands their bytes on.

import type { ExtractionLimits } from './limits.js';
import { skipped } from './outcome.js';
import { isCompoundFile, type SniffedType, sniffType } from './sniff.js';
import type { AttachmentFormat, AttachmentInput, Extraction } from './types.js';

/** Formats with an extractor (extract.ts keeps one handler for each). */
export type ExtractableFormat = Exclude<AttachmentFormat, 'image' | 'other'>;

export function sniffSafely(input: AttachmentInput): SniffedType {
  try {
    return sniffType(input.content, input.contentType, input.filename);
  } catch {
    return { contentType: 'application/octet-stream', format: 'other' };
  }
}

const isEncryptedOffice = (content: Buffer): boolean =>
  isCompoundFile(content) && content.includes(Buffer.from('EncryptionInfo', 'utf16le'));

/**
 * The outcome for an attachment of sniffed `type` that needs no extractor, or the format
 * whose extractor it needs.
 */
export function settle(
  input: AttachmentInput,
  type: SniffedType,
  limits: ExtractionLimits,
): Extraction | ExtractableFormat {
  const size = input.content.length;
  if (size > limits.maxBytes) return skipped(type, `too large (${size} bytes, limit ${limits.maxBytes})`);
  if (type.format === 'image') return skipped(type, 'image (no OCR)');
  if (type.format === 'other')
    return skipped(type, isEncryptedOffice(input.content) ? 'encrypted' : 'unsupported format');
  return type.format;
}

/** The outcome of an attachment no extractor reads, or null when it has to be extracted. */
export function settledWithoutExtracting(
  input: AttachmentInput,
  limits: ExtractionLimits,
): Extraction | null {
  const settled = settle(input, sniffSafely(input), limits);
  return typeof settled === 'string' ? null : settled;
}

// Attachment extraction: sniff the real type of an attachment, extract its text within
// size, time, text and zip limits, and report ok / skipped / failed with the reason.
import { type ExtractionLimits, resolveLimits } from './limits.js';
import { createExtractor, type Extractor } from './pool.js';
import type { AttachmentInput, Extraction } from './types.js';

export { DEFAULT_EXTRACTION_LIMITS, type ExtractionLimits, resolveLimits } from './limits.js';
export { messagePart } from './part-bytes.js';
export { createExtractor, type Extractor, type ExtractorOptions } from './pool.js';
export { type SniffedType, sniffType } from './sniff.js';
export type {
  AttachmentFormat,
  AttachmentInput,
  Extraction,
  ExtractionChild,
  ExtractionStatus,
  MessagePartInput,
  NestedMessageHeaders,
} from './types.js';

let shared: Extractor | null = null;

/**
 * Extracts one attachment through a process-wide extractor whose idle workers do not keep
 * the process alive. Ingest should hold its own createExtractor() for the run instead.
 */
export function extractAttachment(
  input: AttachmentInput,
  options: Partial<ExtractionLimits> = {},
): Promise<Extraction> {
  resolveLimits(options);
  shared ??= createExtractor();
  return shared.extract(input, options);
}

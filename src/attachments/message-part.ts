// The bytes of one attachment read back from its raw message, for extraction in the thread
// that parses it: the store keeps only the raw message, never the attachment bytes.
import { describeError } from '../core/errors.js';
import { extractInline } from './extract.js';
import type { ExtractionLimits } from './limits.js';
import { failed } from './outcome.js';
import { messagePart } from './part-bytes.js';
import { sniffType } from './sniff.js';
import type { AttachmentInput, Extraction, MessagePartInput } from './types.js';

/** Extracts one attachment of a raw message on the calling thread. Never rejects. */
export async function extractMessagePart(
  input: MessagePartInput,
  limits: ExtractionLimits,
): Promise<Extraction> {
  let part: AttachmentInput;
  try {
    part = await messagePart(input);
  } catch (error) {
    return failed(sniffType(Buffer.alloc(0), input.contentType, input.filename), describeError(error));
  }
  return extractInline(part, limits);
}

// The bytes of one attachment read back from its raw message, for extraction in the thread
// that parses it: the store keeps only the raw message, never the attachment bytes.
import { describeError, MailsiftError } from '../core/errors.js';
import { parseMessage } from '../parse/index.js';
import { extractInline } from './extract.js';
import type { ExtractionLimits } from './limits.js';
import { failed } from './outcome.js';
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

/**
 * Parses `input.message` and returns the attachment as an AttachmentInput. Throws
 * no_such_item when the message has no such part or kept none of its bytes (over the
 * parser's size limit).
 */
export async function messagePart(input: MessagePartInput): Promise<AttachmentInput> {
  const { attachments } = await parseMessage(input.message);
  // Ordinals follow parse order; the hash guards against a parser change reordering parts.
  const atOrdinal = attachments[input.ordinal];
  const part =
    atOrdinal?.sha256 === input.sha256 ? atOrdinal : attachments.find((a) => a.sha256 === input.sha256);
  if (!part) {
    throw new MailsiftError('no_such_item', `the message has no attachment ${input.ordinal} with that hash`, {
      param: 'ordinal',
    });
  }
  if (part.content.length === 0 && part.size > 0) {
    throw new MailsiftError(
      'no_such_item',
      `the bytes of attachment ${input.ordinal} are not kept (over the size limit)`,
      { param: 'ordinal' },
    );
  }
  return { filename: input.filename, contentType: input.contentType, content: part.content };
}

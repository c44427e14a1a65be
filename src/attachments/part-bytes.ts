// One attachment's bytes read back from its raw message (the store keeps only the raw
// message). Light on purpose: the main thread serves attachment bytes without loading
// the extractors.
import { MailsiftError } from '../core/errors.js';
import { parseMessage } from '../parse/index.js';
import type { AttachmentInput, MessagePartInput } from './types.js';

/**
 * Parses `input.message` and returns the attachment as an AttachmentInput. Throws
 * no_such_item naming `param` when the message has no such part or kept none of its
 * bytes (over the parser's size limit).
 */
export async function messagePart(input: MessagePartInput, param = 'ordinal'): Promise<AttachmentInput> {
  const { attachments } = await parseMessage(input.message);
  // Ordinals follow parse order; the hash guards against a parser change reordering parts.
  const atOrdinal = attachments[input.ordinal];
  const part =
    atOrdinal?.sha256 === input.sha256 ? atOrdinal : attachments.find((a) => a.sha256 === input.sha256);
  if (!part) {
    throw new MailsiftError('no_such_item', `the message has no attachment ${input.ordinal} with that hash`, {
      param,
    });
  }
  if (part.content.length === 0 && part.size > 0) {
    throw new MailsiftError(
      'no_such_item',
      `the bytes of attachment ${input.ordinal} are not kept (over the size limit)`,
      { param },
    );
  }
  return { filename: input.filename, contentType: input.contentType, content: part.content };
}

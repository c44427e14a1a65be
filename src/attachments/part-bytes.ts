// One attachment's bytes read back from its raw message (the store keeps only the raw
// message). Light on purpose: the main thread serves attachment bytes without loading
// the extractors.
import { createHash } from 'node:crypto';
import { MailsiftError } from '../core/errors.js';
import { LIMITS } from '../core/limits.js';
import { isBodyLeaf, leafContent, parseMessage, walkMime } from '../parse/index.js';
import type { AttachmentInput, MessagePartInput } from './types.js';

/**
 * Returns attachment `input.ordinal` of `input.message` as an AttachmentInput. Throws
 * no_such_item naming `param` when the message has no such part or kept none of its
 * bytes (over the parser's size limit).
 */
export async function messagePart(input: MessagePartInput, param = 'ordinal'): Promise<AttachmentInput> {
  const content = hashedLeaf(input) ?? (await parsedPart(input, param));
  return { filename: input.filename, contentType: input.contentType, content };
}

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/**
 * The part found by walking the raw MIME structure and decoding its leaves, the attachment at
 * the ordinal first, until one has the stored hash: a fraction of a full parse
 * (mailparser streams and re-encodes every part; for a message carrying a 200 KB PDF that
 * was ~3 ms of the drain's ~20 ms per PDF in its extractor thread). The hash makes the
 * bytes those the parser stored; null sends the caller to the parser (a part it decodes
 * differently, or bytes over the limit, which the parser reports).
 */
function hashedLeaf(input: MessagePartInput): Buffer | null {
  const leaves = walkMime(input.message).leaves;
  // Named body text is an attachment to the parser too, so every leaf is a candidate.
  const atOrdinal = leaves.filter((leaf) => !isBodyLeaf(leaf))[input.ordinal];
  const ordered = atOrdinal ? [atOrdinal, ...leaves.filter((leaf) => leaf !== atOrdinal)] : leaves;
  for (const leaf of ordered) {
    const content = leafContent(input.message, leaf);
    if (content.length <= LIMITS.maxAttachmentBytes && sha256(content) === input.sha256) return content;
  }
  return null;
}

async function parsedPart(input: MessagePartInput, param: string): Promise<Buffer> {
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
  return part.content;
}

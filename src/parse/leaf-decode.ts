// Decoding of walked MIME leaves, for the two cases mailparser cannot handle alone: body parts
// whose charset label is wrong (repaired by rewriting the part as UTF-8 and parsing again, so
// mailparser's body rules still decide what is text), and structures too hostile to hand to it.

import type { ParsedAttachment } from '../core/types.js';
import { attachmentFromBytes, oversizeWarning } from './attachments.js';
import { decodeDeclared } from './charset.js';
import { isBodyLeaf, leafContent, type MimeLeaf } from './mime-walk.js';

export interface RepairedMessage {
  readonly bytes: Buffer;
  readonly warnings: readonly string[];
}

function quoteParam(value: string): string {
  return /^[\w.+-]+$/.test(value) ? value : `"${value.replace(/["\\]/g, '\\$&')}"`;
}

/** The leaf rewritten as base64 UTF-8, its other headers (and Content-Type parameters) kept. */
function rewriteLeaf(leaf: MimeLeaf, text: string): Buffer {
  const params = [...leaf.params]
    .filter(([name, value]) => name !== 'charset' && !/[^\x20-\x7e]/.test(value))
    .map(([name, value]) => `; ${name}=${quoteParam(value)}`)
    .join('');
  const kept = leaf.fields
    .filter((field) => field.name !== 'content-type' && field.name !== 'content-transfer-encoding')
    .map((field) => field.raw);
  const base64 = Buffer.from(text, 'utf8').toString('base64').replace(/.{76}/g, '$&\r\n');
  const head = [...kept, `Content-Type: ${leaf.contentType}; charset=utf-8${params}`];
  return Buffer.from([...head, 'Content-Transfer-Encoding: base64', '', base64].join('\r\n'), 'latin1');
}

/**
 * Rewrites every body part that its declared charset (or the UTF-8 default) cannot decode.
 * Returns null when no part needed it: the U+FFFD that triggered the check was really sent.
 */
export function repairBodyCharsets(bytes: Buffer, leaves: readonly MimeLeaf[]): RepairedMessage | null {
  const pieces: Buffer[] = [];
  const warnings: string[] = [];
  let offset = 0;
  for (const leaf of leaves) {
    if (!isBodyLeaf(leaf)) continue;
    const declared = leaf.params.get('charset') ?? null;
    const repaired = decodeDeclared(leafContent(bytes, leaf), declared);
    if (repaired.usedCharset === null) continue;
    warnings.push(
      `charset: ${leaf.contentType} body declared ${declared ?? 'no charset'} decoded as ${repaired.usedCharset}`,
    );
    pieces.push(bytes.subarray(offset, leaf.start), rewriteLeaf(leaf, repaired.text));
    offset = leaf.end;
  }
  if (pieces.length === 0) return null;
  pieces.push(bytes.subarray(offset));
  return { bytes: Buffer.concat(pieces), warnings };
}

export interface LeafBody {
  readonly text: string | null;
  readonly html: string | null;
  readonly attachments: readonly ParsedAttachment[];
  readonly warnings: readonly string[];
}

function field(leaf: MimeLeaf, name: string): string | null {
  return leaf.fields.find((entry) => entry.name === name)?.value ?? null;
}

/** Body and attachments straight from walked leaves, for messages mailparser must not parse whole. */
export function decodeLeaves(bytes: Buffer, leaves: readonly MimeLeaf[]): LeafBody {
  const text: string[] = [];
  const html: string[] = [];
  const attachments: ParsedAttachment[] = [];
  const warnings: string[] = [];
  for (const leaf of leaves) {
    const content = leafContent(bytes, leaf);
    if (isBodyLeaf(leaf)) {
      const declared = leaf.params.get('charset') ?? null;
      const decoded = decodeDeclared(content, declared);
      if (decoded.usedCharset !== null) {
        warnings.push(
          `charset: ${leaf.contentType} body declared ${declared ?? 'no charset'} decoded as ${decoded.usedCharset}`,
        );
      }
      (leaf.contentType === 'text/html' ? html : text).push(decoded.text);
      continue;
    }
    const attachment = attachmentFromBytes(
      {
        filename: leaf.dispositionParams.get('filename') ?? leaf.params.get('name') ?? null,
        contentType: leaf.contentType,
        contentId: field(leaf, 'content-id'),
        disposition: leaf.disposition,
      },
      content,
    );
    if (attachment.size > 0 && attachment.content.length === 0) warnings.push(oversizeWarning(attachment));
    attachments.push(attachment);
  }
  return {
    text: text.length > 0 ? text.join('\n') : null,
    html: html.length > 0 ? html.join('\n') : null,
    attachments,
    warnings,
  };
}

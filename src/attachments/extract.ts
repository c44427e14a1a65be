// The in-process extractor: sniff the type, apply the size limit, run the format's
// handler, then cut the text and detect its language. Never throws for bad content.
// The pool runs this inside a worker so a runaway file can be killed.
import { detectLanguage } from '../analysis/index.js';
import { htmlToText } from '../clean/index.js';
import { describeError } from '../core/errors.js';
import { extractIcs, extractVcard } from './calendar.js';
import { extractMessage, extractTnef, extractZip } from './containers.js';
import { decodeText, htmlMetaCharset } from './decode-text.js';
import type { ExtractionLimits } from './limits.js';
import { extractOdf } from './odf.js';
import { extractDocx, extractPptx, extractXlsx } from './ooxml.js';
import { failed, skipped } from './outcome.js';
import { extractPdf } from './pdf.js';
import { rtfToText } from './rtf.js';
import { type ExtractableFormat, settle, sniffSafely } from './settle.js';
import type { AttachmentInput, ExtractContext, Extraction, FormatResult } from './types.js';
import { SkipExtraction } from './types.js';

type Handler = (content: Buffer, context: ExtractContext) => FormatResult | Promise<FormatResult>;

const textOf = (content: Buffer, context: ExtractContext): string =>
  decodeText(content, context.declaredType);

const HANDLERS: Record<ExtractableFormat, Handler> = {
  pdf: extractPdf,
  docx: extractDocx,
  xlsx: extractXlsx,
  pptx: extractPptx,
  odt: extractOdf,
  ods: extractOdf,
  odp: extractOdf,
  rtf: (content, context) => rtfToText(content, context.limits.maxTextChars),
  html: (content, context) => ({
    text: htmlToText(decodeText(content, context.declaredType, htmlMetaCharset(content))).trim(),
  }),
  text: (content, context) => ({ text: textOf(content, context) }),
  csv: (content, context) => ({ text: textOf(content, context) }),
  markdown: (content, context) => ({ text: textOf(content, context) }),
  ics: (content, context) => extractIcs(textOf(content, context)),
  vcard: (content, context) => extractVcard(textOf(content, context)),
  message: extractMessage,
  zip: extractZip,
  tnef: extractTnef,
};

/** Password-protected OOXML is an OLE compound file holding an "EncryptionInfo" stream (MS-OFFCRYPTO 2.3.4). */
/** Cuts text at max characters without splitting a surrogate pair. */
function cut(text: string, max: number): string {
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return text.slice(0, end);
}

/** Extracts one attachment on the calling thread. `depth` counts the containers around it. */
export async function extractInline(
  input: AttachmentInput,
  limits: ExtractionLimits,
  depth = 0,
): Promise<Extraction> {
  const type = sniffSafely(input);
  const settled = settle(input, type, limits);
  if (typeof settled !== 'string') return settled;
  const handler = HANDLERS[settled];
  const context: ExtractContext = {
    limits,
    depth,
    declaredType: input.contentType,
    extractChild: (child, childLimits) => extractInline(child, childLimits, depth + 1),
  };
  let result: FormatResult;
  try {
    result = await handler(input.content, context);
  } catch (error) {
    if (error instanceof SkipExtraction) return skipped(type, error.reason);
    return failed(type, describeError(error));
  }
  const truncated = (result.truncated ?? false) || result.text.length > limits.maxTextChars;
  const text = truncated ? cut(result.text, limits.maxTextChars) : result.text;
  const extraction: Extraction = {
    status: 'ok',
    reason: null,
    detectedType: type.contentType,
    format: type.format,
    text,
    language: text.trim() ? detectLanguage(text) : null,
    truncated,
  };
  if (result.children) extraction.children = result.children;
  if (result.message) extraction.message = result.message;
  return extraction;
}

// The shapes of attachment extraction: what goes in, what comes out, and the context a
// format handler receives so containers (zip, message, TNEF) can extract their children.
import type { Address } from '../core/types.js';
import type { ExtractionLimits } from './limits.js';

/** ok: text extracted (maybe empty, e.g. a scanned PDF); skipped: not attempted, see reason; failed: attempted and broke. */
export type ExtractionStatus = 'ok' | 'skipped' | 'failed';

export type AttachmentFormat =
  | 'pdf'
  | 'docx'
  | 'xlsx'
  | 'pptx'
  | 'odt'
  | 'ods'
  | 'odp'
  | 'rtf'
  | 'html'
  | 'text'
  | 'csv'
  | 'markdown'
  | 'ics'
  | 'vcard'
  | 'message'
  | 'zip'
  | 'tnef'
  | 'image'
  | 'other';

export interface AttachmentInput {
  /** Decoded filename (RFC 2231), or null when the part has none. */
  filename: string | null;
  /** Declared Content-Type, parameters allowed (a charset parameter is honoured for text). */
  contentType: string;
  content: Buffer;
}

/**
 * An attachment still inside its message: the extractor parses the raw message where the
 * extraction runs (a worker thread), so the caller's thread never decodes the MIME tree.
 */
export interface MessagePartInput {
  filename: string | null;
  contentType: string;
  /** The whole raw RFC 5322 message. */
  message: Buffer;
  /** 0-based position among the parsed message's attachments. */
  ordinal: number;
  /** sha256 (hex) of the decoded part, which picks it if a parser change reorders parts. */
  sha256: string;
}

/** Headers of a nested message/rfc822 attachment, searchable as attachment metadata. */
export interface NestedMessageHeaders {
  subject: string;
  from: Address | null;
  to: Address[];
  /** ISO 8601, or null when the nested message carries no usable date. */
  date: string | null;
}

export interface ExtractionChild {
  /** Entry path inside a zip, or the filename of a message's / TNEF's attachment. */
  name: string;
  extraction: Extraction;
}

/**
 * The result of extracting one attachment. Plain data (structured-clone and JSON safe), so
 * it crosses the worker boundary and can be stored as is.
 *
 * Reasons are short and start with a stable keyword: 'too large …', 'timeout after N ms',
 * 'encrypted', 'unsupported format', 'image (no OCR)', 'zip bomb …', 'zip depth limit',
 * 'zip entry limit', 'zip size limit', 'tnef not supported', 'worker crashed …', or the
 * library's error message for failures.
 */
export interface Extraction {
  status: ExtractionStatus;
  reason: string | null;
  /** The sniffed MIME type, e.g. 'application/pdf' even when declared as octet-stream. */
  detectedType: string;
  format: AttachmentFormat;
  /** Extracted text; for containers, the children's text too, each under a `== name ==` line. */
  text: string;
  /** Language of `text` (from analysis.detectLanguage), null when unknown or no text. */
  language?: string | null;
  /** True when text was cut at maxTextChars or a container stopped at a limit. */
  truncated: boolean;
  /** Zip entries, a nested message's attachments, or a TNEF's inner files. */
  children?: ExtractionChild[];
  /** Headers of a nested message/rfc822. */
  message?: NestedMessageHeaders;
}

/** What a format handler returns; the dispatcher adds status, type, language and truncation. */
export interface FormatResult {
  text: string;
  truncated?: boolean;
  children?: ExtractionChild[];
  message?: NestedMessageHeaders;
}

/** Thrown by a handler to mark the attachment skipped (not failed), e.g. an encrypted file. */
export class SkipExtraction extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'SkipExtraction';
  }
}

/** Handed to every format handler. */
export interface ExtractContext {
  readonly limits: ExtractionLimits;
  /** Container depth of this attachment: 0 for a mail attachment, 1 inside a zip, … */
  readonly depth: number;
  /** Declared Content-Type of the attachment (with parameters). */
  readonly declaredType: string;
  /** Extracts a child found inside a container, one level deeper. */
  extractChild(input: AttachmentInput, limits: ExtractionLimits): Promise<Extraction>;
}

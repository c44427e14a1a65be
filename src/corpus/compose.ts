// Assembles one RFC 5322 message from a MessageSpec with string templates: single part,
// multipart/alternative, or multipart/mixed with attachments. Used by the bulk generator and
// by the hand-written sample, so both produce the same well-formed structure.

import {
  type Charset,
  encodeBytes,
  encodeText,
  encodeWords,
  formatMailbox,
  formatMailboxList,
  formatRfc5322Date,
  isAscii,
  type Mailbox,
  type TransferEncoding,
} from './encode.js';

export interface AttachmentSpec {
  readonly filename: string;
  readonly contentType: string;
  readonly content: Buffer;
  /** Pre-wrapped base64 of `content` as bytes, when the caller caches it (bulk generation). */
  readonly base64?: Buffer;
  /** 'inline' for images shown in the HTML; attachments otherwise. */
  readonly disposition?: 'attachment' | 'inline';
}

export interface MessageSpec {
  readonly from: Mailbox;
  readonly to: readonly Mailbox[];
  readonly cc?: readonly Mailbox[];
  readonly replyTo?: Mailbox;
  readonly subject: string;
  readonly date: Date;
  /** Sender's zone, minutes east of UTC, for the Date header. */
  readonly tzOffset: number;
  /** Without angle brackets; null leaves the header out. */
  readonly messageId: string | null;
  readonly inReplyTo?: string | null;
  readonly references?: readonly string[];
  readonly charset: Charset;
  readonly transferEncoding: TransferEncoding;
  /** RFC 2047 flavour for a non-ASCII subject. */
  readonly subjectEncoding?: 'B' | 'Q';
  readonly text: string | null;
  readonly html: string | null;
  readonly attachments?: readonly AttachmentSpec[];
  /** Unique per message; multipart boundaries derive from it. */
  readonly boundary: string;
  /** Complete header lines placed before From (Return-Path, Received, Authentication-Results, DKIM). */
  readonly trace?: readonly string[];
  /** Complete header lines placed after the standard ones (X-Mailer, List-Id, X-GM-THRID...). */
  readonly extra?: readonly string[];
}

/**
 * Builds the message bytes. Lines end in LF, as Maildir and mbox files store them.
 * Headers are ASCII strings, bodies stay Buffers from encoding to the final concat: each byte
 * is copied once more at the end, not converted back and forth through strings.
 */
export function composeMessage(spec: MessageSpec): Buffer {
  const chunks: Buffer[] = [];
  let head = spec.trace && spec.trace.length > 0 ? `${spec.trace.join('\n')}\n` : '';
  head += `From: ${formatMailbox(spec.from, spec.charset)}\n`;
  if (spec.to.length > 0) head += `To: ${formatMailboxList(spec.to, spec.charset)}\n`;
  if (spec.cc && spec.cc.length > 0) head += `Cc: ${formatMailboxList(spec.cc, spec.charset)}\n`;
  if (spec.replyTo) head += `Reply-To: ${formatMailbox(spec.replyTo, spec.charset)}\n`;
  head += `Subject: ${encodeWords(spec.subject, spec.charset, spec.subjectEncoding ?? 'B')}\n`;
  head += `Date: ${formatRfc5322Date(spec.date, spec.tzOffset)}\n`;
  if (spec.messageId !== null) head += `Message-ID: <${spec.messageId}>\n`;
  if (spec.inReplyTo) head += `In-Reply-To: <${spec.inReplyTo}>\n`;
  if (spec.references && spec.references.length > 0)
    head += `References: ${spec.references.map((r) => `<${r}>`).join('\n ')}\n`;
  head += 'MIME-Version: 1.0\n';
  if (spec.extra && spec.extra.length > 0) head += `${spec.extra.join('\n')}\n`;

  const attachments = spec.attachments ?? [];
  if (attachments.length === 0) {
    chunks.push(Buffer.from(head, 'latin1'));
    bodyEntity(spec, chunks);
  } else {
    const b = `${spec.boundary}mix`;
    chunks.push(Buffer.from(`${head}Content-Type: multipart/mixed; boundary="${b}"\n\n--${b}\n`, 'latin1'));
    bodyEntity(spec, chunks);
    for (const a of attachments) {
      chunks.push(Buffer.from(`\n--${b}\n`, 'latin1'));
      attachmentEntity(a, chunks);
    }
    chunks.push(Buffer.from(`\n--${b}--\n`, 'latin1'));
  }
  return Buffer.concat(chunks);
}

/** Appends the text/html part(s) as one entity: headers, a blank line, the encoded body. */
function bodyEntity(spec: MessageSpec, chunks: Buffer[]): void {
  if (spec.text !== null && spec.html !== null) {
    const b = `${spec.boundary}alt`;
    chunks.push(Buffer.from(`Content-Type: multipart/alternative; boundary="${b}"\n\n--${b}\n`, 'latin1'));
    textPart('plain', spec.text, spec, chunks);
    chunks.push(Buffer.from(`\n--${b}\n`, 'latin1'));
    textPart('html', spec.html, spec, chunks);
    chunks.push(Buffer.from(`\n--${b}--\n`, 'latin1'));
  } else if (spec.html !== null) textPart('html', spec.html, spec, chunks);
  else textPart('plain', spec.text ?? '', spec, chunks);
}

const NEWLINE = Buffer.from('\n');

function textPart(subtype: 'plain' | 'html', content: string, spec: MessageSpec, chunks: Buffer[]): void {
  const bytes = encodeText(content, spec.charset);
  // UTF-8 is ASCII exactly when it has one byte per UTF-16 unit; other charsets need a scan.
  const ascii = spec.charset === 'utf-8' ? bytes.length === content.length : isAscii(content);
  // A pure-ASCII body needs no transfer encoding whatever the message uses elsewhere, unless
  // a line is longer than RFC 5322's 998 bytes (one-line HTML), which only QP/base64 can carry.
  let cte = ascii && spec.transferEncoding !== 'base64' ? '7bit' : spec.transferEncoding;
  // An ASCII line is as many bytes as characters; elsewhere a character may take 3 bytes.
  if ((cte === '7bit' || cte === '8bit') && hasLongLine(content, ascii ? 998 : 330)) cte = 'quoted-printable';
  const encoded = encodeBytes(bytes, cte);
  chunks.push(
    Buffer.from(
      `Content-Type: text/${subtype}; charset="${spec.charset}"\nContent-Transfer-Encoding: ${cte}\n\n`,
      'latin1',
    ),
    encoded,
  );
  if (encoded.length === 0 || encoded[encoded.length - 1] !== 0x0a) chunks.push(NEWLINE);
}

function hasLongLine(text: string, max: number): boolean {
  let from = 0;
  for (;;) {
    const nl = text.indexOf('\n', from);
    if ((nl < 0 ? text.length : nl) - from > max) return true;
    if (nl < 0) return false;
    from = nl + 1;
  }
}

function attachmentEntity(a: AttachmentSpec, chunks: Buffer[]): void {
  const disposition = a.disposition ?? 'attachment';
  if (a.contentType === 'message/rfc822') {
    chunks.push(
      Buffer.from(`Content-Type: message/rfc822\nContent-Disposition: ${disposition}\n\n`, 'latin1'),
      a.content,
    );
    return;
  }
  const name = isAscii(a.filename) ? `name="${a.filename}"` : `name="${encodeWords(a.filename, 'utf-8')}"`;
  const filename = isAscii(a.filename)
    ? `filename="${a.filename}"`
    : `filename*=utf-8''${encodeURIComponent(a.filename)}`;
  chunks.push(
    Buffer.from(
      `Content-Type: ${a.contentType}; ${name}\nContent-Disposition: ${disposition}; ${filename}\nContent-Transfer-Encoding: base64\n\n`,
      'latin1',
    ),
    a.base64 ?? encodeBytes(a.content, 'base64'),
  );
}

// The common message shape decoded directly: text/plain and text/html parts and attachments,
// all plainly labelled, no embedded messages. It gives what run-mailparser.ts gives, without
// mailparser's stream machinery (~40% of a parse); any other shape goes to mailparser.

import type { Headers } from 'mailparser';
import { MailParser } from 'mailparser';
import type { ParsedAttachment } from '../core/types.js';
import { attachmentFromBytes, oversizeWarning } from './attachments.js';
import { isBodyLeaf, leafContent, type MimeLeaf, type MimeTree, type RawField } from './mime-walk.js';
import { bodyText, type MimeResult } from './run-mailparser.js';

/** A header line as mailsplit hands it to mailparser: lowercased key, folded line as written. */
interface HeaderLine {
  key: string;
  line: string;
}

/**
 * mailparser's own decoding, internals of a MailParser: its headers (encoded words, addresses),
 * and libmime's charset table, which decodes a body for it (through the same libmime.decode
 * that an encoded word's payload goes to).
 */
interface MailparserDecoder {
  processHeaders(lines: readonly HeaderLine[]): Headers;
  readonly libmime: {
    decodeWord(charset: string, encoding: 'B', base64: string): string;
    detectMimeType(filename: string): string | false;
  };
}

/** The headers parseMessage reads from mailparser; the others it reads from the raw block. */
const DECODED_HEADERS = new Set(['subject', 'from', 'to', 'cc', 'bcc', 'reply-to']);

/**
 * A Content-Type whose parameters every parser reads alike: no comments, quoted-pairs, encoded
 * words or RFC 2231 sections, which mailsplit and the walk each interpret in their own way.
 */
const PLAIN_PARAMS = String.raw`(?:\s*;\s*[a-z0-9_-]+=(?:"[^"\\()?*\r\n]*"|[^\s;"()\\?*]+))*\s*;?$`;
const PLAIN_CONTENT_TYPE = new RegExp(
  String.raw`^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+${PLAIN_PARAMS}`,
  'i',
);
const PLAIN_DISPOSITION = new RegExp(`^(?:inline|attachment)${PLAIN_PARAMS}`, 'i');
/** A Content-ID of printable ASCII: no encoded words for the header decoding to change. */
const PLAIN_CONTENT_ID = /^[\x21-\x7e]+$/;
const TRANSFER_ENCODINGS = new Set(['7bit', '8bit', 'binary', 'quoted-printable', 'base64']);
/** Charsets mailparser takes as UTF-8 and does not convert (its own normalisation of the name). */
const UTF8_CHARSETS = new Set(['ascii', 'usascii', 'utf8']);
/** A charset name without the RFC 2231 language tag or anything else libmime reads specially. */
const PLAIN_CHARSET = /^[\w.:-]+$/;
/** Base64 that any decoder reads alike: padding only at the end. */
const PLAIN_BASE64 = /^[A-Za-z0-9+/\r\n]*={0,2}[\r\n]*$/;

/**
 * Largest message decoded here. The decode holds each part whole, in several copies at once
 * (latin1 text, decoded bytes), where mailparser streams them and keeps no attachment over
 * LIMITS.maxAttachmentBytes: a 64 MB message could exhaust a prepare worker's capped heap
 * here and not there. Mail this large is rare; its parse time is in its bytes anyway.
 */
const MAX_SIMPLE_BYTES = 4 * 1024 * 1024;

let decoder: MailparserDecoder | undefined;

function mailparser(): MailparserDecoder {
  decoder ??= new MailParser() as unknown as MailparserDecoder;
  return decoder;
}

const fieldCount = (fields: readonly RawField[], name: string): number =>
  fields.reduce((n, field) => (field.name === name ? n + 1 : n), 0);

/** A field given at most once, in the plain form. */
function plainField(fields: readonly RawField[], name: string, plain: (value: string) => boolean): boolean {
  const field = fields.find((entry) => entry.name === name);
  return field === undefined || (plain(field.value) && fieldCount(fields, name) === 1);
}

/**
 * The entity's structural headers are each given once, in the plain form. Without a
 * Content-Type it has no Content-Disposition either: mailsplit would guess the type from
 * the file name where the walk reads text/plain.
 */
function plainEntity(fields: readonly RawField[]): boolean {
  const typed = fields.some((field) => field.name === 'content-type');
  return (
    plainField(fields, 'content-type', (value) => PLAIN_CONTENT_TYPE.test(value)) &&
    plainField(fields, 'content-transfer-encoding', (value) => TRANSFER_ENCODINGS.has(value.toLowerCase())) &&
    plainField(fields, 'content-disposition', (value) => typed && PLAIN_DISPOSITION.test(value)) &&
    plainField(fields, 'content-id', (value) => PLAIN_CONTENT_ID.test(value))
  );
}

const leafCharset = (leaf: MimeLeaf): string => leaf.params.get('charset') || 'utf-8';

/**
 * A text part as mailparser's decode stream gives it: UTF-8 as is, any other charset through
 * libmime's decode (which its stream equals, however the input is split), then through UTF-8.
 */
function leafText(bytes: Buffer, leaf: MimeLeaf): string {
  const content = leafContent(bytes, leaf);
  const charset = leafCharset(leaf);
  const text = UTF8_CHARSETS.has(charset.toLowerCase().replace(/[^a-z0-9]+/g, ''))
    ? content.toString()
    : Buffer.from(mailparser().libmime.decodeWord(charset, 'B', content.toString('base64'))).toString();
  return text.replace(/\r?\n/g, '\n');
}

/** An attachment as mailparser hands it over: a generic type narrowed by the file name. */
function leafAttachment(bytes: Buffer, leaf: MimeLeaf): ParsedAttachment {
  const filename = leaf.dispositionParams.get('filename') || leaf.params.get('name') || null;
  const detected = filename && leaf.contentType === 'application/octet-stream';
  return attachmentFromBytes(
    {
      filename,
      contentType: (detected && mailparser().libmime.detectMimeType(filename)) || leaf.contentType,
      contentId: leaf.fields.find((field) => field.name === 'content-id')?.value ?? null,
      disposition: leaf.disposition,
    },
    leafContent(bytes, leaf),
  );
}

function simpleLeaf(bytes: Buffer, leaf: MimeLeaf): boolean {
  if (!plainEntity(leaf.fields)) return false;
  if (isBodyLeaf(leaf)) {
    if (!PLAIN_CHARSET.test(leafCharset(leaf))) return false;
    // format=flowed text is unwrapped by mailparser's FlowedDecoder.
    if (leaf.contentType === 'text/plain' && leaf.params.has('format')) return false;
    // mailparser reads message/delivery-status as body text, embedded messages as messages.
  } else if (/^(?:message|multipart)\//.test(leaf.contentType)) return false;
  return (
    leaf.transferEncoding !== 'base64' ||
    PLAIN_BASE64.test(bytes.toString('latin1', leaf.bodyStart, leaf.end))
  );
}

/**
 * The root header block split into lines as mailsplit's Headers does, the decoded headers only;
 * null for a block mailsplit reads otherwise (a line without a colon, an mbox or HTTP preamble).
 */
function headerLines(bytes: Buffer, headerEnd: number): HeaderLine[] | null {
  const raw = bytes.toString('latin1', 0, headerEnd).replace(/[\r\n]+$/, '');
  const lines: HeaderLine[] = [];
  let current: HeaderLine | null = null;
  for (const [i, text] of raw.split(/\r?\n/).entries()) {
    if (current && (text.startsWith(' ') || text.startsWith('\t'))) {
      current.line += `\r\n${text}`;
      continue;
    }
    const colon = text.indexOf(':');
    if (colon < 0 || (i === 0 && /^(?:From|POST) /i.test(text))) return null;
    current = { key: text.slice(0, colon).toLowerCase().trim(), line: text };
    lines.push(current);
  }
  return lines.filter((line) => DECODED_HEADERS.has(line.key));
}

/**
 * What mailparser's getTextContent assembles with skipHtmlToText and skipTextToHtml: each
 * version of the body in its list, and an empty entry in the other list where it would have
 * converted one into the other.
 */
function bodyLists(bytes: Buffer, leaves: readonly MimeLeaf[]): { text: string[]; html: string[] } {
  const hasText = leaves.some((leaf) => leaf.contentType === 'text/plain');
  const hasHtml = leaves.some((leaf) => leaf.contentType === 'text/html');
  const text: string[] = [];
  const html: string[] = [];
  for (const leaf of leaves) {
    const content = leafText(bytes, leaf);
    if (content === '') continue;
    if (leaf.contentType === 'text/plain') {
      text.push(content);
      if (!leaf.alternative && hasHtml) html.push('');
    } else {
      if ((!leaf.alternative && hasText) || (leaf.start === 0 && !hasText)) text.push('');
      html.push(content);
    }
  }
  return { text, html };
}

/** A message of the simple shape as runMailparser reads it; null for any other shape. */
export function decodeSimpleMime(bytes: Buffer, headerEnd: number, tree: MimeTree): MimeResult | null {
  if (bytes.length > MAX_SIMPLE_BYTES || tree.truncated || tree.leaves.length === 0) return null;
  if (!tree.containers.every(plainEntity)) return null;
  if (!tree.leaves.every((leaf) => simpleLeaf(bytes, leaf))) return null;
  const lines = headerLines(bytes, headerEnd);
  if (lines === null) return null;
  const { text, html } = bodyLists(bytes, tree.leaves.filter(isBodyLeaf));
  const attachments = tree.leaves
    .filter((leaf) => !isBodyLeaf(leaf))
    .map((leaf) => leafAttachment(bytes, leaf));
  return {
    headers: mailparser().processHeaders(lines),
    text: bodyText(text.length > 0 ? text.join('\n') : undefined, '\n'),
    html: bodyText(html.length > 0 ? html.join('<br/>\n') : undefined, '<br/>\n'),
    attachments,
    warnings: attachments.filter((a) => a.size > 0 && a.content.length === 0).map(oversizeWarning),
  };
}

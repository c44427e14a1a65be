// Runs mailparser's streaming MailParser over a whole message and collects its headers, body
// text and attachments. MailParser rather than simpleParser: the wrapper rewrites cid: links into
// data URIs and buffers every attachment whole; here oversized attachments are hashed, not kept.

import type { AttachmentStream, Headers, MailParserOptions, MessageText } from 'mailparser';
import { MailParser } from 'mailparser';
import { LIMITS } from '../core/limits.js';
import type { ParsedAttachment } from '../core/types.js';
import { makeAttachment, oversizeWarning } from './attachments.js';

/** What the MIME stage hands to the assembly of a ParsedMessage. */
export interface MimeResult {
  readonly headers: Headers;
  readonly text: string | null;
  readonly html: string | null;
  readonly attachments: readonly ParsedAttachment[];
  readonly warnings: readonly string[];
}

const OPTIONS: MailParserOptions = {
  // The clean stage flattens HTML itself; these conversions would be thrown away.
  skipHtmlToText: true,
  skipTextToHtml: true,
  skipTextLinks: true,
  skipImageLinks: true,
  checksumAlgo: 'sha256',
  // A forwarded message/rfc822 part stays one attachment instead of merging into the body.
  ignoreEmbedded: true,
  maxHeadSize: LIMITS.maxHeaderBytes,
  maxChildNodes: LIMITS.maxMimeParts,
};

/** mailparser joins the body parts of a message with these; empty pieces leave them dangling. */
export function bodyText(value: string | undefined, joiner: string): string | null {
  if (value === undefined) return null;
  let text = value;
  while (text.startsWith(joiner)) text = text.slice(joiner.length);
  while (text.endsWith(joiner)) text = text.slice(0, -joiner.length);
  return text.trim() === '' ? null : text;
}

function collectAttachment(data: AttachmentStream, warnings: string[]): Promise<ParsedAttachment> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    let oversize = false;
    data.content.on('data', (chunk: Buffer) => {
      if (oversize) return;
      kept += chunk.length;
      if (kept > LIMITS.maxAttachmentBytes) {
        oversize = true;
        chunks.length = 0;
      } else chunks.push(chunk);
    });
    data.content.once('error', reject);
    data.content.once('end', () => {
      // StreamHash sets checksum and size when its stream ends, before 'end' reaches us.
      const meta = {
        filename: data.filename ?? null,
        contentType: data.contentType,
        contentId: data.contentId ?? null,
        disposition: data.contentDisposition ?? null,
      };
      const attachment = makeAttachment(
        meta,
        oversize ? null : Buffer.concat(chunks),
        data.size ?? kept,
        data.checksum ?? '',
      );
      if (oversize) warnings.push(oversizeWarning(attachment));
      data.release?.();
      resolve(attachment);
    });
  });
}

/** Parses a whole message. Rejects when mailparser fails (the caller then falls back). */
export function runMailparser(bytes: Buffer): Promise<MimeResult> {
  return new Promise((resolve, reject) => {
    const parser = new MailParser(OPTIONS);
    const pending: Promise<ParsedAttachment>[] = [];
    const warnings: string[] = [];
    let headers: Headers = new Map();
    let message: MessageText | null = null;
    let failed = false;
    const fail = (error: unknown): void => {
      if (failed) return;
      failed = true;
      parser.destroy();
      reject(error);
    };
    parser.on('headers', (value) => {
      headers = value;
    });
    parser.on('data', (data: AttachmentStream | MessageText) => {
      if (data.type === 'text') message = data;
      else pending.push(collectAttachment(data, warnings));
    });
    parser.on('error', fail);
    parser.on('end', () => {
      Promise.all(pending).then((attachments) => {
        if (failed) return;
        const text = message as MessageText | null;
        resolve({
          headers,
          text: bodyText(text?.text, '\n'),
          html: bodyText(text?.html, '<br/>\n'),
          attachments,
          warnings,
        });
      }, fail);
    });
    parser.end(bytes);
  });
}

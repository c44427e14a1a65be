// parseMessage: raw RFC 5322 bytes to a ParsedMessage. The header pre-scan and the MIME walk
// bound what mailparser sees; mailparser decodes (simple-mime.ts its common case, directly); the
// walk repairs mislabelled charsets; headers mailparser leaves raw (ids, dates, auth, labels) are
// read here. Broken mail yields warnings.

import type { AddressObject, EmailAddress, HeaderValue } from 'mailparser';
import { describeError } from '../core/errors.js';
import { LIMITS } from '../core/limits.js';
import type { Address, ParsedMessage } from '../core/types.js';
import { readArchiveAddress, unobscure } from './archive-address.js';
import { parseAuthenticationResults } from './auth-results.js';
import { countRawReplacements, countReplacements } from './charset.js';
import { firstHeader, type HeaderBlock, headerValues, readHeaderBlock } from './header-block.js';
import { gmailThreadId, listId, messageLabels, outlookThreadIndex } from './header-fields.js';
import { decodeLeaves, repairBodyCharsets } from './leaf-decode.js';
import { chooseDate } from './message-date.js';
import { normalizeMessageId, parseMessageIdList } from './message-id.js';
import { type MimeTree, walkMime } from './mime-walk.js';
import { type MimeResult, runMailparser } from './run-mailparser.js';
import { decodeSimpleMime } from './simple-mime.js';

export interface ParseOptions {
  /** Modification time of the file the message came from: the last fallback for its date. */
  readonly fileTime?: Date | null;
}

/**
 * addressparser returns unbalanced input as one "address" (`"unterminated <a"@b.example>`);
 * the addr-spec inside it is kept as the address and the rest as the name.
 */
function readableAddress(name: string, address: string): Address {
  if (!/["<>()\s]/.test(address)) return { name, address: address.toLowerCase() };
  const text = address.replace(/"/g, '').replace(/[<>()]/g, ' ');
  const spec = /[^\s,;:]+@[^\s,;:]+/.exec(text)?.[0];
  const rest = (spec === undefined ? text : text.replace(spec, ' ')).replace(/\s+/g, ' ').trim();
  return { name: name || rest, address: spec?.toLowerCase() ?? '' };
}

function flattenAddresses(entries: readonly EmailAddress[], out: Address[]): void {
  for (const entry of entries) {
    if (entry.group) {
      flattenAddresses(entry.group, out);
      continue;
    }
    const spelled = (entry.address ?? '').trim();
    const address = readableAddress(
      (entry.name ?? '').replace(/\s+/g, ' ').trim(),
      unobscure(spelled) ?? spelled,
    );
    if (address.name !== '' || address.address !== '') out.push(address);
  }
}

/** The addresses of a header as mailparser read it, an archive's `user at host` read back (`raw`: the header's text). */
function addresses(value: HeaderValue | undefined, raw: string | null): Address[] {
  const out: Address[] = [];
  const objects = (Array.isArray(value) ? value : value === undefined ? [] : [value]) as unknown[];
  for (const object of objects) {
    const list = (object as Partial<AddressObject>).value;
    if (Array.isArray(list)) flattenAddresses(list, out);
  }
  // A comment names the address only when the header holds one.
  return out.map((address) => readArchiveAddress(address, out.length === 1 ? raw : null));
}

/** Body and attachments when the structure is too hostile for mailparser: headers alone go to it. */
async function parseDegraded(header: HeaderBlock, tree: MimeTree): Promise<MimeResult> {
  const headersOnly = Buffer.concat([header.bytes.subarray(0, header.headerEnd), Buffer.from('\r\n')]);
  const { headers } = await runMailparser(headersOnly).catch(() => ({ headers: new Map() }));
  return { headers, ...decodeLeaves(header.bytes, tree.leaves) };
}

async function decodeMime(header: HeaderBlock, tree: MimeTree): Promise<MimeResult> {
  if (tree.truncated) return parseDegraded(header, tree);
  let result: MimeResult;
  try {
    result = decodeSimpleMime(header.bytes, header.headerEnd, tree) ?? (await runMailparser(header.bytes));
  } catch (error) {
    const degraded = await parseDegraded(header, tree);
    return {
      ...degraded,
      warnings: [`mime: mailparser failed (${describeError(error)})`, ...degraded.warnings],
    };
  }
  // Cheap pre-filter: only U+FFFD that the sender did not send can mean a mislabelled part.
  const lost =
    countReplacements((result.text ?? '') + (result.html ?? '')) > countRawReplacements(header.bytes);
  const repaired = lost ? repairBodyCharsets(header.bytes, tree.leaves) : null;
  if (repaired === null) return result;
  const again = await runMailparser(repaired.bytes).catch(() => null);
  if (again === null) return { ...result, warnings: [...result.warnings, 'charset: repair failed to parse'] };
  return { ...again, warnings: [...repaired.warnings, ...again.warnings] };
}

/**
 * Parses one message. Never throws for a broken message (problems are listed in `warnings`);
 * throws MailsiftError('bad_format') when the bytes are not a message at all.
 */
export async function parseMessage(bytes: Buffer, options: ParseOptions = {}): Promise<ParsedMessage> {
  const header = readHeaderBlock(bytes);
  const tree = walkMime(header.bytes);
  const mime = await decodeMime(header, tree);
  const { fields } = header;
  const warnings = [...header.warnings, ...tree.warnings, ...mime.warnings];

  const messageIdValue = firstHeader(fields, 'message-id');
  const messageId = normalizeMessageId(messageIdValue);
  if (messageIdValue !== null && messageId === null) warnings.push('header: unusable Message-ID');

  const inReplyTo = parseMessageIdList(headerValues(fields, 'in-reply-to').join(' '))[0] ?? null;
  let references = parseMessageIdList(headerValues(fields, 'references').join(' '));
  if (inReplyTo !== null && !references.includes(inReplyTo)) references.push(inReplyTo);
  if (references.length > LIMITS.maxReferences) {
    warnings.push(`header: ${references.length} references, kept the last ${LIMITS.maxReferences}`);
    references = references.slice(-LIMITS.maxReferences);
  }

  const dated = chooseDate(
    firstHeader(fields, 'date'),
    firstHeader(fields, 'received'),
    options.fileTime ?? null,
  );
  warnings.push(...dated.warnings);

  const subject = mime.headers.get('subject');
  const addressesOf = (name: string): Address[] =>
    addresses(mime.headers.get(name), firstHeader(fields, name));
  return {
    messageId,
    from: addressesOf('from')[0] ?? null,
    to: addressesOf('to'),
    cc: addressesOf('cc'),
    bcc: addressesOf('bcc'),
    replyTo: addressesOf('reply-to'),
    subject: typeof subject === 'string' ? subject.replace(/\s+/g, ' ').trim() : '',
    date: dated.date,
    dateSource: dated.dateSource,
    references,
    inReplyTo,
    text: mime.text,
    html: mime.html,
    attachments: mime.attachments,
    gmailThreadId: gmailThreadId(fields),
    outlookThreadIndex: outlookThreadIndex(fields),
    auth: parseAuthenticationResults(headerValues(fields, 'authentication-results')),
    labels: messageLabels(fields),
    listId: listId(fields),
    warnings,
  };
}

// Opaque page tokens: a signed payload carrying everything the next page needs (recency
// origin, watermark, keyset position, frozen ranking and offset), bound to its query
// fingerprint and inbox.

import { MailsiftError } from '../core/errors.js';
import { nodeCrypto } from '../core/node-crypto.js';

const TOKEN_VERSION = 2;
/** Longest token accepted: real ones stay under 400 characters. */
const MAX_TOKEN_CHARS = 2048;

/** Where the previous page stopped, in the order (score desc, date desc, rowid desc) or by date. */
export interface KeysetPosition {
  readonly score: number;
  readonly date: number;
  readonly rowid: number;
}

export interface PagePayload {
  /** Which operation and phase the token continues ('search', 'search-fuzzy', 'threads', 'list'...). */
  readonly kind: string;
  readonly fingerprint: string;
  /** Inbox id the token is bound to; 0 for every inbox. */
  readonly inbox: number;
  /** Recency origin (epoch ms, floored to the hour). */
  readonly origin: number;
  /** Highest message rowid that existed when page 1 was served: later arrivals stay out. */
  readonly watermark: number;
  readonly position: KeysetPosition;
  /** The frozen ranking later pages follow (search_snapshots.id), or null to rank live. */
  readonly snapshot: string | null;
  /** Entries of the snapshot already served or passed over. */
  readonly offset: number;
}

/** A short hash of everything that defines the result set, so a token cannot be replayed on another query. */
export function fingerprint(parts: readonly unknown[]): string {
  return nodeCrypto().createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 16);
}

function mac(secret: string, body: string): Buffer {
  return nodeCrypto().createHmac('sha256', secret).update(body).digest().subarray(0, 16);
}

export function encodePageToken(secret: string, payload: PagePayload): string {
  const p = payload.position;
  const body = Buffer.from(
    JSON.stringify([
      TOKEN_VERSION,
      payload.kind,
      payload.fingerprint,
      payload.inbox,
      payload.origin,
      payload.watermark,
      p.score,
      p.date,
      p.rowid,
      payload.snapshot,
      payload.offset,
    ]),
  ).toString('base64url');
  return `${body}.${mac(secret, body).toString('base64url')}`;
}

function invalid(reason: string): MailsiftError {
  return new MailsiftError('invalid_page_token', `pageToken ${reason}`, { param: 'pageToken' });
}

/** Verifies the signature and the binding to this query and inbox. */
export function decodePageToken(
  secret: string,
  token: string,
  expected: { readonly kinds: readonly string[]; readonly fingerprint: string; readonly inbox: number },
): PagePayload {
  const [body, signature, extra] = token.split('.');
  if (token.length > MAX_TOKEN_CHARS || !body || !signature || extra !== undefined)
    throw invalid('is malformed');
  const given = Buffer.from(signature, 'base64url');
  const wanted = mac(secret, body);
  if (given.length !== wanted.length || !nodeCrypto().timingSafeEqual(given, wanted)) {
    throw invalid('was not issued by this archive or has been altered');
  }
  let fields: unknown;
  try {
    fields = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    throw invalid('is malformed');
  }
  if (!Array.isArray(fields) || fields.length !== 11 || fields[0] !== TOKEN_VERSION)
    throw invalid('is from another version');
  const [, kind, print, inbox, origin, watermark, score, date, rowid, snapshot, offset] = fields as [
    number,
    string,
    string,
    number,
    number,
    number,
    number,
    number,
    number,
    string | null,
    number,
  ];
  if (inbox !== expected.inbox) throw invalid('belongs to another inbox');
  if (!expected.kinds.includes(kind) || print !== expected.fingerprint) {
    throw invalid('belongs to another query; pass the same query and filters as the first page');
  }
  return {
    kind,
    fingerprint: print,
    inbox,
    origin,
    watermark,
    position: { score, date, rowid },
    snapshot,
    offset,
  };
}

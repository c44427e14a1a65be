// Binds page tokens to the API key that received them. The search layer already binds a
// token to its query and inbox; wrapping it in a MAC over the key id means a token
// replayed with another key (or shared with another tenant) is rejected.

import { createHmac, timingSafeEqual } from 'node:crypto';
import { MailsiftError } from '../../core/errors.js';

/** Longest wrapped token accepted: the search layer's own limit plus the tag. */
const MAX_TOKEN_CHARS = 2100;

const tag = (secret: string, keyId: string, inner: string): Buffer =>
  createHmac('sha256', secret).update(`page-token\n${keyId}\n${inner}`).digest().subarray(0, 12);

export function wrapPageToken(secret: string, keyId: string, inner: string | null): string | null {
  return inner === null ? null : `${tag(secret, keyId, inner).toString('base64url')}.${inner}`;
}

export function unwrapPageToken(secret: string, keyId: string, token: string): string {
  const dot = token.indexOf('.');
  if (dot < 1 || token.length > MAX_TOKEN_CHARS) {
    throw new MailsiftError('invalid_page_token', 'pageToken is malformed', { param: 'pageToken' });
  }
  const inner = token.slice(dot + 1);
  const given = Buffer.from(token.slice(0, dot), 'base64url');
  const wanted = tag(secret, keyId, inner);
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) {
    throw new MailsiftError(
      'invalid_page_token',
      'pageToken was issued to another API key or has been altered',
      {
        param: 'pageToken',
      },
    );
  }
  return inner;
}

/** One key's page tokens: the search layer's tokens wrapped going out, checked and unwrapped coming in. */
export class KeyPageTokens {
  constructor(
    private readonly secret: string,
    private readonly keyId: string,
  ) {}

  /** The search layer's parameters of a request: the inbox of the path, the token unwrapped. */
  inner(params: Record<string, unknown>, inbox: string): Record<string, unknown> {
    const { pageToken, ...rest } = params;
    return { ...rest, inbox, ...(pageToken === undefined ? {} : { pageToken: this.unwrap(pageToken) }) };
  }

  unwrap(token: unknown): string {
    if (typeof token !== 'string') {
      throw new MailsiftError('invalid_argument', 'pageToken: must be a string', { param: 'pageToken' });
    }
    return unwrapPageToken(this.secret, this.keyId, token);
  }

  wrap(token: string | null): string | null {
    return wrapPageToken(this.secret, this.keyId, token);
  }
}

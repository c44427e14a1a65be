// Web sessions without server state: the cookie names the API key by id with an expiry and an
// HMAC over both (keyed by the archive's own secret), so every `serve --workers` process
// accepts it and the raw key never leaves the sign-in request. Each request still looks the
// key up by id, so revoking the key ends its sessions. CSRF tokens are an HMAC of the session
// cookie: a cross-site page can neither read it nor guess it.

import { createHmac, timingSafeEqual } from 'node:crypto';

export const SESSION_COOKIE = 'mailsift_session';
/** A session lasts a working day; signing in again is one paste of the key. */
export const SESSION_MS = 12 * 60 * 60 * 1000;

const mac = (secret: string, purpose: string, text: string): string =>
  createHmac('sha256', secret).update(`web-${purpose}\n${text}`).digest('base64url');

const same = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** The cookie value of a session for `keyId` that ends at `now + SESSION_MS`. */
export function sessionValue(secret: string, keyId: string, now = Date.now()): string {
  const body = `${keyId}.${now + SESSION_MS}`;
  return `${body}.${mac(secret, 'session', body)}`;
}

/** The key id of a well-signed, unexpired session cookie, else null. */
export function sessionKeyId(secret: string, value: string | undefined, now = Date.now()): string | null {
  const match = /^([A-Za-z0-9_]{1,64})\.(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(value ?? '');
  if (!match) return null;
  const [, keyId, expires, tag] = match as unknown as [string, string, string, string];
  if (!same(tag, mac(secret, 'session', `${keyId}.${expires}`))) return null;
  return Number(expires) > now ? keyId : null;
}

/** The CSRF token of a session (or of the single local user when auth is off: `session` null). */
export function csrfToken(secret: string, session: string | null): string {
  return mac(secret, 'csrf', session ?? 'no-auth');
}

export function csrfValid(secret: string, session: string | null, token: unknown): boolean {
  return typeof token === 'string' && same(token, csrfToken(secret, session));
}

/** A redirect target from a form or query: a path of this site only, never `//host` or a URL. */
export function localPath(next: unknown): string {
  return typeof next === 'string' && /^\/(?![/\\])/.test(next) && !/[\s\\]/.test(next) ? next : '/';
}

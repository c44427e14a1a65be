// Opens an authenticated imapflow connection for an IMAP source and turns what can go wrong
// into typed errors naming the source: wrong credentials (auth_failed), a certificate or TLS
// handshake that fails or a server refusing STARTTLS (tls_failed), anything else on the way
// (connection_failed). Shared by the sync (imap-source.ts) and watch's IDLE (idle.ts).

import { readFileSync } from 'node:fs';
import { ImapFlow } from 'imapflow';
import { describeError, MailsiftError } from '../../core/errors.js';
import { type CredentialMethod, readSecret } from './credentials.js';
import { type ImapAddress, isLoopback } from './url.js';

export interface ConnectOptions {
  readonly credential: CredentialMethod;
  /** PEM file of a private CA the server's certificate is verified against. */
  readonly tlsCa?: string;
}

/** A server that never answers fails the run instead of holding it forever. */
const CONNECT_TIMEOUT_MS = 30_000;

export async function connectImap(address: ImapAddress, options: ConnectOptions): Promise<ImapFlow> {
  const source = address.canonical;
  // Plaintext only where nobody else is on the wire.
  const requireStartTls = !address.secure && !isLoopback(address.host);
  let ca: Buffer | undefined;
  if (options.tlsCa !== undefined) {
    try {
      ca = readFileSync(options.tlsCa);
    } catch (error) {
      throw new MailsiftError(
        'tls_failed',
        `cannot read --tls-ca ${options.tlsCa}: ${describeError(error)}`,
        {
          param: source,
        },
      );
    }
  }
  const client = new ImapFlow({
    host: address.host,
    port: address.port,
    secure: address.secure,
    ...(requireStartTls ? { doSTARTTLS: true } : {}),
    auth: { user: address.user, ...(await readSecret(options.credential, source)) },
    tls: { rejectUnauthorized: true, ...(ca ? { ca } : {}) },
    logger: false,
    qresync: true,
    connectionTimeout: CONNECT_TIMEOUT_MS,
    greetingTimeout: CONNECT_TIMEOUT_MS,
  });
  // Without a listener an 'error' event (a reset socket) would crash the process; the
  // failing command rejects with it too, which is where it is reported.
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    client.close();
    throw connectionError(error, source);
  }
  if (!client.capabilities.has('IMAP4rev1') && !client.capabilities.has('IMAP4rev2')) {
    await client.logout().catch(() => {});
    throw new MailsiftError('connection_failed', `${source} does not speak IMAP4rev1`, { param: source });
  }
  return client;
}

const TLS_CODES = /^(ERR_SSL_|ERR_TLS_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_|ERR_CERT)/;

/** The typed error for a failed connect or command; the password is never part of it. */
export function connectionError(error: unknown, source: string): MailsiftError {
  if (error instanceof MailsiftError) return error;
  const e = (error ?? {}) as {
    authenticationFailed?: boolean;
    tlsFailed?: boolean;
    code?: unknown;
    responseText?: unknown;
  };
  const code = typeof e.code === 'string' ? e.code : '';
  if (e.authenticationFailed === true)
    return new MailsiftError(
      'auth_failed',
      `${source} refused the login${typeof e.responseText === 'string' ? `: ${e.responseText}` : ''}`,
      { param: source },
    );
  // Not imapflow's ClosedAfterConnectTLS: that server completed the handshake, then hung up.
  if (e.tlsFailed === true || TLS_CODES.test(code))
    return new MailsiftError('tls_failed', `TLS with ${source} failed: ${describeError(error)}`, {
      param: source,
    });
  return new MailsiftError('connection_failed', `${source}: ${describeError(error)}`, { param: source });
}

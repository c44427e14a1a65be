// Where an IMAP password comes from. Never the command line, the archive or a log: the
// environment (MAILSIFT_IMAP_PASSWORD), a file, or a command's output (like mbsync's
// PassCmd); or an OAuth2 access token from a command (XOAUTH2: Gmail, Outlook), run again for
// every connection, so an expired token is replaced by the next sync. The recorded source
// keeps only the method ('env', 'file:PATH', 'command:CMD', 'oauth2-command:CMD'), so a later
// ingest or watch of the same URL finds the secret again.

import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { describeError, MailsiftError } from '../../core/errors.js';

export const PASSWORD_ENV = 'MAILSIFT_IMAP_PASSWORD';

export type CredentialMethod =
  | { readonly kind: 'env' }
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'command'; readonly command: string }
  | { readonly kind: 'oauth2-command'; readonly command: string };

/** What imapflow logs in with: a password, or an OAuth2 access token (XOAUTH2). */
export type Secret = { readonly pass: string } | { readonly accessToken: string };

/** A password command that hangs (a locked keyring waiting for a prompt) fails the run instead. */
const COMMAND_TIMEOUT_MS = 30_000;

/** The method as recorded with the source. */
export function describeCredential(method: CredentialMethod): string {
  if (method.kind === 'env') return 'env';
  return method.kind === 'file' ? `file:${method.path}` : `${method.kind}:${method.command}`;
}

export function parseCredential(recorded: string): CredentialMethod {
  if (recorded.startsWith('file:')) return { kind: 'file', path: recorded.slice(5) };
  if (recorded.startsWith('command:')) return { kind: 'command', command: recorded.slice(8) };
  if (recorded.startsWith('oauth2-command:')) return { kind: 'oauth2-command', command: recorded.slice(15) };
  return { kind: 'env' };
}

/** The secret, or an auth_failed error naming the source and the method (never the secret). */
export async function readSecret(method: CredentialMethod, source: string): Promise<Secret> {
  const fail = (why: string, cause?: unknown): MailsiftError =>
    new MailsiftError('auth_failed', `no IMAP credentials for ${source}: ${why}`, { param: source, cause });
  let secret: string;
  if (method.kind === 'env') {
    secret = process.env[PASSWORD_ENV] ?? '';
    if (secret === '')
      throw fail(`set ${PASSWORD_ENV}, or give --password-file FILE or --password-command CMD`);
  } else if (method.kind === 'file') {
    try {
      secret = await readFile(method.path, 'utf8');
    } catch (error) {
      throw fail(`cannot read the password file ${method.path}: ${describeError(error)}`, error);
    }
  } else {
    try {
      const run = promisify(execFile);
      secret = (await run('/bin/sh', ['-c', method.command], { timeout: COMMAND_TIMEOUT_MS })).stdout;
    } catch (error) {
      // The command's own output may hold the secret: only its exit status is reported.
      const code = (error as { code?: unknown }).code;
      throw fail(
        `the ${method.kind === 'command' ? 'password' : 'token'} command failed (${String(code ?? 'killed')})`,
      );
    }
  }
  // Files and commands end their output with a newline that is not part of the secret.
  const value = secret.replace(/\r?\n$/, '');
  if (value === '') throw fail(`the ${method.kind} gave nothing`);
  return method.kind === 'oauth2-command' ? { accessToken: value } : { pass: value };
}

// The one error type of mailsift. Surfaces map `code` to exit codes and HTTP statuses;
// `param` names the parameter, path or file that was wrong.

export type ErrorCode =
  /** A path does not exist. */
  | 'not_found'
  /** A path exists but cannot be read (permissions, not a file/directory as expected). */
  | 'unreadable'
  /** A file is not the format it was given as (e.g. a non-mailbox file given as mbox). */
  | 'bad_format'
  /** A parameter value is missing, malformed or out of range. */
  | 'invalid_argument'
  /** A parameter that the operation does not know. */
  | 'unknown_parameter'
  /** A page token that is malformed or belongs to another query or inbox. */
  | 'invalid_page_token'
  /** A message, thread or inbox that does not exist (or that the caller may not see). */
  | 'no_such_item'
  /** The database is not a mailsift archive, or its schema is newer than this build. */
  | 'bad_database'
  /** The index cannot be read or disagrees with the store: results could be incomplete. */
  | 'index_unavailable'
  /** A mail server refused the credentials (or none could be obtained): nothing was stored. */
  | 'auth_failed'
  /** A mail server's certificate or TLS handshake failed, or it offered no TLS where required. */
  | 'tls_failed'
  /** A mail server could not be reached, dropped the connection, or does not speak the protocol. */
  | 'connection_failed'
  /** The configured backend does not answer this operation (the OpenSearch backend: questions, decisions). */
  | 'not_supported'
  /** An unexpected failure inside mailsift. */
  | 'internal';

export class MailsiftError extends Error {
  readonly code: ErrorCode;
  readonly param: string | undefined;

  constructor(code: ErrorCode, message: string, options: { param?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'MailsiftError';
    this.code = code;
    this.param = options.param;
  }
}

export function isMailsiftError(error: unknown): error is MailsiftError {
  return error instanceof MailsiftError;
}

/**
 * An error of the source itself (its server refused, dropped or never answered), not of one
 * message: it ends the run, where a broken message is recorded and passed over.
 */
export function isSourceFailure(error: unknown): boolean {
  return (
    error instanceof MailsiftError &&
    (error.code === 'connection_failed' || error.code === 'auth_failed' || error.code === 'tls_failed')
  );
}

/** Short text for a thrown value of unknown type, for failure records. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

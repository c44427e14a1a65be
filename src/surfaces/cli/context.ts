// What every CLI command shares: resolving --db, opening the engine, printing, and
// turning a MailsiftError into a message and an exit code. Every command's module loads
// with the CLI (its help), so this one imports the engine only when a command opens it.

import { type ErrorCode, isMailsiftError } from '../../core/errors.js';
import type { Mailsift } from '../../engine.js';

export interface GlobalOptions {
  db?: string;
  json?: boolean;
}

export const DEFAULT_DB = './mailsift.db';

export function dbPath(options: GlobalOptions): string {
  return options.db ?? process.env.MAILSIFT_DB ?? DEFAULT_DB;
}

/** Opens the archive, runs `body`, and always closes it. */
export async function withEngine<T>(
  options: GlobalOptions,
  body: (engine: Mailsift) => Promise<T> | T,
): Promise<T> {
  const { Mailsift } = await import('../../engine.js');
  const engine = Mailsift.open(dbPath(options));
  try {
    return await body(engine);
  } finally {
    engine.close();
  }
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function printLine(text = ''): void {
  process.stdout.write(`${text}\n`);
}

const EXIT_CODES: Partial<Record<ErrorCode, number>> = {
  invalid_argument: 2,
  unknown_parameter: 2,
  invalid_page_token: 2,
  not_supported: 2,
  not_found: 3,
  no_such_item: 3,
  unreadable: 4,
  bad_format: 4,
  bad_database: 5,
  index_unavailable: 6,
  auth_failed: 7,
  tls_failed: 8,
  connection_failed: 9,
};

/** Prints an error the way the caller asked for (JSON or text) and returns the exit code. */
export function reportError(error: unknown, json: boolean): number {
  if (isMailsiftError(error)) {
    if (json)
      process.stdout.write(
        `${JSON.stringify({ error: { code: error.code, message: error.message, param: error.param } })}\n`,
      );
    else process.stderr.write(`mailsift: ${error.message}${error.param ? ` (${error.param})` : ''}\n`);
    return EXIT_CODES[error.code] ?? 1;
  }
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  if (json) process.stdout.write(`${JSON.stringify({ error: { code: 'internal', message } })}\n`);
  else process.stderr.write(`mailsift: internal error: ${message}\n`);
  return 1;
}

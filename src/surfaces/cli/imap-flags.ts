// The flags of IMAP sources, one definition for `ingest` and `watch --source`. Types only
// from the source module: imapflow loads with the first IMAP source, not with the CLI.

import { resolve } from 'node:path';
import type { Command } from 'commander';
import { MailsiftError } from '../../core/errors.js';
import type { ImapOpenOptions } from '../../source/index.js';

export interface ImapFlags {
  folder?: string[];
  excludeFolder?: string[];
  passwordFile?: string;
  passwordCommand?: string;
  tlsCa?: string;
}

const collect = (value: string, list: string[] = []): string[] => [...list, value];

export function withImapFlags(command: Command): Command {
  return command
    .option('--folder <name>', 'IMAP: sync only this folder (repeatable); default: every folder', collect)
    .option('--exclude-folder <name>', 'IMAP: leave this folder out (repeatable)', collect)
    .option(
      '--password-file <file>',
      'IMAP: read the password from this file (default: MAILSIFT_IMAP_PASSWORD)',
    )
    .option('--password-command <cmd>', 'IMAP: run this shell command and read the password from its output')
    .option('--tls-ca <file>', "IMAP: verify the server's certificate against this CA (PEM)");
}

/** The IMAP options the flags give; the password method is recorded, never the password. */
export function imapOptions(flags: ImapFlags): Omit<ImapOpenOptions, 'recorded'> {
  if (flags.passwordFile !== undefined && flags.passwordCommand !== undefined)
    throw new MailsiftError('invalid_argument', 'give --password-file or --password-command, not both', {
      param: '--password-command',
    });
  const credential =
    flags.passwordFile !== undefined
      ? { kind: 'file' as const, path: resolve(flags.passwordFile) }
      : flags.passwordCommand !== undefined
        ? { kind: 'command' as const, command: flags.passwordCommand }
        : undefined;
  return {
    ...(credential ? { credential } : {}),
    ...(flags.folder ? { folders: flags.folder } : {}),
    ...(flags.excludeFolder ? { exclude: flags.excludeFolder } : {}),
    ...(flags.tlsCa !== undefined ? { tlsCa: resolve(flags.tlsCa) } : {}),
  };
}

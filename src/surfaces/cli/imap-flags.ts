// The flags of IMAP sources, one definition for `ingest` and `watch --source`. Types only
// from the source module: imapflow loads with the first IMAP source, not with the CLI.

import { resolve } from 'node:path';
import type { Command } from 'commander';
import { MailsiftError } from '../../core/errors.js';
import type { CredentialMethod, ImapOpenOptions } from '../../source/index.js';

export interface ImapFlags {
  folder?: string[];
  excludeFolder?: string[];
  passwordFile?: string;
  passwordCommand?: string;
  oauth2TokenCommand?: string;
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
    .option(
      '--oauth2-token-command <cmd>',
      'IMAP: run this shell command for an OAuth2 access token (XOAUTH2: Gmail, Outlook), again at every connection',
    )
    .option('--tls-ca <file>', "IMAP: verify the server's certificate against this CA (PEM)");
}

/** The IMAP options the flags give; the password method is recorded, never the password. */
export function imapOptions(flags: ImapFlags): Omit<ImapOpenOptions, 'recorded'> {
  const methods: CredentialMethod[] = [
    ...(flags.passwordFile !== undefined
      ? [{ kind: 'file' as const, path: resolve(flags.passwordFile) }]
      : []),
    ...(flags.passwordCommand !== undefined
      ? [{ kind: 'command' as const, command: flags.passwordCommand }]
      : []),
    ...(flags.oauth2TokenCommand !== undefined
      ? [{ kind: 'oauth2-command' as const, command: flags.oauth2TokenCommand }]
      : []),
  ];
  if (methods.length > 1)
    throw new MailsiftError(
      'invalid_argument',
      'give one of --password-file, --password-command and --oauth2-token-command',
      { param: '--password-command' },
    );
  const credential = methods[0];
  return {
    ...(credential ? { credential } : {}),
    ...(flags.folder ? { folders: flags.folder } : {}),
    ...(flags.excludeFolder ? { exclude: flags.excludeFolder } : {}),
    ...(flags.tlsCa !== undefined ? { tlsCa: resolve(flags.tlsCa) } : {}),
  };
}

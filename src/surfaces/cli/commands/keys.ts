// mailsift keys create [--inbox NAME ...] [--name LABEL] | list | revoke <id-or-prefix>

import type { Command } from 'commander';
import type { ApiKeyInfo } from '../../../auth/index.js';
import { MailsiftError } from '../../../core/errors.js';
import { type GlobalOptions, printJson, printLine, withEngine } from '../context.js';
import { collect } from './mcp.js';

function describe(key: ApiKeyInfo): string {
  const scope = key.inboxes === null ? 'all inboxes' : key.inboxes.join(', ');
  const state = key.revokedAt ? `revoked ${key.revokedAt}` : 'active';
  return `${key.id}  ${key.prefix}…  ${key.name ?? '-'}  [${scope}]  created ${key.createdAt}  ${state}`;
}

export function registerKeys(program: Command, globals: () => GlobalOptions): void {
  const keys = program.command('keys').description('manage API keys for serve and mcp');
  // --db / --json are accepted after the subcommand too (`mailsift keys list --json`).
  const local = (command: Command) =>
    command.option('--db <path>', 'archive database').option('--json', 'print JSON');
  const options = (command: Command): GlobalOptions => ({ ...globals(), ...command.opts<GlobalOptions>() });

  local(keys.command('create'))
    .description('create a key and print it once (only its hash is stored)')
    .option('--inbox <name>', 'restrict the key to this inbox (repeatable; default: every inbox)', collect)
    .option('--name <label>', 'a label to recognise the key by')
    .action(async (opts: { inbox?: string[]; name?: string }, command: Command) => {
      const global = options(command);
      const { createKey } = await import('../../../auth/index.js');
      const { backendKind, openSearchTarget } = await import('../../../backend/opensearch/config.js');
      // A reader host of the cluster keeps only keys in its archive: the inboxes a key names
      // are the cluster's, recorded here so the key table can refer to them.
      const clusterInboxes =
        backendKind() === 'opensearch' && opts.inbox
          ? await (await import('../../../backend/opensearch/reader.js')).inboxCounts(openSearchTarget())
          : null;
      const created = await withEngine(global, async (engine) => {
        if (clusterInboxes) {
          const { MessageStore } = await import('../../../store/index.js');
          for (const name of opts.inbox ?? []) {
            if (!clusterInboxes.has(name))
              throw new MailsiftError('no_such_item', `no inbox named '${name}' on the cluster`, {
                param: '--inbox',
              });
            new MessageStore(engine.archive).inbox(name);
          }
        }
        return createKey(engine.archive.db, {
          ...(opts.inbox ? { inboxes: opts.inbox } : {}),
          ...(opts.name ? { name: opts.name } : {}),
        });
      });
      if (global.json) return printJson(created);
      printLine(created.key);
      process.stderr.write(`${describe(created)}\nstore this key now: it is not shown again\n`);
    });

  local(keys.command('list'))
    .description('list keys (never the secret)')
    .action(async (_opts: unknown, command: Command) => {
      const global = options(command);
      const { listKeys } = await import('../../../auth/index.js');
      const list = await withEngine(global, (engine) => listKeys(engine.archive.db));
      if (global.json) return printJson(list);
      printLine(list.length === 0 ? 'no API keys' : list.map(describe).join('\n'));
    });

  local(keys.command('revoke'))
    .description('revoke a key by id or by its visible prefix')
    .argument('<id-or-prefix>', 'key id (key_…) or prefix (msk_…)')
    .action(async (id: string, _opts: unknown, command: Command) => {
      const global = options(command);
      const { revokeKey } = await import('../../../auth/index.js');
      const revoked = await withEngine(global, (engine) => revokeKey(engine.archive.db, id));
      if (global.json) return printJson(revoked);
      printLine(`revoked ${describe(revoked)}`);
    });
}

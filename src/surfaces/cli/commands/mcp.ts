// mailsift mcp [--key KEY] [--inbox NAME ...] [--no-drain]: the MCP server over stdio for a
// local agent, embedding and summarising new mail in the background as serve does. stdout
// carries the protocol, so nothing else is printed there.

import type { Command } from 'commander';
import { authenticate, type Principal } from '../../../auth/index.js';
import { MailsiftError } from '../../../core/errors.js';
import { ensureKeywordIndex } from '../../../index/index.js';
import { keepDecodedHits, startRankThread } from '../../../search/index.js';
import { MailApi, RequestActivity } from '../../http/index.js';
import { serveMcpStdio } from '../../mcp/index.js';
import {
  type BackgroundDrainFlags,
  startConfiguredDrain,
  withBackgroundDrainFlags,
} from '../background-drain.js';
import { type GlobalOptions, withEngine } from '../context.js';
import { configuredProviders } from '../providers.js';

export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

export function registerMcp(program: Command, globals: () => GlobalOptions): void {
  const command = program
    .command('mcp')
    .description('serve MCP over stdio (search_messages, get_thread, … as in AgentMail)')
    .option('--key <key>', 'act with this API key and its inbox scope (stdio is local: optional)')
    .option('--inbox <name>', 'expose only this inbox (repeatable)', collect);
  withBackgroundDrainFlags(command).action(
    async (options: { key?: string; inbox?: string[] } & BackgroundDrainFlags) => {
      await withEngine(globals(), async (engine) => {
        const db = engine.archive.db;
        ensureKeywordIndex(db);
        let principal: Principal = { keyId: 'local', inboxes: null };
        if (options.key !== undefined) {
          const found = authenticate(db, options.key);
          if (!found)
            throw new MailsiftError('invalid_argument', 'unknown or revoked API key', { param: '--key' });
          principal = found;
        }
        if (options.inbox) {
          const allowed = principal.inboxes;
          principal = {
            ...principal,
            inboxes: options.inbox.filter((name) => allowed === null || allowed.includes(name)),
          };
        }
        keepDecodedHits();
        await startRankThread(db);
        const providers = configuredProviders();
        const activity = new RequestActivity();
        const drain = startConfiguredDrain(
          engine,
          providers,
          options,
          (line) => process.stderr.write(`mailsift mcp: ${JSON.stringify(line)}\n`),
          activity,
        );
        try {
          await serveMcpStdio(new MailApi(engine, principal, providers), activity);
        } finally {
          await drain?.stop();
          await providers.llm?.close?.();
        }
      });
    },
  );
}

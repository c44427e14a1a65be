// mailsift mcp [--key KEY] [--inbox NAME ...] [--no-drain]: the MCP server over stdio for a
// local agent, embedding and summarising new mail in the background as serve does. stdout
// carries the protocol, so nothing else is printed there.

import type { Command } from 'commander';
import type { Principal } from '../../../auth/index.js';
import { MailsiftError } from '../../../core/errors.js';
import { type GlobalOptions, withEngine } from '../context.js';
import { type BackgroundDrainFlags, withBackgroundDrainFlags } from '../drain-flags.js';

export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

export function registerMcp(program: Command, globals: () => GlobalOptions): void {
  const command = program
    .command('mcp')
    .description('serve MCP over stdio (search_messages, get_thread, … as in AgentMail)')
    .option('--key <key>', 'act with this API key and its inbox scope (stdio is local: optional)')
    .option('--inbox <name>', 'expose only this inbox (repeatable)', collect);
  withBackgroundDrainFlags(command).action(
    async (options: { key?: string; inbox?: string[] } & BackgroundDrainFlags) => {
      const [
        { authenticate },
        { ensureKeywordIndex, indexSecret },
        { keepDecodedHits, startRankThread },
        { MailApi, RequestActivity },
        { serveMcpStdio },
        { startConfiguredDrain },
        { configuredProviders },
      ] = await Promise.all([
        import('../../../auth/index.js'),
        import('../../../index/index.js'),
        import('../../../search/index.js'),
        import('../../http/index.js'),
        import('../../mcp/index.js'),
        import('../background-drain.js'),
        import('../providers.js'),
      ]);
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
        const { backendKind, openSearchTarget } = await import('../../../backend/opensearch/config.js');
        if (backendKind() === 'opensearch') {
          // The cluster answers: this archive holds the API keys only, nothing to rank or drain.
          const { ClusterMailApi } = await import('../../http/cluster-api.js');
          await serveMcpStdio(new ClusterMailApi(openSearchTarget(), principal, indexSecret(db)));
          return;
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

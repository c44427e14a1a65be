// mailsift reindex [--backend opensearch] — rebuilds the keyword index and the decisions
// table from the stored messages, or the OpenSearch cluster's copy of them (MAILSIFT_OPENSEARCH_NODES).

import type { Command } from 'commander';
import { MailsiftError } from '../../../core/errors.js';
import { type GlobalOptions, printJson, printLine, withEngine } from '../context.js';

interface ReindexOptions {
  backend?: string;
  shards?: string;
  replicas?: string;
}

/** A progress line on a terminal, nothing otherwise. */
function progress(global: GlobalOptions): { update: (done: number, total: number) => void; end: () => void } {
  const tty = process.stderr.isTTY && !global.json;
  return {
    update: (done, total) => {
      if (tty)
        process.stderr.write(
          `\r\u001b[2Kreindexing ${done.toLocaleString('en')} / ${total.toLocaleString('en')}`,
        );
    },
    end: () => {
      if (tty) process.stderr.write('\n');
    },
  };
}

function count(value: string | undefined, param: string): number | undefined {
  if (value === undefined) return undefined;
  if (/^\d{1,4}$/.test(value)) return Number(value);
  throw new MailsiftError('invalid_argument', `${param}: expected a whole number`, { param });
}

export function registerReindex(program: Command, globals: () => GlobalOptions): void {
  program
    .command('reindex')
    .description(
      'rebuild the keyword index and the decisions (or the OpenSearch copy) from the stored messages',
    )
    .option(
      '--backend <kind>',
      "sqlite (the archive's own index, default) or opensearch (MAILSIFT_OPENSEARCH_NODES)",
    )
    .option('--shards <n>', 'opensearch: primary shards of a new index (default 3)')
    .option('--replicas <n>', 'opensearch: replicas of a new index (default 1)')
    .action(async (options: ReindexOptions) => {
      const global = globals();
      const opensearch = await import('../../../backend/opensearch/index.js');
      const kind = opensearch.backendKind(options.backend ?? 'sqlite');
      await withEngine(global, async (engine) => {
        const db = engine.archive.db;
        const started = Date.now();
        const bar = progress(global);
        const shape = {
          shards: count(options.shards, 'shards'),
          replicas: count(options.replicas, 'replicas'),
        };
        const target = kind === 'opensearch' ? opensearch.openSearchTarget() : null;
        const result = target
          ? await opensearch.syncArchive(db, target, { ...shape, onProgress: bar.update })
          : (await import('../../../index/index.js')).reindex(db, (p) => bar.update(p.done, p.total));
        bar.end();
        // The chunks' vectors too, into the k-NN index beside the messages' (the vector leg).
        const vectors = target ? await opensearch.syncVectors(db, target, shape) : undefined;
        const decisions =
          kind === 'opensearch'
            ? undefined
            : (await import('../../../decisions/index.js')).rebuildDecisions(db);
        const elapsedMs = Date.now() - started;
        if (global.json)
          printJson({
            ...result,
            ...(decisions ? { decisions } : {}),
            ...(vectors ? { vectors } : {}),
            elapsedMs,
          });
        else {
          const where = kind === 'opensearch' ? ' to OpenSearch' : '';
          const derived = decisions
            ? `, derived ${decisions.decisions.toLocaleString('en')} decisions of ${decisions.threads.toLocaleString('en')} threads`
            : '';
          const copied = vectors ? ` and ${vectors.indexed.toLocaleString('en')} chunk vectors` : '';
          printLine(
            `indexed ${result.indexed.toLocaleString('en')} messages${copied}${where}${derived} in ${(elapsedMs / 1000).toFixed(1)} s`,
          );
        }
      });
    });
}

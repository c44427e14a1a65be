// mailsift check [--deep] [--backend opensearch] — verifies that the keyword index (or the
// OpenSearch cluster's copy) and the store agree.

import type { Command } from 'commander';
import { type GlobalOptions, printJson, printLine, withEngine } from '../context.js';

export function registerCheck(program: Command, globals: () => GlobalOptions): void {
  program
    .command('check')
    .description('verify that the keyword index and the store agree (exit 6 when they do not)')
    .option('--deep', 're-analyse every message and compare with what is indexed (as slow as reindex)')
    .option(
      '--backend <kind>',
      'sqlite (default) or opensearch: the cluster holds exactly the stored messages',
    )
    .action(async (options: { deep?: boolean; backend?: string }) => {
      const global = globals();
      const opensearch = await import('../../../backend/opensearch/index.js');
      if (opensearch.backendKind(options.backend ?? 'sqlite') === 'opensearch') {
        await withEngine(global, async (engine) => {
          const report = await opensearch.checkCluster(engine.archive.db, opensearch.openSearchTarget());
          if (global.json) printJson(report);
          else if (report.ok) printLine(`ok: the cluster holds the archive's ${report.archive} messages`);
          else
            printLine(
              [
                `problem: ${report.missing.count} stored messages missing from the cluster, ${report.extra.count} documents the archive does not have (run reindex --backend opensearch)`,
                ...report.missing.examples.map((m) => `  missing: ${m}`),
                ...report.extra.examples.map((m) => `  extra: ${m}`),
              ].join('\n'),
            );
          if (!report.ok) process.exitCode = 6;
        });
        return;
      }
      const { checkIndex } = await import('../../../index/index.js');
      await withEngine(global, (engine) => {
        const db = engine.archive.db;
        const report = checkIndex(db, { deep: options.deep ?? false });
        if (global.json) printJson(report);
        else
          printLine(
            report.ok ? 'ok: index and store agree' : report.problems.map((p) => `problem: ${p}`).join('\n'),
          );
        if (!report.ok) process.exitCode = 6;
      });
    });
}

// mailsift check [--deep] [--backend opensearch] — verifies that the keyword index and the
// decisions table (or the OpenSearch cluster's copy) and the store agree.

import type { Command } from 'commander';
import { type GlobalOptions, printJson, printLine, withEngine } from '../context.js';

export function registerCheck(program: Command, globals: () => GlobalOptions): void {
  program
    .command('check')
    .description('verify that the keyword index, the decisions and the store agree (exit 6 when they do not)')
    .option(
      '--deep',
      're-analyse every message and extract every thread, comparing with what is stored (as slow as reindex)',
    )
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
          const { vectors } = report;
          if (global.json) printJson(report);
          else if (report.ok)
            printLine(
              `ok: the cluster holds the archive's ${report.archive} messages${vectors ? ` and ${vectors.archive} chunk vectors` : ''}`,
            );
          else
            printLine(
              [
                `problem: ${report.missing.count} stored messages missing from the cluster, ${report.extra.count} documents the archive does not have${vectors ? `; ${vectors.missing.count} chunk vectors missing, ${vectors.extra.count} the archive does not have` : ''} (run reindex --backend opensearch)`,
                ...[report, ...(vectors ? [vectors] : [])].flatMap((c) => [
                  ...c.missing.examples.map((m) => `  missing: ${m}`),
                  ...c.extra.examples.map((m) => `  extra: ${m}`),
                ]),
              ].join('\n'),
            );
          if (!report.ok) process.exitCode = 6;
        });
        return;
      }
      const { checkIndex } = await import('../../../index/index.js');
      const { checkDecisions } = await import('../../../decisions/index.js');
      await withEngine(global, (engine) => {
        const db = engine.archive.db;
        const deep = options.deep ?? false;
        const index = checkIndex(db, { deep });
        const decisions = checkDecisions(db, { deep });
        const report = { ok: index.ok && decisions.ok, problems: [...index.problems, ...decisions.problems] };
        if (global.json) printJson(report);
        else
          printLine(
            report.ok
              ? 'ok: index, decisions and store agree'
              : report.problems.map((p) => `problem: ${p}`).join('\n'),
          );
        if (!report.ok) process.exitCode = 6;
      });
    });
}

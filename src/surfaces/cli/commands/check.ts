// mailsift check [--deep] — verifies that the keyword index and the store agree.

import type { Command } from 'commander';
import { type GlobalOptions, printJson, printLine, withEngine } from '../context.js';

export function registerCheck(program: Command, globals: () => GlobalOptions): void {
  program
    .command('check')
    .description('verify that the keyword index and the store agree (exit 6 when they do not)')
    .option('--deep', 're-analyse every message and compare with what is indexed (as slow as reindex)')
    .action(async (options: { deep?: boolean }) => {
      const global = globals();
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

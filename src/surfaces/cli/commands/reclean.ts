// mailsift reclean [--inbox NAME]: clean every stored message again from its raw bytes (after
// an upgrade changed the cleaner's rules), re-indexing the messages whose cleaned parts changed.

import type { Command } from 'commander';
import { type GlobalOptions, printJson, printLine, withEngine } from '../context.js';
import { countProgress } from '../progress.js';

export function registerReclean(program: Command, globals: () => GlobalOptions): void {
  program
    .command('reclean')
    .description(
      'clean every stored message again with the current rules (after an upgrade), and re-index those that changed',
    )
    .option('--inbox <name>', 'only this inbox')
    .action(async (options: { inbox?: string }) => {
      const global = globals();
      const report = await withEngine(global, (engine) =>
        engine.reclean({
          ...(options.inbox === undefined ? {} : { inbox: options.inbox }),
          onProgress: countProgress('re-cleaning'),
        }),
      );
      if (global.json) return printJson(report);
      printLine(
        `cleaned ${report.messages} message(s) again: ${report.changed} changed and re-indexed, ` +
          `${report.failures.length} failed`,
      );
      for (const f of report.failures) printLine(`  ${f.messageId}: ${f.reason}`);
    });
}

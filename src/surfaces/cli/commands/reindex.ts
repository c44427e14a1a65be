// mailsift reindex — rebuilds the keyword index from the stored messages.

import type { Command } from 'commander';
import { type GlobalOptions, printJson, printLine, withEngine } from '../context.js';

export function registerReindex(program: Command, globals: () => GlobalOptions): void {
  program
    .command('reindex')
    .description('rebuild the keyword index from the stored messages')
    .action(async () => {
      const global = globals();
      const { reindex } = await import('../../../index/index.js');
      await withEngine(global, (engine) => {
        const db = engine.archive.db;
        const started = Date.now();
        const tty = process.stderr.isTTY && !global.json;
        const result = reindex(db, (p) => {
          if (tty)
            process.stderr.write(
              `\r\u001b[2Kreindexing ${p.done.toLocaleString('en')} / ${p.total.toLocaleString('en')}`,
            );
        });
        if (tty) process.stderr.write('\n');
        const elapsedMs = Date.now() - started;
        if (global.json) printJson({ ...result, elapsedMs });
        else
          printLine(
            `indexed ${result.indexed.toLocaleString('en')} messages in ${(elapsedMs / 1000).toFixed(1)} s`,
          );
      });
    });
}

// mailsift status: counts of messages, threads, inboxes, duplicates, and the failures.

import type { Command } from 'commander';
import { type GlobalOptions, printJson, printLine, withEngine } from '../context.js';

export function registerStatus(program: Command, globals: () => GlobalOptions): void {
  program
    .command('status')
    .description('show what the archive holds, per inbox, and the messages that failed to ingest')
    .action(async () => {
      const global = globals();
      const stats = await withEngine(global, (engine) => engine.status());
      if (global.json) return printJson(stats);
      printLine(
        `${stats.messages} messages · ${stats.threads} threads · ${stats.inboxes} inbox(es) · ` +
          `${stats.duplicates} duplicates · ${stats.variants} variants · ${stats.failures} failures`,
      );
      for (const inbox of stats.perInbox) {
        printLine(
          `  ${inbox.inbox}: ${inbox.messages} messages, ${inbox.threads} threads, ${inbox.duplicates} duplicates, ` +
            `${inbox.variants} variants, ${inbox.failures} failures`,
        );
        for (const source of inbox.sources) {
          printLine(
            `    ${source.kind} ${source.path} (last complete run ${source.lastRunCompletedAt ?? 'never'})`,
          );
        }
      }
      if (stats.failureList.length > 0) printLine('failures:');
      for (const failure of stats.failureList)
        printLine(`  ${failure.source} ${failure.location}: ${failure.reason}`);
    });
}

// mailsift extract: extracts the text of attachments stored without it (after
// `ingest --no-extract`, or an ingest that was interrupted) and re-indexes their messages.

import type { Command } from 'commander';
import type { ExtractPendingReport } from '../../../pipeline/extract-pending.js';
import { positiveInteger } from '../arguments.js';
import { type GlobalOptions, printJson, printLine, withEngine } from '../context.js';
import { countProgress } from '../progress.js';

export function extractionLine(report: ExtractPendingReport): string {
  return (
    `extracted ${report.attachments} attachment(s): ${report.ok} ok, ${report.skipped} skipped, ` +
    `${report.failed} failed; ${report.messagesReindexed} message(s) re-indexed, ${report.remaining} pending`
  );
}

export function registerExtract(program: Command, globals: () => GlobalOptions): void {
  program
    .command('extract')
    .description('extract the text of attachments stored without it yet, and re-index their messages')
    .option('--limit <n>', 'stop after this many attachments', positiveInteger('--limit'))
    .action(async (options: { limit?: number }) => {
      const global = globals();
      const report = await withEngine(global, (engine) =>
        engine.extractPending({ limit: options.limit, onProgress: countProgress('extracting attachments') }),
      );
      if (global.json) return printJson(report);
      printLine(extractionLine(report));
    });
}

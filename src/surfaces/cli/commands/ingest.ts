// mailsift ingest <path>... [--inbox NAME]

import { type Command, Option } from 'commander';
import { nonNegativeInteger } from '../arguments.js';
import { type GlobalOptions, printJson, printLine, withEngine } from '../context.js';
import { terminalProgress } from '../progress.js';

export function registerIngest(program: Command, globals: () => GlobalOptions): void {
  program
    .command('ingest')
    .description('ingest mailboxes (mbox files, Maildir folders, .eml trees) into the archive')
    .argument('<paths...>', 'mailbox files or directories')
    .option('--inbox <name>', 'inbox the messages belong to', process.env.MAILSIFT_INBOX ?? 'default')
    .addOption(
      new Option('--mbox-format <format>', 'how >From lines were escaped')
        .choices(['mboxrd', 'mboxo'])
        .default('mboxrd'),
    )
    .option('--workers <n>', 'parser worker threads (0 = parse inline)', nonNegativeInteger('--workers'))
    .option('--batch-size <n>', 'messages per transaction', nonNegativeInteger('--batch-size'))
    .action(
      async (
        paths: string[],
        options: { inbox: string; mboxFormat: string; workers?: number; batchSize?: number },
      ) => {
        const global = globals();
        const onProgress = global.json ? null : terminalProgress();
        const report = await withEngine(global, (engine) =>
          engine.ingest(paths, {
            inbox: options.inbox,
            mboxFormat: options.mboxFormat === 'mboxo' ? 'mboxo' : 'mboxrd',
            workers: options.workers,
            batchSize: options.batchSize,
            onProgress: onProgress ?? undefined,
          }),
        );
        if (global.json) return printJson(report);
        const seconds = Math.max(report.elapsedMs / 1000, 0.001);
        printLine(
          `ingested ${report.sources.length} source(s) into inbox '${report.inbox}' in ${seconds.toFixed(1)} s: ` +
            `${report.scanned} scanned, ${report.added} new, ${report.duplicates} duplicates, ${report.variants} variants, ` +
            `${report.unchanged} unchanged, ${report.failed} failed, ${report.deleted} deleted ` +
            `(${Math.round(report.scanned / seconds)} msg/s)`,
        );
      },
    );
}

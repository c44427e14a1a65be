// mailsift ingest <path>... [--inbox NAME]

import type { Command } from 'commander';
import { type GlobalOptions, printJson, printLine, withEngine } from '../context.js';
import { terminalProgress } from '../progress.js';

export function registerIngest(program: Command, globals: () => GlobalOptions): void {
  program
    .command('ingest')
    .description('ingest mailboxes (mbox files, Maildir folders, .eml trees) into the archive')
    .argument('<paths...>', 'mailbox files or directories')
    .option('--inbox <name>', 'inbox the messages belong to', process.env.MAILSIFT_INBOX ?? 'default')
    .option('--mbox-format <format>', 'mbox escaping: mboxrd or mboxo', 'mboxrd')
    .option('--workers <n>', 'parser worker threads (0 = parse inline)')
    .action(async (paths: string[], options: { inbox: string; mboxFormat: string; workers?: string }) => {
      const global = globals();
      const onProgress = global.json ? null : terminalProgress();
      const report = await withEngine(global, (engine) =>
        engine.ingest(paths, {
          inbox: options.inbox,
          mboxFormat: options.mboxFormat === 'mboxo' ? 'mboxo' : 'mboxrd',
          workers: options.workers === undefined ? undefined : Number(options.workers),
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
    });
}

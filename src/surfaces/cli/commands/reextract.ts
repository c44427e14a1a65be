// mailsift reextract --type pdf: extract one format's attachments again (after a library upgrade).

import type { Command } from 'commander';
import { type GlobalOptions, printJson, printLine, withEngine } from '../context.js';
import { countProgress } from '../progress.js';

export function registerReextract(program: Command, globals: () => GlobalOptions): void {
  program
    .command('reextract')
    .description('extract the text of every stored attachment of one format again, and re-index its messages')
    .requiredOption(
      '--type <format>',
      'pdf, docx, xlsx, pptx, odt, ods, odp, rtf, html, text, csv, ics, vcard, message, zip, tnef',
    )
    .action(async (options: { type: string }) => {
      const global = globals();
      const report = await withEngine(global, (engine) =>
        engine.reextract(options.type.toLowerCase(), { onProgress: countProgress('re-extracting') }),
      );
      if (global.json) return printJson(report);
      printLine(
        `re-extracted ${report.attachments} ${report.format} attachment(s): ${report.ok} ok, ${report.skipped} skipped, ` +
          `${report.failed} failed; ${report.messagesReindexed} message(s) re-indexed`,
      );
    });
}

// mailsift attachment <messageId> <n|filename> [--text | --out FILE]

import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { MailsiftError } from '../../../core/errors.js';
import { withBackend } from '../backend.js';
import { type GlobalOptions, printJson, printLine } from '../context.js';

export function registerAttachment(program: Command, globals: () => GlobalOptions): void {
  program
    .command('attachment')
    .description('print the extracted text of an attachment, or write its bytes to a file')
    .argument('<messageId>', 'Message-ID, with or without angle brackets')
    .argument('<attachment>', '0-based number or filename, as `show` lists them')
    .option('--inbox <name>', 'look only in this inbox')
    .option('--text', 'print the extracted text (the default)')
    .option('--out <file>', 'write the attachment bytes to this file')
    .action(async (id: string, which: string, options: { inbox?: string; text?: boolean; out?: string }) => {
      const global = globals();
      if (options.text && options.out) {
        throw new MailsiftError('invalid_argument', 'give either --text or --out, not both', {
          param: '--out',
        });
      }
      const { ordinal, attachment, content } = await withBackend(global, {
        sqlite: (engine) => engine.getAttachment(id, which, options),
        opensearch: async (target) =>
          (await import('../../../backend/opensearch/reader.js')).getAttachment(target, id, which, options),
      });
      if (options.out) {
        await writeFile(options.out, content);
        if (global.json)
          printJson({ ordinal, filename: attachment.filename, bytes: content.length, out: options.out });
        else
          printLine(
            `wrote ${content.length} bytes of ${attachment.filename ?? `attachment ${ordinal}`} to ${options.out}`,
          );
        return;
      }
      const extraction = attachment.extraction;
      if (global.json) {
        return printJson({ ordinal, ...attachment, size: attachment.size, extraction });
      }
      if (!extraction)
        throw new MailsiftError('no_such_item', 'this attachment has no extracted text', {
          param: 'attachment',
        });
      if (extraction.status !== 'ok') {
        throw new MailsiftError(
          'no_such_item',
          `no text: extraction ${extraction.status} (${extraction.reason})`,
          {
            param: 'attachment',
          },
        );
      }
      printLine(extraction.text);
    });
}

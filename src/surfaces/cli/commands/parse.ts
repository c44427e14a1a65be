// mailsift parse <file.eml>...: parse (and clean) files without a database, as JSON.

import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { MailsiftError } from '../../../core/errors.js';
import type { GlobalOptions } from '../context.js';

export function registerParse(program: Command, _globals: () => GlobalOptions): void {
  program
    .command('parse')
    .description('parse message files and print their fields as JSON (one object per line for several files)')
    .argument('<files...>', '.eml files')
    .action(async (files: string[]) => {
      const [{ parseMessage }, { cleanMessage }] = await Promise.all([
        import('../../../parse/index.js'),
        import('../../../clean/index.js'),
      ]);
      for (const file of files) {
        const bytes = await readFile(file).catch((error: NodeJS.ErrnoException) => {
          const code = error.code === 'ENOENT' ? 'not_found' : 'unreadable';
          throw new MailsiftError(code, `cannot read ${file}: ${error.message}`, { param: file });
        });
        const parsed = await parseMessage(bytes);
        const cleaned = cleanMessage({ text: parsed.text, html: parsed.html });
        const json = {
          messageId: parsed.messageId,
          from: parsed.from,
          to: parsed.to,
          cc: parsed.cc,
          subject: parsed.subject,
          date: parsed.date.toISOString(),
          references: parsed.references,
          inReplyTo: parsed.inReplyTo,
          text: parsed.text,
          html: parsed.html,
          attachments: parsed.attachments.map(({ content: _content, ...meta }) => meta),
          authored: cleaned.authored,
          quoted: cleaned.quoted,
          forwarded: cleaned.forwarded,
          signature: cleaned.signature,
          disclaimer: cleaned.disclaimer,
          footer: cleaned.footer,
          labels: parsed.labels,
          auth: parsed.auth,
          warnings: parsed.warnings,
        };
        process.stdout.write(`${JSON.stringify(json, null, files.length > 1 ? undefined : 2)}\n`);
      }
    });
}

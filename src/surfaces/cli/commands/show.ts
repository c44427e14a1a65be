// mailsift show <messageId> [--raw]

import type { Command } from 'commander';
import { type GlobalOptions, printJson, printLine, withEngine } from '../context.js';
import { messageJson, messageText } from '../format.js';

export function registerShow(program: Command, globals: () => GlobalOptions): void {
  program
    .command('show')
    .description('print a message: headers, labels, folders, thread and body')
    .argument('<messageId>', 'Message-ID, with or without angle brackets')
    .option('--inbox <name>', 'look only in this inbox')
    .option('--raw', 'print the original RFC 5322 bytes')
    .action(async (id: string, options: { inbox?: string; raw?: boolean }) => {
      const global = globals();
      await withEngine(global, (engine) => {
        if (options.raw) {
          process.stdout.write(engine.getRaw(id, options));
          return;
        }
        const message = engine.getMessage(id, options);
        if (global.json) printJson(messageJson(message));
        else printLine(messageText(message));
      });
    });
}

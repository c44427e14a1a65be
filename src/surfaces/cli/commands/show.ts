// mailsift show <messageId> [--raw]

import type { Command } from 'commander';
import { withBackend } from '../backend.js';
import { type GlobalOptions, printJson, printLine } from '../context.js';
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
      const reader = async () => import('../../../backend/opensearch/reader.js');
      if (options.raw) {
        process.stdout.write(
          await withBackend(global, {
            sqlite: (engine) => engine.getRaw(id, options),
            opensearch: async (target) => (await reader()).getRaw(target, id, options),
          }),
        );
        return;
      }
      const message = await withBackend(global, {
        sqlite: (engine) => engine.getMessage(id, options),
        opensearch: async (target) => (await reader()).getMessage(target, id, options),
      });
      if (global.json) printJson(messageJson(message));
      else printLine(messageText(message));
    });
}

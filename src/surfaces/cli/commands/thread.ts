// mailsift thread <threadId|messageId>: the thread tree in date order with depth.

import type { Command } from 'commander';
import { withBackend } from '../backend.js';
import { type GlobalOptions, printJson, printLine } from '../context.js';
import { formatAddress } from '../format.js';

export function registerThread(program: Command, globals: () => GlobalOptions): void {
  program
    .command('thread')
    .description('print a thread as a tree, in date order, with depth')
    .argument('<id>', 'thread id, or the Message-ID of any message in it')
    .option('--inbox <name>', 'look only in this inbox')
    .action(async (id: string, options: { inbox?: string }) => {
      const global = globals();
      const thread = await withBackend(global, {
        sqlite: (engine) => engine.getThread(id, options),
        opensearch: async (target) =>
          (await import('../../../backend/opensearch/reader.js')).getThread(target, id, options),
      });
      if (global.json) {
        return printJson({
          inboxId: thread.inbox,
          threadId: thread.threadId,
          messages: thread.entries.map(({ message, depth }) => ({
            depth,
            messageId: message.messageId,
            timestamp: message.date.toISOString(),
            from: message.from,
            subject: message.subject,
            inReplyTo: message.inReplyTo,
          })),
        });
      }
      printLine(`thread ${thread.threadId} (${thread.entries.length} messages, inbox ${thread.inbox})`);
      for (const { message, depth } of thread.entries) {
        printLine(
          `${'  '.repeat(depth)}${depth > 0 ? '└ ' : ''}${message.date.toISOString().slice(0, 16).replace('T', ' ')}  ` +
            `${formatAddress(message.from)}  ${message.subject}  <${message.messageId}>`,
        );
      }
    });
}

// mailsift list [--from] [--to] [--subject] [--label] [--before] [--after] [--has-attachment] [--attachment-type] [--thread] ...

import type { Command } from 'commander';
import { withBackend } from '../backend.js';
import { type GlobalOptions, printJson, printLine } from '../context.js';
import { limitOption } from './search.js';

interface ListOptions {
  inbox?: string;
  from?: string;
  to?: string;
  subject?: string;
  label?: string[];
  before?: string;
  after?: string;
  hasAttachment?: boolean;
  attachmentType?: string;
  thread?: string;
  ascending?: boolean;
  includeSpam?: boolean;
  includeTrash?: boolean;
  limit?: string;
  pageToken?: string;
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

export function registerList(program: Command, globals: () => GlobalOptions): void {
  program
    .command('list')
    .description('list messages matching every filter, newest first (never scored)')
    .option('--inbox <name>', 'only this inbox')
    .option('--from <text>', 'sender name or address, prefix match per word (stripe.com, noreply@github)')
    .option('--to <text>', 'recipient (to, cc, bcc), prefix match per word')
    .option('--subject <text>', 'subject words, prefix match')
    .option('--label <label>', 'required label (repeatable)', collect)
    .option('--before <date>', 'before this date (ISO 8601)')
    .option('--after <date>', 'on or after this date (ISO 8601)')
    .option('--has-attachment', 'only messages with attachments')
    .option(
      '--attachment-type <type>',
      'only messages with an attachment of this format (pdf, docx, xlsx, image, …) or MIME type (application/pdf, image/*)',
    )
    .option('--thread <threadId>', 'only this thread')
    .option('--ascending', 'oldest first')
    .option('--include-spam', 'include messages labelled spam')
    .option('--include-trash', 'include messages labelled trash')
    .option('--limit <n>', 'results per page (1–100, default 10)')
    .option('--page-token <token>', 'continue from a previous page')
    .action(async (options: ListOptions) => {
      const global = globals();
      const { listMessages } = await import('../../../search/index.js');
      const { label, thread, limit, ...rest } = options;
      const params = Object.fromEntries(
        Object.entries({
          ...rest,
          labels: label,
          threadId: thread,
          limit: limitOption(limit),
        }).filter(([, v]) => v !== undefined),
      );
      const result = await withBackend(global, {
        sqlite: (engine) => listMessages(engine.archive.db, params),
        opensearch: async (target) =>
          (await import('../../../backend/opensearch/search.js')).listMessages(target, params),
      });
      if (global.json) return printJson(result);
      const lines = result.messages.map(
        (m) =>
          `${m.timestamp.slice(0, 16).replace('T', ' ')}  ${(m.from ?? '').padEnd(40).slice(0, 40)}  ${m.subject}  <${m.messageId}>`,
      );
      if (result.count === 0) lines.push('no messages');
      if (result.nextPageToken) lines.push('', `next page: --page-token ${result.nextPageToken}`);
      printLine(lines.join('\n'));
    });
}

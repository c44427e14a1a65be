// mailsift decisions [--inbox NAME] [--thread ID] [--q TEXT] [--after DATE] [--before DATE] [--limit N]
// [--page-token T]: what threads decided, newest first, each with its verbatim evidence.

import type { Command } from 'commander';
import { positiveInteger } from '../arguments.js';
import { type GlobalOptions, printJson, printLine, withEngine } from '../context.js';

interface DecisionsOptions {
  inbox?: string;
  thread?: string;
  q?: string;
  after?: string;
  before?: string;
  limit?: number;
  pageToken?: string;
}

export function registerDecisions(program: Command, globals: () => GlobalOptions): void {
  program
    .command('decisions')
    .description('list what threads decided (proposal, objections, agreement), newest first')
    .option('--inbox <name>', 'only this inbox')
    .option('--thread <id>', 'only this thread (thread id, or the Message-ID of any message in it)')
    .option('--q <text>', 'only decisions whose statement or evidence holds every word')
    .option('--after <date>', 'decided on or after this date (ISO 8601)')
    .option('--before <date>', 'decided before this date (ISO 8601)')
    .option('--limit <n>', 'decisions in a page (default 50, at most 100)', positiveInteger('--limit'))
    .option('--page-token <token>', "the previous page's next page token, with the same filters")
    .action(async (options: DecisionsOptions) => {
      const global = globals();
      const { decisionsJson, findDecisions } = await import('../../../decisions/index.js');
      const { thread, ...rest } = options;
      await withEngine(global, (engine) => {
        const found = findDecisions(engine.archive.db, { ...rest, threadId: thread });
        if (global.json) return printJson(decisionsJson(found));
        const lines: string[] = [];
        for (const d of found.decisions) {
          lines.push(
            `${d.decidedAt.toISOString().slice(0, 16).replace('T', ' ')}  [${d.status}, ${d.kind}, ${d.confidence.toFixed(2)}${d.method === 'llm' ? ', phrased by the llm' : ''}]  thread ${d.threadId}`,
            `  ${d.statement}`,
          );
          for (const e of d.evidence) lines.push(`    ${e.role.padEnd(9)} <${e.messageId}>  "${e.quote}"`);
        }
        if (found.decisions.length === 0) lines.push('no decisions');
        if (found.nextPageToken !== null) lines.push(`next page: --page-token ${found.nextPageToken}`);
        printLine(lines.join('\n'));
      });
    });
}

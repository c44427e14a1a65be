// mailsift search "<q>" [--inbox] [--threads] [--limit] [--page-token] [--before] [--after] [--explain]

import type { Command } from 'commander';
import type {
  MessageHit,
  MessageSearchResult,
  ThreadHit,
  ThreadSearchResult,
} from '../../../search/index.js';
import { withBackend } from '../backend.js';
import { type GlobalOptions, printJson, printLine } from '../context.js';

interface SearchOptions {
  inbox?: string;
  threads?: boolean;
  limit?: string;
  pageToken?: string;
  before?: string;
  after?: string;
  explain?: boolean;
}

/** Commander hands over strings; a non-integer limit reaches validation as NaN and is named there. */
export function limitOption(value: string | undefined): number | undefined {
  return value === undefined ? undefined : /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
}

function highlightLines(highlights: MessageHit['highlights']): string[] {
  return Object.entries(highlights).flatMap(([field, fragments]) =>
    (fragments ?? []).map((f) => `    ${field}: ${f}`),
  );
}

function messageLines(hit: MessageHit, rank: number): string[] {
  return [
    `${rank}. ${hit.subject || '(no subject)'}  [${hit.score.toFixed(3)}]`,
    `   ${hit.timestamp.slice(0, 10)}  ${hit.from ?? ''}  <${hit.messageId}>`,
    ...highlightLines(hit.highlights),
    ...(hit.explain ? [`    explain: ${JSON.stringify(hit.explain)}`] : []),
  ];
}

function threadLines(hit: ThreadHit, rank: number): string[] {
  return [
    `${rank}. ${hit.subject || '(no subject)'}  (${hit.messageCount} messages)  [${hit.score.toFixed(3)}]`,
    `   ${hit.timestamp.slice(0, 10)}  ${hit.senders.join(', ')}  thread ${hit.threadId}`,
    ...highlightLines(hit.highlights),
  ];
}

export function registerSearch(program: Command, globals: () => GlobalOptions): void {
  program
    .command('search')
    .description('relevance search: one query string, every word required, best matches first')
    .argument('<query>', 'words, an identifier (INV-4471), an address or a prefix of one')
    .option('--inbox <name>', 'search only this inbox')
    .option('--threads', 'return threads instead of messages')
    .option('--limit <n>', 'results per page (1–100, default 10)')
    .option('--page-token <token>', 'continue from a previous page')
    .option('--before <date>', 'only messages before this date (ISO 8601)')
    .option('--after <date>', 'only messages on or after this date (ISO 8601)')
    .option('--explain', 'show per-field contributions and the recency factor')
    .action(async (q: string, options: SearchOptions) => {
      const global = globals();
      const { searchMessages, searchThreads } = await import('../../../search/index.js');
      const params = {
        q,
        ...(options.inbox !== undefined ? { inbox: options.inbox } : {}),
        ...(options.limit !== undefined ? { limit: limitOption(options.limit) } : {}),
        ...(options.pageToken !== undefined ? { pageToken: options.pageToken } : {}),
        ...(options.before !== undefined ? { before: options.before } : {}),
        ...(options.after !== undefined ? { after: options.after } : {}),
        ...(options.explain ? { explain: true } : {}),
      };
      const result = await withBackend<MessageSearchResult | ThreadSearchResult>(global, {
        sqlite: (engine) =>
          options.threads
            ? searchThreads(engine.archive.db, params)
            : searchMessages(engine.archive.db, params),
        opensearch: async (target) => {
          const opensearch = await import('../../../backend/opensearch/search.js');
          return options.threads
            ? opensearch.searchThreads(target, params)
            : opensearch.searchMessages(target, params);
        },
      });
      if (global.json) return printJson(result);
      const lines =
        'threads' in result
          ? result.threads.flatMap((hit, i) => threadLines(hit, i + 1))
          : result.messages.flatMap((hit, i) => messageLines(hit, i + 1));
      if (result.count === 0) lines.push('no matches');
      if (result.degraded) lines.push(`(skipped: ${result.degraded.join(', ')})`);
      if (result.nextPageToken) lines.push('', `next page: --page-token ${result.nextPageToken}`);
      printLine(lines.join('\n'));
    });
}

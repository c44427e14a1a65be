// mailsift retrieve "<question>": the context pack alone (passages with ids, dates and
// senders within a token budget), for users who bring their own LLM.

import type { Command } from 'commander';
import type { RetrieveOptions } from '../../../rag/index.js';
import { positiveInteger } from '../arguments.js';
import { type GlobalOptions, printJson, printLine, withEngine } from '../context.js';

/**
 * The filters a question set, for a person: the hard ones, then the senders only raised;
 * null when there are none.
 */
export function filtersLine(filters: {
  applied: readonly string[];
  boosted: readonly string[];
}): string | null {
  const { applied, boosted } = filters;
  if (applied.length === 0 && boosted.length === 0) return null;
  const raised = boosted.length > 0 ? `; raised, not filtered: ${boosted.join(', ')}` : '';
  return `filters: ${applied.length > 0 ? applied.join(', ') : 'none'}${raised}`;
}

/** What `retrieve` and `ask` both take to shape the context pack. */
export interface PackOptions {
  readonly inbox?: string;
  readonly limit?: number;
  readonly budget?: number;
}

/** Adds the pack's options (inbox, threads, token budget) to a command. */
export function withPackOptions(command: Command): Command {
  return command
    .option('--inbox <name>', 'search this inbox only')
    .option('--limit <n>', 'threads to retrieve (default 5)', positiveInteger('--limit'))
    .option('--budget <tokens>', 'token budget of the pack (default 2000)', positiveInteger('--budget'));
}

/** The retrieval options those flags give. */
export function packOptions(options: PackOptions): Pick<RetrieveOptions, 'inbox' | 'limit' | 'budget'> {
  return {
    ...(options.inbox ? { inbox: options.inbox } : {}),
    ...(options.limit ? { limit: options.limit } : {}),
    ...(options.budget ? { budget: options.budget } : {}),
  };
}

export function registerRetrieve(program: Command, globals: () => GlobalOptions): void {
  const command = program
    .command('retrieve')
    .description(
      'retrieve the context pack for a question (hybrid with an embedder configured, else keyword)',
    )
    .argument('<question>', 'a question in words, any language');
  withPackOptions(command)
    .option('--keyword', 'skip the vector leg')
    .action(async (question: string, options: PackOptions & { keyword?: boolean }) => {
      const global = globals();
      const { configuredProviders, questionProviders } = await import('../providers.js');
      const providers = configuredProviders();
      const { llm } = providers;
      const result = await withEngine(global, (engine) =>
        engine.retrieve(question, {
          ...packOptions(options),
          ...(options.keyword ? { mode: 'keyword' as const } : {}),
          ...questionProviders(providers, engine.archive.db),
        }),
      ).finally(() => llm?.close?.());
      if (global.json) return printJson(result);
      printLine(
        `${result.mode} retrieval${result.degraded ? ` (degraded: ${result.degraded})` : ''}, ${result.passages.length} passages, ~${result.tokens} tokens`,
      );
      const filters = filtersLine(result.filters);
      if (filters) printLine(filters);
      for (const note of result.notes) printLine(`note: ${note}`);
      if (result.refinement)
        printLine(
          `also searched, as ${result.refinement.by} rephrased it: ${result.refinement.rephrasings.join(' | ')}`,
        );
      for (const p of result.passages) {
        printLine(`\n--- ${p.kind} · ${p.date.slice(0, 10)} · ${p.from || p.subject} · <${p.messageIds[0]}>`);
        printLine(p.text);
      }
    });
}

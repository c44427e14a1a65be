// mailsift ask "<question>": an answer citing a Message-ID for every claim — written by the
// configured LLM (citations checked against what was retrieved), or extractive without one.

import type { Command } from 'commander';
import { type GlobalOptions, printJson, printLine, withEngine } from '../context.js';
import { filtersLine, type PackOptions, packOptions, withPackOptions } from './retrieve.js';

export function registerAsk(program: Command, globals: () => GlobalOptions): void {
  // --budget matters most with a local model: reading the prompt is most of its time.
  withPackOptions(
    program
      .command('ask')
      .description('answer a question from the archive with citations (LLM when configured, else extractive)')
      .argument('<question>', 'a question in words, any language'),
  ).action(async (question: string, options: PackOptions) => {
    const global = globals();
    const { configuredProviders, questionProviders } = await import('../providers.js');
    const providers = configuredProviders();
    const { llm } = providers;
    // A local model holds native threads and memory: free them, or the process would not exit.
    const answer = await withEngine(global, (engine) =>
      engine.ask(question, {
        ...packOptions(options),
        ...questionProviders(providers, engine.archive.db),
        ...(llm ? { llm } : {}),
      }),
    ).finally(() => llm?.close?.());
    if (global.json) return printJson(answer);
    printLine(answer.answer);
    if (answer.unknownCitations.length > 0)
      printLine(`\nWARNING: cites messages that were not retrieved: ${answer.unknownCitations.join(', ')}`);
    if (answer.retrieval.degraded) printLine(`\n(${answer.retrieval.degraded})`);
    const filters = filtersLine(answer.retrieval.filters);
    if (filters) printLine(`\n(${filters})`);
    printLine('\nSources:');
    for (const c of answer.citations)
      printLine(`  ${c.date.slice(0, 10)}  ${c.from}  ${c.subject}  <${c.messageId}>`);
  });
}

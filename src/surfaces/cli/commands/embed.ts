// mailsift embed: chunks what changed and drains the embedding backlog through the
// configured embedder; with an LLM configured, it then writes the waiting thread summaries
// and embeds those. What fails stays queued for the next run.

import type { Command } from 'commander';
import { MailsiftError } from '../../../core/errors.js';
import { embedPending, type SummarizeReport, summarizePending } from '../../../rag/index.js';
import { positiveInteger } from '../arguments.js';
import { type GlobalOptions, printJson, printLine, withEngine } from '../context.js';
import { configuredEmbedder, configuredLlm } from '../providers.js';

export function registerEmbed(program: Command, globals: () => GlobalOptions): void {
  program
    .command('embed')
    .description(
      'embed pending chunks with the configured embedder (mailsift.config.json or MAILSIFT_EMBEDDER_*)',
    )
    .option('--batch <n>', 'chunks per request (default 64)', positiveInteger('--batch'))
    .action(async (options: { batch?: number }) => {
      const global = globals();
      const embedder = configuredEmbedder();
      if (!embedder)
        throw new MailsiftError(
          'invalid_argument',
          'no embedder configured: set embedder in mailsift.config.json or MAILSIFT_EMBEDDER_URL and MAILSIFT_EMBEDDER_MODEL',
          { param: 'embedder' },
        );
      const llm = configuredLlm();
      const { report, summaries } = await withEngine(global, async (engine) => {
        const embed = () => embedPending(engine, embedder, options.batch ? { batch: options.batch } : {});
        // Vectors first: summaries are slow with a local model, and retrieval works without them.
        let report = await embed();
        let summaries: SummarizeReport | undefined;
        if (llm && !report.error) {
          try {
            summaries = await summarizePending(
              engine,
              llm,
              embedder.tokenizer ? { tokenizer: embedder.tokenizer } : {},
            );
          } finally {
            await llm.close?.();
          }
          if (summaries.written > 0) report = await embed();
        }
        return { report, summaries };
      });
      if (global.json) printJson(summaries ? { ...report, summaries } : report);
      else {
        printLine(
          `embedded ${report.embedded} chunks, ${report.remaining} pending${report.reset ? ' (new model: re-embedding everything)' : ''}${report.error ? `; stopped: ${report.error}` : ''}`,
        );
        if (summaries)
          printLine(
            `wrote ${summaries.written} thread summaries with the LLM, ${summaries.remaining} waiting${summaries.error ? `; stopped: ${summaries.error}` : ''}`,
          );
      }
      if (report.error) process.exitCode = 1;
    });
}

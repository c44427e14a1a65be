// mailsift embed: chunks what changed and drains the embedding backlog through the
// configured embedder; what fails stays queued for the next run.

import type { Command } from 'commander';
import { MailsiftError } from '../../../core/errors.js';
import { embedPending } from '../../../rag/index.js';
import { positiveInteger } from '../arguments.js';
import { type GlobalOptions, printJson, printLine, withEngine } from '../context.js';
import { configuredEmbedder } from '../providers.js';

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
      const report = await withEngine(global, (engine) =>
        embedPending(engine, embedder, options.batch ? { batch: options.batch } : {}),
      );
      if (global.json) printJson(report);
      else
        printLine(
          `embedded ${report.embedded} chunks, ${report.remaining} pending${report.reset ? ' (new model: re-embedding everything)' : ''}${report.error ? `; stopped: ${report.error}` : ''}`,
        );
      if (report.error) process.exitCode = 1;
    });
}

// mailsift embed: chunks what changed and drains the embedding backlog through the
// configured embedder; with an LLM configured, it then writes the waiting thread summaries
// and embeds those. What fails stays queued for the next run.

import type { Command } from 'commander';
import { MailsiftError } from '../../../core/errors.js';
import { positiveInteger } from '../arguments.js';
import { type GlobalOptions, printJson, printLine, withEngine } from '../context.js';

export function registerEmbed(program: Command, globals: () => GlobalOptions): void {
  program
    .command('embed')
    .description(
      'embed pending chunks with the configured embedder (mailsift.config.json or MAILSIFT_EMBEDDER_*)',
    )
    .option('--batch <n>', 'chunks per request (default 64)', positiveInteger('--batch'))
    .action(async (options: { batch?: number }) => {
      const global = globals();
      const [{ drainBacklogs, drainLines }, { afterDrainLease }, { configuredEmbedder, configuredLlm }] =
        await Promise.all([import('../drain.js'), import('../drain-lease.js'), import('../providers.js')]);
      const embedder = configuredEmbedder();
      if (!embedder)
        throw new MailsiftError(
          'invalid_argument',
          'no embedder configured: set embedder in mailsift.config.json or MAILSIFT_EMBEDDER_URL and MAILSIFT_EMBEDDER_MODEL',
          { param: 'embedder' },
        );
      const llm = configuredLlm();
      const drained = await withEngine(global, async (engine) => {
        try {
          return await afterDrainLease(
            engine.archive.db,
            () => drainBacklogs(engine, { embedder, llm }, options.batch ? { batch: options.batch } : {}),
            (holder) =>
              process.stderr.write(`mailsift embed: waiting for ${holder}, which is draining this archive\n`),
          );
        } finally {
          await llm?.close?.();
        }
      });
      const { embedding, summaries } = drained;
      if (global.json) printJson({ ...embedding, ...(summaries ? { summaries } : {}) });
      else for (const line of drainLines(drained)) printLine(line);
      if (embedding?.error) process.exitCode = 1;
    });
}

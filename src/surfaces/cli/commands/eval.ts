// mailsift eval <questions-file>: runs a known-question set, stores the run, lists what got
// worse since the previous run, and exits non-zero for CI when quality dropped.

import type { Command } from 'commander';
import { MailsiftError } from '../../../core/errors.js';
import { type GlobalOptions, printJson, printLine, withEngine } from '../context.js';

function ratio(value: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number < 0 || number > 1)
    throw new MailsiftError(
      'invalid_argument',
      `--fail-under must be a ratio between 0 and 1, got '${value}'`,
      {
        param: '--fail-under',
      },
    );
  return number;
}

export function registerEval(program: Command, globals: () => GlobalOptions): void {
  program
    .command('eval')
    .description('run a known-question set (YAML or JSON) and report recall@1/5/10, MRR and regressions')
    .argument(
      '<questions-file>',
      'question set: a list of {id, query | question, messageIds, threadIds, mustNotFind, language}',
    )
    .option('--inbox <name>', 'evaluate against this inbox only')
    .option('--fail-under <ratio>', 'exit non-zero when recall@10 is below this ratio (0–1)', ratio)
    .option('--no-store', 'do not record this run in the archive')
    .action(async (file: string, options: { inbox?: string; failUnder?: number; store: boolean }) => {
      const global = globals();
      const [
        { evalExitCode, formatEvalReport, loadQuestionFile, runEval },
        { ragRetriever },
        { configuredEmbedder },
      ] = await Promise.all([
        import('../../../eval/index.js'),
        import('../../../rag/index.js'),
        import('../providers.js'),
      ]);
      const set = loadQuestionFile(file);
      const embedder = configuredEmbedder();
      const report = await withEngine(global, (engine) =>
        runEval(engine, set, {
          ...(options.inbox ? { inbox: options.inbox } : {}),
          store: options.store,
          retrievers: { question: ragRetriever(engine, embedder) },
        }),
      );
      if (global.json) printJson(report);
      else
        printLine(
          formatEvalReport(report, { colour: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR }),
        );
      process.exitCode = evalExitCode(report, options.failUnder);
    });
}

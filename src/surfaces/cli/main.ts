#!/usr/bin/env node
// The mailsift command line: parses arguments, resolves --db / MAILSIFT_* settings,
// calls the engine, and maps errors to exit codes.

import { Command } from 'commander';
import { registerAsk } from './commands/ask.js';
import { registerAttachment } from './commands/attachment.js';
import { registerCheck } from './commands/check.js';
import { registerDecisions } from './commands/decisions.js';
import { registerEmbed } from './commands/embed.js';
import { registerEval } from './commands/eval.js';
import { registerExtract } from './commands/extract.js';
import { registerIngest } from './commands/ingest.js';
import { registerKeys } from './commands/keys.js';
import { registerList } from './commands/list.js';
import { registerMcp } from './commands/mcp.js';
import { registerParse } from './commands/parse.js';
import { registerReclean } from './commands/reclean.js';
import { registerReextract } from './commands/reextract.js';
import { registerReindex } from './commands/reindex.js';
import { registerRetrieve } from './commands/retrieve.js';
import { registerSearch } from './commands/search.js';
import { registerServe } from './commands/serve.js';
import { registerShow } from './commands/show.js';
import { registerStatus } from './commands/status.js';
import { registerThread } from './commands/thread.js';
import { registerWatch } from './commands/watch.js';
import { type GlobalOptions, reportError } from './context.js';

const program = new Command('mailsift')
  .description('local-first email search and retrieval for agents and RAG')
  .option('--db <path>', 'archive database (default ./mailsift.db, or MAILSIFT_DB)')
  .option('--json', 'print JSON')
  .enablePositionalOptions(false)
  .showHelpAfterError();

const globals = (): GlobalOptions => program.opts<GlobalOptions>();
for (const register of [
  registerIngest,
  registerSearch,
  registerList,
  registerStatus,
  registerShow,
  registerThread,
  registerDecisions,
  registerAttachment,
  registerParse,
  registerReindex,
  registerReextract,
  registerReclean,
  registerExtract,
  registerCheck,
  registerEval,
  registerWatch,
  registerServe,
  registerMcp,
  registerKeys,
  registerRetrieve,
  registerAsk,
  registerEmbed,
]) {
  const before = program.commands.length;
  register(program, globals);
  // --db and --json are accepted after the verb too (`mailsift status --json`).
  for (const command of program.commands.slice(before)) {
    command.option('--db <path>', 'archive database').option('--json', 'print JSON');
    command.hook('preAction', (_this, action) => {
      const local = action.opts<GlobalOptions>();
      if (local.db !== undefined) program.setOptionValue('db', local.db);
      if (local.json) program.setOptionValue('json', true);
    });
  }
}

// `mailsift search … | head` closes stdout early: that is the reader's choice, not a failure.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

program.parseAsync(process.argv).catch((error: unknown) => {
  process.exitCode = reportError(error, Boolean(program.opts<GlobalOptions>().json));
});

// mailsift watch: re-syncs the sources on an interval, runs the health checks, and posts a
// JSON alert to a webhook when a check turns fail or recovers (once per transition).

import { resolve } from 'node:path';
import type { Command } from 'commander';
import { describeError } from '../../../core/errors.js';
import { Mailsift } from '../../../engine.js';
import { loadHealthThresholds, parseDuration, startWatch, WebhookSender } from '../../../health/index.js';
import { dbPath, type GlobalOptions, printJson, printLine } from '../context.js';
import { configuredEmbedderProbe } from '../providers.js';

const collect = (value: string, list: string[] = []): string[] => [...list, value];

export function registerWatch(program: Command, globals: () => GlobalOptions): void {
  program
    .command('watch')
    .description(
      're-sync sources on an interval, run the health checks, alert a webhook on fail and recovery',
    )
    .option(
      '--source <path>',
      'a mailbox to sync (repeatable); default: every source the archive knows',
      collect,
    )
    .option('--inbox <name>', 'inbox for --source paths', process.env.MAILSIFT_INBOX ?? 'default')
    .option('--interval <duration>', 'time between cycles: 90s, 5m, 1h', '5m')
    .option('--webhook <url>', 'POST JSON alerts here (or MAILSIFT_WEBHOOK)')
    .action(async (options: { source?: string[]; inbox: string; interval: string; webhook?: string }) => {
      const global = globals();
      const intervalMs = parseDuration(options.interval, '--interval') * 1000;
      const thresholds = loadHealthThresholds();
      const url = options.webhook ?? process.env.MAILSIFT_WEBHOOK;
      const log = (message: string) => process.stderr.write(`mailsift watch: ${message}\n`);
      const webhook = url ? new WebhookSender(url, { onError: log }) : undefined;
      const engine = Mailsift.open(dbPath(global));
      const watcher = startWatch(engine, {
        ...(options.source
          ? { plan: [{ inbox: options.inbox, paths: options.source.map((p) => resolve(p)) }] }
          : {}),
        thresholds,
        embedder: configuredEmbedderProbe(engine),
        ...(webhook ? { webhook } : {}),
        intervalMs,
        onCycle: ({ report, alerts, syncErrors }) => {
          for (const e of syncErrors) log(`sync of inbox ${e.inbox} failed: ${e.error}`);
          if (global.json) return printJson({ checkedAt: report.checkedAt, status: report.status, alerts });
          printLine(`${report.checkedAt} health ${report.status}`);
          for (const a of alerts)
            printLine(`  ${a.event === 'fail' ? 'FAIL' : 'recovered'} ${a.key}: ${a.message}`);
        },
        onError: (error) => log(describeError(error)),
      });
      await new Promise<void>((done) => {
        for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => done());
      });
      await watcher.stop();
      webhook?.close();
      engine.close();
    });
}

// mailsift watch: re-syncs the sources on an interval, embeds and summarises what waits (as
// `mailsift embed`, bounded per cycle), runs the health checks, and posts a JSON alert to a
// webhook when a check turns fail or recovers (once per transition).

import { resolve } from 'node:path';
import type { Command } from 'commander';
import { describeError } from '../../../core/errors.js';
import type { Mailsift } from '../../../engine.js';
import { parseDuration } from '../../../health/duration.js';
import type { ImapOpenOptions, ImapWatcher } from '../../../source/imap/index.js';
import { dbPath, type GlobalOptions, printJson, printLine } from '../context.js';
import { type DrainLimitFlags, withDrainLimitFlags } from '../drain-flags.js';
import { type ImapFlags, imapOptions, withImapFlags } from '../imap-flags.js';
import { DEFAULT_NICE, niceness, runAtNiceness } from '../priority.js';

const collect = (value: string, list: string[] = []): string[] => [...list, value];

interface WatchCommandOptions extends DrainLimitFlags, ImapFlags {
  source?: string[];
  inbox: string;
  interval: string;
  webhook?: string;
  nice: number;
}

export function registerWatch(program: Command, globals: () => GlobalOptions): void {
  const command = program
    .command('watch')
    .description(
      're-sync sources on an interval, embed and summarise what waits, run the health checks, alert a webhook on fail and recovery',
    )
    .option(
      '--source <path>',
      'a mailbox path or imaps:// URL to sync (repeatable); default: every source the archive knows',
      collect,
    )
    .option('--inbox <name>', 'inbox for --source paths', process.env.MAILSIFT_INBOX ?? 'default')
    .option(
      '--interval <duration>',
      'time between cycles: 90s, 5m, 1h (an IMAP INBOX in IDLE starts one when mail arrives)',
      '5m',
    )
    .option('--webhook <url>', 'POST JSON alerts here (or MAILSIFT_WEBHOOK)')
    .option(
      '--nice <n>',
      'CPU priority, 0 (normal) to 19 (lowest): searches served from this machine go first',
      niceness,
      DEFAULT_NICE,
    );
  withImapFlags(withDrainLimitFlags(command, 'per cycle')).action(async (options: WatchCommandOptions) => {
    const global = globals();
    runAtNiceness(options.nice);
    const [
      { Mailsift },
      { loadHealthThresholds, recordedSources, startWatch, WebhookSender },
      { embedderProbe, summaryProbe },
      { drainBacklogs, drainLines },
      { withDrainLease },
      { configuredEmbedder, configuredLlm },
      // Here, not at the top: the URL module loads node:net, which every command's help would pay.
      { isImapUrl },
    ] = await Promise.all([
      import('../../../engine.js'),
      import('../../../health/index.js'),
      import('../../../rag/index.js'),
      import('../drain.js'),
      import('../drain-lease.js'),
      import('../providers.js'),
      import('../../../source/imap/url.js'),
    ]);
    const intervalMs = parseDuration(options.interval, '--interval') * 1000;
    const thresholds = loadHealthThresholds();
    const url = options.webhook ?? process.env.MAILSIFT_WEBHOOK;
    const log = (message: string) => process.stderr.write(`mailsift watch: ${message}\n`);
    const webhook = url ? new WebhookSender(url, { onError: log }) : undefined;
    const engine = Mailsift.open(dbPath(global));
    const embedder = configuredEmbedder();
    const llm = configuredLlm();
    const limits = { maxChunks: options.maxChunks, maxSummaries: options.maxSummaries };
    const imap = imapOptions(options);
    const plan = options.source
      ? [{ inbox: options.inbox, paths: options.source.map((p) => (isImapUrl(p) ? p : resolve(p))), imap }]
      : undefined;
    const watcher = startWatch(engine, {
      ...(plan ? { plan } : {}),
      thresholds,
      ...(embedder ? { embedder: embedderProbe(engine, embedder) } : {}),
      ...(llm ? { summaries: summaryProbe(engine, llm) } : {}),
      ...(embedder || llm
        ? {
            // A server draining the same archive holds the lease: this cycle leaves it the work.
            drain: async () => {
              const leased = await withDrainLease(engine.archive.db, () =>
                drainBacklogs(engine, { embedder, llm }, limits),
              );
              return leased.ran ? leased.value : { busy: leased.holder };
            },
          }
        : {}),
      ...(webhook ? { webhook } : {}),
      intervalMs,
      onCycle: ({ report, alerts, syncErrors, drained, drainError }) => {
        for (const e of syncErrors) log(`sync of inbox ${e.inbox} failed: ${e.error}`);
        if (drainError) log(`embedding and summaries failed: ${drainError}`);
        if (global.json)
          // An embedder or LLM that failed is in `embedding.error` / `summaries.error`.
          return printJson({ checkedAt: report.checkedAt, status: report.status, alerts, ...drained });
        printLine(`${report.checkedAt} health ${report.status}`);
        for (const line of drained ? drainLines(drained) : []) printLine(`  ${line}`);
        for (const a of alerts)
          printLine(`  ${a.event === 'fail' ? 'FAIL' : 'recovered'} ${a.key}: ${a.message}`);
      },
      onError: (error) => log(describeError(error)),
    });
    const idle = await watchImapSources(
      engine,
      (plan ?? recordedSources(engine)).flatMap((p) => p.paths).filter(isImapUrl),
      imap,
      () => watcher.wake(),
      log,
    );
    await new Promise<void>((done) => {
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => done());
    });
    await Promise.all(idle.map((w) => w.close()));
    await watcher.stop();
    await llm?.close?.();
    webhook?.close();
    engine.close();
  });
}

/**
 * IDLE connections on each IMAP source's folders (INBOX first), each waking the watch loop
 * when its server announces a change; imapflow loads only when there is one.
 */
async function watchImapSources(
  engine: Mailsift,
  urls: readonly string[],
  imap: ImapOpenOptions,
  wake: () => void,
  log: (message: string) => void,
): Promise<ImapWatcher[]> {
  if (urls.length === 0) return [];
  const [{ watchImapFolders }, { recordedCredential, recordedFolders }] = await Promise.all([
    import('../../../source/imap/index.js'),
    import('../../../store/source-state.js'),
  ]);
  const recorded = (url: string) => recordedCredential(engine.archive.db, url);
  // The folders its syncs saw before this watch started; a new source's INBOX until restarted.
  const synced = (url: string) => recordedFolders(engine.archive.db, url);
  return [...new Set(urls)].map((url) =>
    watchImapFolders(url, { ...imap, recorded, synced, onChange: wake, onError: log }),
  );
}

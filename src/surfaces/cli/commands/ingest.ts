// mailsift ingest <path or imap(s):// URL>... [--inbox NAME]

import { type Command, Option } from 'commander';
import { describeError } from '../../../core/errors.js';
import type { ClusterDrain } from '../../../engine.js';
import type { EmbedReport } from '../../../rag/index.js';
import { nonNegativeInteger, positiveInteger } from '../arguments.js';
import { type GlobalOptions, printJson, printLine, withEngine } from '../context.js';
import { type ImapFlags, imapOptions, withImapFlags } from '../imap-flags.js';
import { DEFAULT_NICE, niceness, runAtNiceness } from '../priority.js';
import { countProgress, terminalProgress } from '../progress.js';
import { skippedLines } from '../skipped.js';
import { extractionLine } from './extract.js';

export function registerIngest(program: Command, globals: () => GlobalOptions): void {
  const command = program
    .command('ingest')
    .description('ingest mailboxes (mbox files, Maildir folders, .eml trees, IMAP servers) into the archive')
    .argument('<paths...>', 'mailbox files or directories, or imaps://user@host[:port][/folder] URLs')
    .option('--inbox <name>', 'inbox the messages belong to', process.env.MAILSIFT_INBOX ?? 'default')
    .addOption(
      new Option('--mbox-format <format>', 'how >From lines were escaped')
        .choices(['mboxrd', 'mboxo'])
        .default('mboxrd'),
    )
    .option('--workers <n>', 'parser worker threads (0 = parse inline)', nonNegativeInteger('--workers'))
    .option('--batch-size <n>', 'messages per transaction', positiveInteger('--batch-size'))
    .option(
      '--no-extract',
      'store attachments without extracting their text; `mailsift extract` does it later',
    )
    .option(
      '--no-embed',
      'leave new chunks in the embedding backlog (default: embed them when an embedder is configured)',
    )
    .option(
      '--nice <n>',
      'CPU priority, 0 (normal) to 19 (lowest): searches served from this machine go first',
      niceness,
      DEFAULT_NICE,
    );
  withImapFlags(command).action(
    async (
      paths: string[],
      options: ImapFlags & {
        inbox: string;
        mboxFormat: string;
        workers?: number;
        batchSize?: number;
        extract: boolean;
        embed: boolean;
        nice: number;
      },
    ) => {
      const global = globals();
      runAtNiceness(options.nice);
      const [{ embedPending }, { withDrainLease }, { configuredEmbedder }] = await Promise.all([
        import('../../../rag/index.js'),
        import('../drain-lease.js'),
        import('../providers.js'),
      ]);
      const onProgress = global.json ? null : terminalProgress();
      const embedder = options.embed ? configuredEmbedder() : undefined;
      const { report, embedding } = await withEngine(global, async (engine) => {
        const report = await engine.ingest(paths, {
          inbox: options.inbox,
          mboxFormat: options.mboxFormat === 'mboxo' ? 'mboxo' : 'mboxrd',
          workers: options.workers,
          batchSize: options.batchSize,
          imap: imapOptions(options),
          onProgress: onProgress ?? undefined,
          extractAttachments: options.extract,
          onExtractionProgress: global.json ? undefined : countProgress('extracting attachments'),
        });
        // Everything is stored by now: an embedder that is down only leaves the backlog to drain later.
        // A server or watcher already draining this archive gets it to the same place: ingest
        // leaves the backlog to it rather than wait or embed the same chunks twice.
        let embedding: EmbedReport | { error: string } | undefined;
        if (embedder) {
          const leased = await withDrainLease(engine.archive.db, () => embedPending(engine, embedder)).catch(
            (error) => ({ ran: true as const, value: { error: describeError(error) } }),
          );
          embedding = leased.ran ? leased.value : { error: `${leased.holder} is draining this archive` };
          // The new vectors go where the messages went.
          if ('embedded' in embedding && embedding.embedded > 0 && report.cluster) {
            const cluster = await engine.feedCluster();
            return { report: cluster ? { ...report, cluster } : report, embedding };
          }
        }
        return { report, embedding };
      });
      if (global.json) return printJson(embedding ? { ...report, embedding } : report);
      const seconds = Math.max(report.elapsedMs / 1000, 0.001);
      printLine(
        `ingested ${report.sources.length} source(s) into inbox '${report.inbox}' in ${seconds.toFixed(1)} s: ` +
          `${report.scanned} scanned, ${report.added} new, ${report.duplicates} duplicates, ${report.variants} variants, ` +
          `${report.unchanged} unchanged, ${report.failed} failed, ${report.deleted} deleted ` +
          `(${Math.round(report.scanned / seconds)} msg/s)`,
      );
      if (report.cluster) printLine(clusterLine(report.cluster));
      for (const line of skippedLines(report.skipped, '')) printLine(line);
      if (report.extraction && report.extraction.attachments > 0)
        printLine(extractionLine(report.extraction));
      if (embedding && 'embedded' in embedding) {
        printLine(
          `embedded ${embedding.embedded} chunk(s); ${embedding.remaining} left in the backlog` +
            (embedding.error ? ` (stopped: ${embedding.error})` : ''),
        );
      } else if (embedding) {
        printLine(`embedding skipped, the backlog keeps the chunks: ${embedding.error}`);
      }
    },
  );
}

/** What the drain of the archive's outboxes did. */
export function clusterLine(drain: ClusterDrain): string {
  const vectors = drain.vectors;
  const sent = `sent ${drain.sent.toLocaleString('en')} change(s)${vectors ? ` and ${vectors.sent.toLocaleString('en')} vector(s)` : ''} to the cluster`;
  const waiting = [
    ...(drain.waiting > 0
      ? [
          `${drain.waiting.toLocaleString('en')} change(s) waiting for the cluster${drain.error ? `: ${drain.error}` : ''}`,
        ]
      : []),
    ...(vectors && vectors.waiting > 0
      ? [
          `${vectors.waiting.toLocaleString('en')} vector(s) waiting${vectors.error ? `: ${vectors.error}` : ''}`,
        ]
      : []),
  ];
  return [sent, ...waiting].join('; ');
}

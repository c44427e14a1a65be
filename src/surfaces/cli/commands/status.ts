// mailsift status: counts of messages, threads, inboxes, duplicates, the failures, each inbox's
// languages by share, the chunk size (and a pending re-chunk), and the pipeline health checks;
// `--check` exits non-zero when a check fails (cron, systemd timers).

import type { Command } from 'commander';
import type { HealthReport, ScopedCheck } from '../../../health/index.js';
import type { Chunking, ChunkingStatus } from '../../../rag/index.js';
import { feedsVectors, vectorOutboxDepth } from '../../../rag/vector-feed.js';
import { clusterFeed, type Db, outboxDepth } from '../../../store/index.js';
import { type GlobalOptions, printJson, printLine, withEngine } from '../context.js';
import { skippedLines } from '../skipped.js';

/** The report as lines, its checks (eachCheck) listed one a line. */
function healthLines(report: HealthReport, checks: readonly ScopedCheck[]): string[] {
  const lines = [`health: ${report.status}`];
  for (const { inbox, source, check } of checks) {
    const scope = [inbox ?? 'archive', source].filter(Boolean).join(' ');
    lines.push(`  ${check.status.padEnd(4)} ${scope} ${check.name}: ${check.message}`);
  }
  return lines;
}

const size = (c: Chunking): string =>
  `${c.targetTokens} tokens (overlap ${c.overlapTokens}) of the ${c.tokenizer === 'approximate' ? 'approximate (words x 1.3)' : c.tokenizer} tokenizer`;

/** The chunk size in use, and whether the chunks were built with another. */
function chunkingLine({ configured, recorded, rechunkPending }: ChunkingStatus): string {
  if (!rechunkPending) return `chunks: ${size(configured)}`;
  const built = recorded ? `built at ${size(recorded)}` : 'built before their size was recorded';
  return `chunks: ${size(configured)}; re-chunk pending: the chunks were ${built} (mailsift serve, watch or embed rebuilds and re-embeds them)`;
}

export function registerStatus(program: Command, globals: () => GlobalOptions): void {
  program
    .command('status')
    .description('show what the archive holds, per inbox, the ingest failures and the pipeline health')
    .option('--check', 'print only the health checks; exit 1 when any check fails')
    .action(async (options: { check?: boolean }) => {
      const global = globals();
      // Module by module, not the barrels: those would load retrieval, the watch loop and metrics.
      const [
        { checkHealth, eachCheck },
        { loadHealthThresholds },
        { chunkingStatus, chunkOptionsFor },
        { embedderProbe },
        { loadProviderConfig },
        { summaryBacklog },
        { configuredEmbedder, configuredSummaryProbe },
        { describeShares, inboxLanguages },
      ] = await Promise.all([
        import('../../../health/checks.js'),
        import('../../../health/thresholds.js'),
        import('../../../rag/chunking.js'),
        import('../../../rag/embed.js'),
        import('../../../rag/config.js'),
        import('../../../rag/summarize.js'),
        import('../providers.js'),
        import('../../../rag/languages.js'),
      ]);
      const thresholds = loadHealthThresholds();
      const embedder = configuredEmbedder();
      const { stats, health, summaries, chunking, languages, cluster } = await withEngine(
        global,
        (engine) => ({
          stats: engine.status(),
          cluster: clusterStatus(engine.archive.db),
          languages: inboxLanguages(engine.archive.db),
          health: checkHealth(engine, thresholds, new Date(), {
            embedder: embedder ? embedderProbe(engine, embedder) : undefined,
            summaries: configuredSummaryProbe(engine),
          }),
          summaries: loadProviderConfig().llm ? summaryBacklog(engine) : undefined,
          // Without an embedder nothing chunks at a size of its own (see recordedChunkOptions).
          chunking: embedder ? chunkingStatus(engine.archive.db, chunkOptionsFor(embedder)) : undefined,
        }),
      );
      if (options.check && health.status === 'fail') process.exitCode = 1;
      if (global.json)
        return printJson(
          options.check
            ? health
            : {
                ...stats,
                perInbox: stats.perInbox.map((i) => ({ ...i, languages: languages.get(i.inbox) ?? [] })),
                health,
                ...(chunking ? { chunking } : {}),
                ...(cluster ? { cluster } : {}),
                ...(summaries ? { summaries } : {}),
              },
        );
      if (options.check) {
        for (const line of healthLines(health, eachCheck(health))) printLine(line);
        return;
      }
      printLine(
        `${stats.messages} messages · ${stats.threads} threads · ${stats.inboxes} inbox(es) · ` +
          `${stats.duplicates} duplicates · ${stats.variants} variants · ${stats.failures} failures`,
      );
      if (chunking) printLine(chunkingLine(chunking));
      if (cluster)
        printLine(
          `feeds OpenSearch index ${cluster.index} at ${cluster.nodes.join(', ')}: ${cluster.waiting.toLocaleString('en')} change(s)${cluster.vectorsWaiting === undefined ? '' : ` and ${cluster.vectorsWaiting.toLocaleString('en')} chunk vector(s)`} waiting for the cluster`,
        );
      if (summaries && summaries.pending > 0)
        printLine(
          `${summaries.pending} thread summaries awaiting the LLM (mailsift serve, watch or embed writes them)` +
            (summaries.failing > 0 ? `, ${summaries.failing} failing: ${summaries.lastError}` : ''),
        );
      if (stats.pendingAttachments > 0)
        printLine(`${stats.pendingAttachments} attachment(s) awaiting text extraction (mailsift extract)`);
      for (const inbox of stats.perInbox) {
        printLine(
          `  ${inbox.inbox}: ${inbox.messages} messages, ${inbox.threads} threads, ${inbox.duplicates} duplicates, ` +
            `${inbox.variants} variants, ${inbox.failures} failures`,
        );
        const shares = languages.get(inbox.inbox);
        if (shares) printLine(`    languages: ${describeShares(shares)}`);
        for (const source of inbox.sources) {
          printLine(
            `    ${source.kind} ${source.path} (last complete run ${source.lastRunCompletedAt ?? 'never'})`,
          );
          if (source.folders.length > 0)
            printLine(
              `      folders: ${source.folders.map((f) => `${f.folder} (${f.messages})`).join(', ')}`,
            );
          if (source.lastError) printLine(`      last error at ${source.lastErrorAt}: ${source.lastError}`);
          for (const line of skippedLines(source.skipped, '      ')) printLine(line);
        }
      }
      if (stats.failureList.length > 0) printLine('failures:');
      for (const failure of stats.failureList)
        printLine(`  ${failure.source} ${failure.location}: ${failure.reason}`);
      for (const line of healthLines(health, eachCheck(health))) printLine(line);
    });
}

/**
 * The cluster the archive feeds (`reindex --backend opensearch`), its outbox's depth and, once
 * it feeds the k-NN index too, the chunk vectors waiting for it.
 */
function clusterStatus(
  db: Db,
): { index: string; nodes: readonly string[]; waiting: number; vectorsWaiting?: number } | undefined {
  const feed = clusterFeed(db);
  return (
    feed && {
      index: feed.index,
      nodes: feed.nodes,
      waiting: outboxDepth(db),
      ...(feedsVectors(db) ? { vectorsWaiting: vectorOutboxDepth(db) } : {}),
    }
  );
}

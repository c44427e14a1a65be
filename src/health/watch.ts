// The watch loop behind `mailsift watch`: re-sync the sources, drain what waits for the
// embedder and the LLM, run the checks, and raise an alert for each check that turned `fail`
// or recovered since the previous cycle.

import { describeError } from '../core/errors.js';
import type { Mailsift } from '../engine.js';
import type { IngestOptions } from '../pipeline/ingest.js';
import type { EmbedReport, SummarizeReport, ValidateReport } from '../rag/index.js';
import { sql } from '../store/index.js';
import { type Alert, AlertTracker, type WebhookSender } from './alerts.js';
import type { EmbedderProbe, SummaryProbe } from './backlog.js';
import { checkHealth, type HealthReport } from './checks.js';
import type { HealthThresholds } from './thresholds.js';

export interface SyncPlan {
  readonly inbox: string;
  readonly paths: readonly string[];
  /** How IMAP sources among the paths log in and which folders they sync. */
  readonly imap?: IngestOptions['imap'];
}

/** What one pass over the embedding and summary backlogs did; absent parts were not configured. */
export interface BacklogDrain {
  readonly embedding?: EmbedReport;
  readonly summaries?: SummarizeReport;
  /** Decisions validated by the LLM, after the summaries. */
  readonly decisions?: ValidateReport;
  /** Another process held the archive's drain (named here), so this pass did nothing. */
  readonly busy?: string;
}

export interface WatchOptions {
  /** What to re-sync; default: every source recorded in the archive, into its own inbox. */
  readonly plan?: readonly SyncPlan[];
  readonly thresholds: HealthThresholds;
  readonly tracker?: AlertTracker;
  readonly webhook?: WebhookSender;
  readonly embedder?: EmbedderProbe;
  readonly summaries?: SummaryProbe;
  /**
   * Run after the sync and before the checks (the CLI embeds and summarises there). Failures
   * are reported in the cycle's result, never thrown: the next cycle retries.
   */
  readonly drain?: () => Promise<BacklogDrain>;
  /** Clock for the checks (tests inject it to age a source). */
  readonly now?: () => Date;
}

export interface CycleResult {
  readonly report: HealthReport;
  readonly alerts: readonly Alert[];
  /** Sources that could not be synced, with the reason; their sync check will age. */
  readonly syncErrors: ReadonlyArray<{ readonly inbox: string; readonly error: string }>;
  readonly drained?: BacklogDrain;
  /** Why the drain threw; an embedder or LLM that fails is in `drained`'s reports instead. */
  readonly drainError?: string;
}

/** Every source the archive knows, grouped by inbox. */
export function recordedSources(engine: Mailsift): SyncPlan[] {
  const rows = sql(
    engine.archive.db,
    'SELECT i.name AS inbox, s.path FROM sources s JOIN inboxes i ON i.id = s.inbox_id ORDER BY i.name, s.path',
  ).all() as Array<{ inbox: string; path: string }>;
  const byInbox = new Map<string, string[]>();
  for (const row of rows) byInbox.set(row.inbox, [...(byInbox.get(row.inbox) ?? []), row.path]);
  return [...byInbox].map(([inbox, paths]) => ({ inbox, paths }));
}

export async function watchCycle(
  engine: Mailsift,
  options: WatchOptions & { tracker: AlertTracker },
): Promise<CycleResult> {
  const syncErrors: Array<{ inbox: string; error: string }> = [];
  for (const { inbox, paths, imap } of options.plan ?? recordedSources(engine)) {
    try {
      await engine.ingest(paths, { inbox, ...(imap ? { imap } : {}) });
    } catch (error) {
      syncErrors.push({ inbox, error: describeError(error) });
    }
  }
  let drained: BacklogDrain | undefined;
  let drainError: string | undefined;
  try {
    drained = await options.drain?.();
  } catch (error) {
    drainError = describeError(error);
  }
  const report = checkHealth(engine, options.thresholds, options.now?.() ?? new Date(), {
    ...(options.embedder ? { embedder: options.embedder } : {}),
    ...(options.summaries ? { summaries: options.summaries } : {}),
  });
  const alerts = options.tracker.observe(report);
  for (const alert of alerts) options.webhook?.send(alert);
  return {
    report,
    alerts,
    syncErrors,
    ...(drained ? { drained } : {}),
    ...(drainError ? { drainError } : {}),
  };
}

export interface Watcher {
  /** Runs a cycle now, or right after the running one (a server announced new mail). */
  wake(): void;
  /** Finishes the running cycle, then stops. */
  stop(): Promise<void>;
}

/** Runs a cycle now and then every `intervalMs` after the previous one ends. */
export function startWatch(
  engine: Mailsift,
  options: WatchOptions & {
    intervalMs: number;
    onCycle: (result: CycleResult) => void;
    onError: (error: unknown) => void;
  },
): Watcher {
  const tracker = options.tracker ?? new AlertTracker();
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let current: Promise<void> = Promise.resolve();
  let running = false;
  let woken = false;
  const tick = (): void => {
    running = true;
    current = watchCycle(engine, { ...options, tracker })
      .then(options.onCycle, options.onError)
      .finally(() => {
        running = false;
        if (stopped) return;
        // A change announced during the cycle may have come after its sync read the source.
        if (woken) {
          woken = false;
          tick();
        } else timer = setTimeout(tick, options.intervalMs);
      });
  };
  tick();
  return {
    wake() {
      if (stopped) return;
      if (running) {
        woken = true;
        return;
      }
      if (timer) clearTimeout(timer);
      tick();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await current;
    },
  };
}

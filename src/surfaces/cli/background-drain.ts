// The servers' background drain (`serve`, `mcp`): passes over the embedding and summary
// backlogs between rests, off every request's path, one process at a time per archive, backing
// off while the embedder fails; stopping aborts the pass in flight and leaves the rest queued.

import { setImmediate, setTimeout as sleep } from 'node:timers/promises';
import type { Command } from 'commander';
import { describeError } from '../../core/errors.js';
import type { Mailsift } from '../../engine.js';
import { type BacklogDrain, parseDuration } from '../../health/index.js';
import { syncChunks, type TokenCounter } from '../../rag/index.js';
import { sql } from '../../store/index.js';
import {
  type DrainLimitFlags,
  type DrainLimits,
  type DrainProviders,
  drainBacklogs,
  withDrainLimitFlags,
} from './drain.js';
import { withDrainLease } from './drain-lease.js';

/**
 * Threads chunked per slice before the pass yields to the event loop: a request waits behind
 * one slice at most (a thread takes about a millisecond to chunk).
 */
const CHUNK_SLICE = 25;
/** Shortest rest between passes while work remains. */
const MIN_REST_MS = 250;
/** Longest wait before retrying a failing embedder. */
const MAX_BACKOFF_MS = 30 * 60_000;

export interface BackgroundDrainOptions extends DrainLimits {
  /** Rest between passes when nothing waits, and the first retry after a failure (then doubling). */
  readonly intervalMs: number;
  /** Each pass that did or tried something, with the wait before the next. */
  readonly onPass?: (pass: DrainPass) => void;
}

export interface DrainPass {
  readonly drained: BacklogDrain;
  /** Why the pass failed (the embedder, or the pass itself); the next one is backed off. */
  readonly error?: string;
  readonly nextInMs: number;
}

export interface BackgroundDrain {
  /** Aborts the pass in flight at its provider call, waits for it to end, and stops. */
  stop(): Promise<void>;
}

/** Whether anything waits for the providers, read without writing (a write drops other connections' caches). */
function workWaits(engine: Mailsift, providers: DrainProviders): boolean {
  const any = (query: string, ...args: unknown[]) => sql(engine.archive.db, query).get(...args) !== undefined;
  return (
    any('SELECT 1 FROM rag_dirty_threads LIMIT 1') ||
    (providers.embedder !== undefined && any('SELECT 1 FROM embedding_backlog LIMIT 1')) ||
    (providers.llm !== undefined &&
      any('SELECT 1 FROM rag_summary_backlog WHERE retry_at <= ? LIMIT 1', Date.now()))
  );
}

/** Chunks changed threads a slice at a time, so the pass that follows starts with none to chunk. */
async function chunkInSlices(engine: Mailsift, tokenizer: TokenCounter | undefined, signal: AbortSignal) {
  while (!signal.aborted) {
    const { threads } = syncChunks(engine.archive.db, {
      limit: CHUNK_SLICE,
      ...(tokenizer ? { tokenizer } : {}),
    });
    if (threads < CHUNK_SLICE) return;
    await setImmediate();
  }
}

/** Did the pass stop at a limit with more waiting (as opposed to emptying what was due)? */
function stoppedAtLimit({ embedding, summaries }: BacklogDrain, limits: DrainLimits): boolean {
  if (embedding && !embedding.error && embedding.remaining > 0) return true;
  if (!summaries || summaries.error || limits.maxSummaries === undefined) return false;
  return summaries.written + summaries.failed >= limits.maxSummaries && summaries.remaining > 0;
}

/**
 * Drains in passes of at most `maxChunks` chunks and `maxSummaries` summaries. While work
 * remains, each pass is followed by a rest as long as the pass took, so draining gets at most
 * about half of the time; when nothing waits, it looks again after `intervalMs`. A failing
 * embedder is retried after `intervalMs`, doubling up to 30 min; a failing LLM's threads back
 * off one by one in the archive.
 */
export function startBackgroundDrain(
  engine: Mailsift,
  providers: DrainProviders,
  options: BackgroundDrainOptions,
): BackgroundDrain {
  const abort = new AbortController();
  const { signal } = abort;
  const { intervalMs, onPass, ...limits } = options;
  const pass = async (): Promise<{ drained: BacklogDrain; error?: string }> => {
    if (!workWaits(engine, providers)) return { drained: {} };
    try {
      const leased = await withDrainLease(engine.archive.db, async () => {
        await chunkInSlices(engine, providers.embedder?.tokenizer, signal);
        return drainBacklogs(engine, providers, { ...limits, signal });
      });
      const drained = leased.ran ? leased.value : { busy: leased.holder };
      const error = drained.embedding?.error;
      return { drained, ...(error ? { error } : {}) };
    } catch (error) {
      return { drained: {}, error: describeError(error) };
    }
  };
  const loop = async (): Promise<void> => {
    let failures = 0;
    while (!signal.aborted) {
      const started = performance.now();
      const { drained, error } = await pass();
      if (signal.aborted) return;
      failures = error ? failures + 1 : 0;
      const nextInMs = error
        ? Math.min(intervalMs * 2 ** (failures - 1), MAX_BACKOFF_MS)
        : stoppedAtLimit(drained, limits)
          ? Math.max(MIN_REST_MS, performance.now() - started)
          : intervalMs;
      // A pass another process held is routine (server workers take turns): not reported.
      if (error || drained.embedding || drained.summaries)
        onPass?.({ drained, ...(error ? { error } : {}), nextInMs });
      await sleep(nextInMs, undefined, { signal, ref: false }).catch(() => undefined);
    }
  };
  const running = loop();
  return {
    async stop() {
      abort.abort();
      await running;
    },
  };
}

export interface BackgroundDrainFlags extends DrainLimitFlags {
  drain: boolean;
  /** Milliseconds. */
  drainInterval: number;
}

const DEFAULT_INTERVAL = '30s';

/** --no-drain, --drain-interval and the pass limits, one definition for serve and mcp. */
export function withBackgroundDrainFlags(command: Command): Command {
  return withDrainLimitFlags(command, 'per background pass')
    .option('--no-drain', 'do not embed or summarise in the background (run mailsift embed or watch instead)')
    .option(
      '--drain-interval <duration>',
      `background drain: rest when nothing waits, and the first retry of a failing embedder (doubling); default ${DEFAULT_INTERVAL}`,
      (value: string) => parseDuration(value, '--drain-interval') * 1000,
      parseDuration(DEFAULT_INTERVAL, '--drain-interval') * 1000,
    );
}

/**
 * The background drain of a server's configured providers, as its flags ask; undefined when
 * turned off or nothing is configured. `log` receives one object per pass that did something.
 */
export function startConfiguredDrain(
  engine: Mailsift,
  providers: DrainProviders,
  flags: BackgroundDrainFlags,
  log: (line: Record<string, string | number | null>) => void,
): BackgroundDrain | undefined {
  if (!flags.drain || (!providers.embedder && !providers.llm)) return undefined;
  return startBackgroundDrain(engine, providers, {
    intervalMs: flags.drainInterval,
    maxChunks: flags.maxChunks,
    maxSummaries: flags.maxSummaries,
    onPass: ({ drained: { embedding, summaries }, error, nextInMs }) =>
      log({
        time: new Date().toISOString(),
        event: 'drain',
        ...(embedding ? { embedded: embedding.embedded, chunksPending: embedding.remaining } : {}),
        ...(summaries ? { summarised: summaries.written, summariesWaiting: summaries.remaining } : {}),
        ...(summaries?.error ? { llmError: summaries.error } : {}),
        ...(error ? { error } : {}),
        nextInMs: Math.round(nextInMs),
      }),
  });
}

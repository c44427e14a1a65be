// The servers' background drain (`serve`, `mcp`): passes over the embedding and summary
// backlogs between rests, off every request's path, one process at a time per archive, backing
// off while the embedder fails; stopping aborts the pass in flight and leaves the rest queued.

import { setTimeout as sleep } from 'node:timers/promises';
import { describeError } from '../../core/errors.js';
import type { Mailsift } from '../../engine.js';
import type { BacklogDrain } from '../../health/index.js';
import {
  type ChunkOptions,
  chunkingStatus,
  chunkOptionsFor,
  syncChunks,
  wrapProviderCalls,
} from '../../rag/index.js';
import { sql } from '../../store/index.js';
import { type DrainLimits, type DrainProviders, drainBacklogs } from './drain.js';
import type { BackgroundDrainFlags } from './drain-flags.js';
import { withDrainLease } from './drain-lease.js';

/**
 * Threads chunked per slice, each slice followed by a rest as long as it took: a request waits
 * behind one slice at most (a thread of the 20k bench archive takes ~3 ms to chunk).
 */
const CHUNK_SLICE = 4;
/**
 * Chunking time per pass. Embedding starts once every changed thread is chunked (the embedding
 * step would chunk what is left at once, holding the event loop).
 */
const CHUNK_BUDGET_MS = 1000;
/**
 * Chunks per embedder call. An in-process model runs one batch at a time, so a request's
 * question waits behind the batch in flight: 8 chunks keep that under a second with MiniLM on
 * a busy 2-core machine (64 took seconds); a remote embedder only gets more, smaller requests.
 */
const EMBED_BATCH = 8;
/**
 * Before each provider call and chunking slice the drain waits until no request has been served
 * for QUIET_MS, but at most MAX_YIELD_MS, so a server that is never quiet still drains.
 */
const QUIET_MS = 1000;
const MAX_YIELD_MS = 3000;
const QUIET_POLL_MS = 20;
/** Shortest rest between passes while work remains. */
const MIN_REST_MS = 250;
/** Longest wait before retrying a failing embedder. */
const MAX_BACKOFF_MS = 30 * 60_000;

/** The requests of the server the drain runs in (see RequestActivity). */
export interface Requests {
  quietFor(ms: number): boolean;
}

export interface BackgroundDrainOptions extends DrainLimits {
  /** Rest between passes when nothing waits, and the first retry after a failure (then doubling). */
  readonly intervalMs: number;
  /** Yield to these requests before each embedder or LLM call. */
  readonly requests?: Requests;
  /** Each pass that did or tried something, with the wait before the next. */
  readonly onPass?: (pass: DrainPass) => void;
}

export interface DrainPass {
  /** Threads chunked in this pass, and the changed threads still waiting to be chunked. */
  readonly chunked: { readonly threads: number; readonly remaining: number };
  /** Embedding and summaries, once no thread waits to be chunked. */
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
    chunkingStatus(engine.archive.db, chunkOptionsFor(providers.embedder)).rechunkPending ||
    (providers.embedder !== undefined && any('SELECT 1 FROM embedding_backlog LIMIT 1')) ||
    (providers.llm !== undefined &&
      (any('SELECT 1 FROM rag_summary_backlog WHERE retry_at <= ? LIMIT 1', Date.now()) ||
        any('SELECT 1 FROM decision_llm_backlog WHERE retry_at <= ? LIMIT 1', Date.now())))
  );
}

/** Waits for a quiet moment of `requests`, at most MAX_YIELD_MS. */
async function quietMoment(requests: Requests, signal: AbortSignal | undefined): Promise<void> {
  const until = performance.now() + MAX_YIELD_MS;
  while (!requests.quietFor(QUIET_MS) && performance.now() < until && !signal?.aborted)
    await sleep(QUIET_POLL_MS, undefined, { signal }).catch(() => undefined);
}

/**
 * Chunks changed threads a slice at a time, each at a quiet moment of `requests` and followed by
 * a rest as long as it took, for at most CHUNK_BUDGET_MS of work.
 */
async function chunkInSlices(
  engine: Mailsift,
  chunking: ChunkOptions,
  requests: Requests | undefined,
  signal: AbortSignal,
): Promise<DrainPass['chunked']> {
  let threads = 0;
  let spent = 0;
  while (!signal.aborted && spent < CHUNK_BUDGET_MS) {
    if (requests) await quietMoment(requests, signal);
    const started = performance.now();
    const slice = syncChunks(engine.archive.db, { ...chunking, limit: CHUNK_SLICE });
    threads += slice.threads;
    if (slice.threads < CHUNK_SLICE) return { threads, remaining: 0 };
    const took = performance.now() - started;
    spent += took;
    await sleep(took, undefined, { signal }).catch(() => undefined);
  }
  const remaining = sql(engine.archive.db, 'SELECT count(*) FROM rag_dirty_threads').pluck().get() as number;
  return { threads, remaining };
}

/** Did the pass stop at a limit with more waiting (as opposed to emptying what was due)? */
function stoppedAtLimit({ embedding, summaries, decisions }: BacklogDrain, limits: DrainLimits): boolean {
  if (embedding && !embedding.error && embedding.remaining > 0) return true;
  if (limits.maxSummaries === undefined) return false;
  if (summaries && !summaries.error && summaries.written + summaries.failed >= limits.maxSummaries)
    return summaries.remaining > 0;
  if (!decisions || decisions.error) return false;
  const tried = decisions.accepted + decisions.rejected + decisions.failed;
  return tried >= limits.maxSummaries && decisions.remaining > 0;
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
  const { intervalMs, onPass, requests, ...rest } = options;
  const limits = { batch: EMBED_BATCH, ...rest };
  // Each provider call waits for a quiet moment of the server's requests.
  const calls = requests
    ? wrapProviderCalls(providers, async (call, _what, callSignal) => {
        await quietMoment(requests, callSignal);
        return call();
      })
    : providers;
  const pass = async (): Promise<Omit<DrainPass, 'nextInMs'>> => {
    const idle = { chunked: { threads: 0, remaining: 0 }, drained: {} };
    try {
      if (!workWaits(engine, providers)) return idle;
      const leased = await withDrainLease(engine.archive.db, async () => {
        const chunked = await chunkInSlices(engine, chunkOptionsFor(providers.embedder), requests, signal);
        if (chunked.remaining > 0 || signal.aborted) return { chunked, drained: {} };
        return { chunked, drained: await drainBacklogs(engine, calls, { ...limits, signal }) };
      });
      if (!leased.ran) return { ...idle, drained: { busy: leased.holder } };
      const error = leased.value.drained.embedding?.error;
      return { ...leased.value, ...(error ? { error } : {}) };
    } catch (error) {
      return { ...idle, error: describeError(error) };
    }
  };
  const loop = async (): Promise<void> => {
    let failures = 0;
    while (!signal.aborted) {
      const started = performance.now();
      const done = await pass();
      if (signal.aborted) return;
      const { chunked, drained, error } = done;
      failures = error ? failures + 1 : 0;
      const nextInMs = error
        ? Math.min(intervalMs * 2 ** (failures - 1), MAX_BACKOFF_MS)
        : chunked.remaining > 0 || stoppedAtLimit(drained, limits)
          ? Math.max(MIN_REST_MS, performance.now() - started)
          : intervalMs;
      // A pass another process held is routine (server workers take turns): not reported.
      if (error || chunked.threads > 0 || drained.embedding || drained.summaries || drained.decisions)
        onPass?.({ ...done, nextInMs });
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

/**
 * The background drain of a server's configured providers, as its flags ask; undefined when
 * turned off or nothing is configured. `log` receives one object per pass that did something.
 */
export function startConfiguredDrain(
  engine: Mailsift,
  providers: DrainProviders,
  flags: BackgroundDrainFlags,
  log: (line: Record<string, string | number | null>) => void,
  requests?: Requests,
): BackgroundDrain | undefined {
  if (!flags.drain || (!providers.embedder && !providers.llm)) return undefined;
  return startBackgroundDrain(engine, providers, {
    intervalMs: flags.drainInterval,
    ...(requests ? { requests } : {}),
    maxChunks: flags.maxChunks,
    maxSummaries: flags.maxSummaries,
    onPass: ({ chunked, drained: { embedding, summaries, decisions }, error, nextInMs }) =>
      log({
        time: new Date().toISOString(),
        event: 'drain',
        ...(chunked.threads > 0
          ? { chunkedThreads: chunked.threads, threadsToChunk: chunked.remaining }
          : {}),
        ...(embedding ? { embedded: embedding.embedded, chunksPending: embedding.remaining } : {}),
        ...(summaries ? { summarised: summaries.written, summariesWaiting: summaries.remaining } : {}),
        ...(decisions
          ? { decisionsValidated: decisions.accepted, decisionsWaiting: decisions.remaining }
          : {}),
        ...(summaries?.error || decisions?.error
          ? { llmError: summaries?.error ?? decisions?.error ?? null }
          : {}),
        ...(error ? { error } : {}),
        nextInMs: Math.round(nextInMs),
      }),
  });
}

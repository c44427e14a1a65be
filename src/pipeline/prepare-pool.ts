// Spreads message preparation over worker threads, and over the calling thread while it
// would otherwise wait for them. From the compiled build the pool starts one worker per core
// but one; where the worker script cannot run (TypeScript sources under the test runner)
// or workers = 0, it prepares inline on the calling thread.

import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PreparedMessage } from '../store/records.js';
import { type PrepareOptions, prepareMessage } from './prepare.js';

export interface PreparePool {
  prepare(bytes: Buffer, fileTime: Date | null, rawSha256: string): Promise<PreparedMessage>;
  /**
   * Resolves as `outcome` does; until then the calling thread prepares messages the
   * workers have not started, instead of sitting idle. Returns to the event loop every few
   * milliseconds even when `outcome` is ready, so that the workers' replies are handled.
   */
  settle<T>(outcome: Promise<T>): Promise<T>;
  /** How many messages the pool can usefully have in flight. */
  readonly capacity: number;
  close(): Promise<void>;
}

/**
 * One worker per core but one: the ingest thread itself is busy (SQLite writes, indexing)
 * and on 2 cores a second worker only adds contention (5,000 messages: 1 worker 631 msg/s,
 * 2 workers 361 msg/s, inline 498 msg/s).
 */
const DEFAULT_WORKERS = Math.max(1, availableParallelism() - 1);

/**
 * Old-generation cap per worker. Parsing leaves short-lived garbage; without a cap V8 lets
 * each worker's heap grow to ~200 MB before collecting, which alone breaks the ingest's
 * memory budget. A message too big to parse within the cap kills only its worker (see
 * WorkerPreparePool) and is recorded as a failure.
 */
const WORKER_HEAP_MB = 192;

/**
 * Young generation per worker: parse garbage dies young, and V8's default keeps ~14 MB more
 * resident. At 16 MB the collector took 6-9% of the worker (20k, profiled), at 32 MB 4.7-4.9%,
 * for no measurable peak RSS (316-330 MB either way).
 */
const WORKER_YOUNG_MB = 32;

/**
 * Messages queued per worker. The ingest thread stops reading while it commits a batch
 * (SQLite writes, index flush and merges: ~0.2 s for 500 messages), and the worker must
 * not run dry meanwhile: with 16 it sat idle for 20% of a 20k ingest, with 256 for 8%
 * (323 vs 525 msg/s back to back at load 6). ingest.ts bounds the bytes in flight as well.
 */
const JOBS_PER_WORKER = 256;

/**
 * Messages queued beyond the workers' share, for whichever gets there first: the workers
 * from the oldest end, the calling thread (in settle) from the newest. On 2 cores the
 * ingest thread waited on its worker for over a third of a 20k ingest.
 */
const BACKLOG_JOBS = 256;

/**
 * Largest message the calling thread prepares itself. A worker's heap is capped so that a
 * hostile message kills only that worker and is recorded as a failure; the calling thread
 * has no such cap, so it takes only messages far too small to exhaust a heap.
 */
const INLINE_MAX_BYTES = 256 * 1024;

/**
 * Longest the calling thread runs without returning to the event loop. A worker's replies are
 * handled there, and only then is its queue topped up from the backlog: writing the replies
 * that are ready, the ingest thread went on for long stretches on microtasks alone, the worker
 * ran dry, and the ingest thread prepared the backlog itself (a 20k ingest: worker idle 40%;
 * returning every 5 ms: idle 6%, 20k cold in 33.1-34.3 s instead of 36.2-38.3 s, load 4.5-5.7).
 */
const MAX_BUSY_MS = 5;

export interface PreparePoolOptions extends PrepareOptions {
  /** Worker threads (default: one per core but one); 0 prepares inline. */
  readonly workers?: number;
  /** Old-generation cap of each worker. */
  readonly heapMb?: number;
}

export function createPreparePool(options: PreparePoolOptions): PreparePool {
  const { workers = DEFAULT_WORKERS, heapMb = WORKER_HEAP_MB, ...prepare } = options;
  const script = fileURLToPath(new URL('./prepare-worker.js', import.meta.url));
  if (workers <= 0 || !existsSync(script)) return inlinePool(prepare);
  return new WorkerPreparePool(script, workers, heapMb, prepare);
}

function inlinePool(options: PrepareOptions): PreparePool {
  return {
    prepare: (bytes, fileTime, rawSha256) => prepareMessage(bytes, fileTime, rawSha256, options),
    settle: (outcome) => outcome,
    capacity: 1,
    close: async () => {},
  };
}

interface Job {
  readonly id: number;
  readonly bytes: Buffer;
  readonly fileTime: Date | null;
  readonly rawSha256: string;
  resolve(prepared: PreparedMessage): void;
  reject(error: Error): void;
}

interface Pending {
  readonly slot: number;
  resolve(prepared: PreparedMessage): void;
  reject(error: Error): void;
}

/**
 * Workers by slot. A worker that dies (out of memory on a hostile message, a crash) fails
 * only the jobs it held, each recorded as that message's failure, and a fresh worker takes
 * its slot: one bad message never stalls or aborts the run.
 */
class WorkerPreparePool implements PreparePool {
  private readonly workers: Worker[];
  /** Jobs posted to each worker and not yet answered. */
  private readonly busy: number[];
  private readonly pending = new Map<number, Pending>();
  /** Jobs no worker has been given yet, oldest first. */
  private readonly backlog: Job[] = [];
  private nextId = 0;
  private closing = false;
  private lastYield = performance.now();
  readonly capacity: number;

  constructor(
    private readonly script: string,
    count: number,
    private readonly heapMb: number,
    private readonly options: PrepareOptions,
  ) {
    this.capacity = count * JOBS_PER_WORKER + BACKLOG_JOBS;
    this.busy = new Array<number>(count).fill(0);
    this.workers = Array.from({ length: count }, (_, slot) => this.spawn(slot));
  }

  private spawn(slot: number): Worker {
    const worker = new Worker(this.script, {
      workerData: this.options,
      resourceLimits: { maxOldGenerationSizeMb: this.heapMb, maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
    });
    worker.on('message', (reply: { id: number; prepared?: PreparedMessage; error?: string }) => {
      const pending = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (!pending) return;
      this.busy[slot] = (this.busy[slot] as number) - 1;
      if (reply.prepared) pending.resolve(reviveBuffers(reply.prepared));
      else pending.reject(new Error(reply.error ?? 'worker failed'));
      this.dispatch();
    });
    worker.on('error', (error) => this.failSlot(slot, error));
    worker.on('exit', (code) => {
      if (this.closing) return;
      this.failSlot(slot, new Error(`parser worker exited with code ${code}`));
      this.workers[slot] = this.spawn(slot);
      this.dispatch();
    });
    return worker;
  }

  private failSlot(slot: number, error: Error): void {
    for (const [id, pending] of this.pending) {
      if (pending.slot !== slot) continue;
      this.pending.delete(id);
      pending.reject(new Error(`parser worker failed: ${error.message}`));
    }
    this.busy[slot] = 0;
  }

  prepare(bytes: Buffer, fileTime: Date | null, rawSha256: string): Promise<PreparedMessage> {
    return new Promise((resolve, reject) => {
      this.backlog.push({ id: this.nextId++, bytes, fileTime, rawSha256, resolve, reject });
      this.dispatch();
    });
  }

  /** Hands the oldest jobs to the least busy workers, up to JOBS_PER_WORKER each. */
  private dispatch(): void {
    while (this.backlog.length > 0) {
      let slot = 0;
      for (let s = 1; s < this.busy.length; s++)
        if ((this.busy[s] as number) < (this.busy[slot] as number)) slot = s;
      if ((this.busy[slot] as number) >= JOBS_PER_WORKER) return;
      const job = this.backlog.shift() as Job;
      this.busy[slot] = (this.busy[slot] as number) + 1;
      this.pending.set(job.id, { slot, resolve: job.resolve, reject: job.reject });
      const { bytes } = job;
      // A buffer that owns its whole ArrayBuffer (what a file read returns) moves to the
      // worker without a copy; a slice of a shared pool (mbox chunks) is copied.
      const owned = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
      const transfer = owned ? [bytes.buffer as ArrayBuffer] : [];
      (this.workers[slot] as Worker).postMessage(
        { id: job.id, bytes, fileTime: job.fileTime?.getTime() ?? null, rawSha256: job.rawSha256 },
        transfer,
      );
    }
  }

  async settle<T>(outcome: Promise<T>): Promise<T> {
    let settled = false;
    const mark = (): void => {
      settled = true;
    };
    outcome.then(mark, mark);
    // Lets `mark` run first when `outcome` has already settled.
    await null;
    if (settled && performance.now() - this.lastYield >= MAX_BUSY_MS) await this.handleReplies();
    while (!settled) {
      // The worker takes the backlog first; the calling thread only what is left.
      await this.handleReplies();
      const job = settled ? undefined : this.takeNewest();
      if (!job) break;
      await prepareMessage(job.bytes, job.fileTime, job.rawSha256, this.options).then(
        job.resolve,
        job.reject,
      );
    }
    return outcome;
  }

  /** Returns to the event loop once, where the workers' replies are handled and their queues refilled. */
  private async handleReplies(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.lastYield = performance.now();
  }

  /** The newest backlog job small enough for the calling thread: the one the workers would reach last. */
  private takeNewest(): Job | undefined {
    for (let i = this.backlog.length - 1; i >= 0; i--)
      if ((this.backlog[i] as Job).bytes.length <= INLINE_MAX_BYTES) return this.backlog.splice(i, 1)[0];
    return undefined;
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

/** Structured clone turns Buffers into plain Uint8Arrays; SQLite bindings want Buffers. */
function reviveBuffers(prepared: PreparedMessage): PreparedMessage {
  const buffer = (u8: Uint8Array): Buffer => Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength);
  return {
    ...prepared,
    rawDeflated: buffer(prepared.rawDeflated),
    bodyDeflated: buffer(prepared.bodyDeflated),
  };
}

// Spreads message preparation over worker threads. From the compiled build the pool
// starts one worker per core; where the worker script cannot run (TypeScript sources
// under the test runner) or workers = 0, it prepares inline on the calling thread.

import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PreparedMessage } from '../store/records.js';
import { prepareMessage } from './prepare.js';

export interface PreparePool {
  prepare(bytes: Buffer, fileTime: Date | null, rawSha256: string): Promise<PreparedMessage>;
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

/** Young generation per worker: parse garbage dies young, and V8's default keeps ~14 MB more resident. */
const WORKER_YOUNG_MB = 16;

/**
 * Messages queued per worker. The ingest thread stops reading while it commits a batch
 * (SQLite writes, index flush and merges: ~0.2 s for 500 messages), and the worker must
 * not run dry meanwhile: with 16 it sat idle for 20% of a 20k ingest, with 256 for 8%
 * (323 vs 525 msg/s back to back at load 6). ingest.ts bounds the bytes in flight as well.
 */
const JOBS_PER_WORKER = 256;

export function createPreparePool(workers: number = DEFAULT_WORKERS, heapMb = WORKER_HEAP_MB): PreparePool {
  const script = fileURLToPath(new URL('./prepare-worker.js', import.meta.url));
  if (workers <= 0 || !existsSync(script)) return inlinePool();
  return new WorkerPreparePool(script, workers, heapMb);
}

function inlinePool(): PreparePool {
  return { prepare: prepareMessage, capacity: 1, close: async () => {} };
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
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private closing = false;
  readonly capacity: number;

  constructor(
    private readonly script: string,
    count: number,
    private readonly heapMb: number,
  ) {
    this.capacity = count * JOBS_PER_WORKER;
    this.workers = Array.from({ length: count }, (_, slot) => this.spawn(slot));
  }

  private spawn(slot: number): Worker {
    const worker = new Worker(this.script, {
      resourceLimits: { maxOldGenerationSizeMb: this.heapMb, maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
    });
    worker.on('message', (reply: { id: number; prepared?: PreparedMessage; error?: string }) => {
      const pending = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (!pending) return;
      if (reply.prepared) pending.resolve(reviveBuffers(reply.prepared));
      else pending.reject(new Error(reply.error ?? 'worker failed'));
    });
    worker.on('error', (error) => this.failSlot(slot, error));
    worker.on('exit', (code) => {
      if (this.closing) return;
      this.failSlot(slot, new Error(`parser worker exited with code ${code}`));
      this.workers[slot] = this.spawn(slot);
    });
    return worker;
  }

  private failSlot(slot: number, error: Error): void {
    for (const [id, pending] of this.pending) {
      if (pending.slot !== slot) continue;
      this.pending.delete(id);
      pending.reject(new Error(`parser worker failed: ${error.message}`));
    }
  }

  prepare(bytes: Buffer, fileTime: Date | null, rawSha256: string): Promise<PreparedMessage> {
    const id = this.nextId++;
    const slot = id % this.workers.length;
    const worker = this.workers[slot] as Worker;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { slot, resolve, reject });
      // A buffer that owns its whole ArrayBuffer (what a file read returns) moves to the
      // worker without a copy; a slice of a shared pool (mbox chunks) is copied.
      const owned = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
      const transfer = owned ? [bytes.buffer as ArrayBuffer] : [];
      worker.postMessage({ id, bytes, fileTime: fileTime?.getTime() ?? null, rawSha256 }, transfer);
    });
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

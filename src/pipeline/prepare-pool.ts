// Spreads message preparation over worker threads. From the compiled build the pool
// starts one worker per core; where the worker script cannot run (TypeScript sources
// under the test runner) or workers = 0, it prepares inline on the calling thread.

import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PreparedMessage } from '../store/records.js';
import { prepareMessage } from './prepare.js';

interface Pending {
  resolve(prepared: PreparedMessage): void;
  reject(error: Error): void;
}

export interface PreparePool {
  prepare(bytes: Buffer, fileTime: Date | null): Promise<PreparedMessage>;
  /** How many messages the pool can usefully have in flight. */
  readonly capacity: number;
  close(): Promise<void>;
}

export function createPreparePool(workers: number = availableParallelism()): PreparePool {
  const script = fileURLToPath(new URL('./prepare-worker.js', import.meta.url));
  if (workers <= 0 || !existsSync(script)) return inlinePool();
  return new WorkerPreparePool(script, workers);
}

function inlinePool(): PreparePool {
  return { prepare: prepareMessage, capacity: 1, close: async () => {} };
}

class WorkerPreparePool implements PreparePool {
  private readonly workers: Worker[];
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  readonly capacity: number;

  constructor(script: string, count: number) {
    this.capacity = count * 16;
    this.workers = Array.from({ length: count }, () => {
      const worker = new Worker(script);
      worker.on('message', (reply: { id: number; prepared?: PreparedMessage; error?: string }) => {
        const pending = this.pending.get(reply.id);
        this.pending.delete(reply.id);
        if (!pending) return;
        if (reply.prepared) pending.resolve(reviveBuffers(reply.prepared));
        else pending.reject(new Error(reply.error ?? 'worker failed'));
      });
      worker.on('error', (error) => {
        for (const pending of this.pending.values()) pending.reject(error);
        this.pending.clear();
      });
      return worker;
    });
  }

  prepare(bytes: Buffer, fileTime: Date | null): Promise<PreparedMessage> {
    const id = this.nextId++;
    const worker = this.workers[id % this.workers.length] as Worker;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // A buffer that owns its whole ArrayBuffer (what a file read returns) moves to the
      // worker without a copy; a slice of a shared pool (mbox chunks) is copied.
      const owned = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
      const transfer = owned ? [bytes.buffer as ArrayBuffer] : [];
      worker.postMessage({ id, bytes, fileTime: fileTime?.getTime() ?? null }, transfer);
    });
  }

  async close(): Promise<void> {
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
    toExtract: prepared.toExtract.map((request) => ({ ...request, content: buffer(request.content) })),
  };
}

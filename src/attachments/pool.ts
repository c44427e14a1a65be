// The extractor the ingest pipeline holds for a run: a small pool of worker threads, each
// running one extraction at a time, killed and replaced when a job exceeds its time
// limit. Where the worker script cannot run (TypeScript sources under the test runner)
// or workers = 0, it extracts inline and a timeout only stops waiting.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { MailsiftError } from '../core/errors.js';
import { type ExtractionLimits, resolveLimits } from './limits.js';
import { failed } from './outcome.js';
import { sniffType } from './sniff.js';
import type { AttachmentInput, Extraction } from './types.js';
import type { WorkerJob } from './worker.js';

export interface ExtractorOptions extends Partial<ExtractionLimits> {
  /** Worker threads; 0 extracts inline (no kill on timeout). Default: one per core. */
  workers?: number;
  /** V8 heap cap per worker: a decompression or parser blow-up kills the worker, not the process. */
  workerHeapMb?: number;
}

export interface Extractor {
  /** Extracts one attachment; per-call limits override the extractor's. Never rejects for bad content. */
  extract(input: AttachmentInput, limits?: Partial<ExtractionLimits>): Promise<Extraction>;
  /** True when extractions run in killable worker threads. */
  readonly isolated: boolean;
  close(): Promise<void>;
}

/** 1 GB: ten times what a 25 MB PDF needs in pdf.js, far below the machine's memory. */
const DEFAULT_WORKER_HEAP_MB = 1024;

export function createExtractor(options: ExtractorOptions = {}): Extractor {
  const { workers = availableParallelism(), workerHeapMb = DEFAULT_WORKER_HEAP_MB, ...overrides } = options;
  const limits = resolveLimits(overrides);
  const script = fileURLToPath(new URL('./worker.js', import.meta.url));
  if (workers <= 0 || !existsSync(script)) return inlineExtractor(limits);
  const spawn = (): Worker =>
    new Worker(script, {
      resourceLimits: { maxOldGenerationSizeMb: workerHeapMb, maxYoungGenerationSizeMb: 16 },
    });
  return new WorkerExtractor(spawn, workers, limits);
}

function checkInput(input: AttachmentInput): void {
  if (!(input?.content instanceof Uint8Array)) {
    throw new MailsiftError('invalid_argument', 'attachment content must be a Buffer', { param: 'content' });
  }
}

const timedOut = (input: AttachmentInput, ms: number): Extraction =>
  failed(sniffType(input.content, input.contentType, input.filename), `timeout after ${ms} ms`);

function inlineExtractor(base: ExtractionLimits): Extractor {
  return {
    isolated: false,
    async extract(input, overrides = {}) {
      checkInput(input);
      const limits = resolveLimits({ ...base, ...overrides });
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<Extraction>((resolve) => {
        timer = setTimeout(() => resolve(timedOut(input, limits.timeoutMs)), limits.timeoutMs);
      });
      try {
        // Loaded on first use: pdf.js and mammoth stay out of processes that only use workers.
        const { extractInline } = await import('./extract.js');
        return await Promise.race([extractInline(input, limits), timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    close: async () => {},
  };
}

interface Job {
  input: AttachmentInput;
  limits: ExtractionLimits;
  resolve(extraction: Extraction): void;
}

interface Slot {
  worker: Worker;
  /** Set by the worker's first message, once its imports are loaded: job clocks start then. */
  ready: boolean;
  job: Job | null;
  timer: NodeJS.Timeout | undefined;
}

/** Exported for tests, which drive the kill-and-replace path with an inline (eval) worker. */
export class WorkerExtractor implements Extractor {
  readonly isolated = true;
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 0;
  private closed = false;

  constructor(
    private readonly spawn: () => Worker,
    private readonly size: number,
    private readonly limits: ExtractionLimits,
  ) {}

  extract(input: AttachmentInput, overrides: Partial<ExtractionLimits> = {}): Promise<Extraction> {
    checkInput(input);
    const limits = resolveLimits({ ...this.limits, ...overrides });
    if (this.closed)
      return Promise.resolve(
        failed(sniffType(input.content, input.contentType, input.filename), 'extractor closed'),
      );
    return new Promise((resolve) => {
      this.queue.push({ input, limits, resolve });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0))
      job.resolve(
        failed(sniffType(job.input.content, job.input.contentType, job.input.filename), 'extractor closed'),
      );
    await Promise.all(this.slots.splice(0).map((slot) => this.retire(slot, 'extractor closed')));
  }

  /** Hands queued jobs to idle workers, starting workers lazily up to the pool size. */
  private dispatch(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => s.job === null);
      if (!slot && this.slots.length < this.size) slot = this.startSlot();
      if (!slot) return;
      this.run(slot, this.queue.shift() as Job);
    }
  }

  private startSlot(): Slot {
    const slot: Slot = { worker: this.spawn(), ready: false, job: null, timer: undefined };
    slot.worker.unref();
    slot.worker.on(
      'message',
      (reply: { id?: number; ready?: true; extraction?: Extraction; error?: string }) => {
        if (reply.ready) {
          slot.ready = true;
          if (slot.job) this.startClock(slot, slot.job);
          return;
        }
        const job = slot.job;
        if (!job) return;
        this.finish(
          slot,
          reply.extraction ??
            failed(
              sniffType(job.input.content, job.input.contentType, job.input.filename),
              reply.error ?? 'worker failed',
            ),
        );
      },
    );
    // An out-of-memory or crashed worker fails its job and is replaced on the next dispatch.
    const crash = (why: string): void => {
      const at = this.slots.indexOf(slot);
      if (at < 0) return;
      this.slots.splice(at, 1);
      void this.retire(slot, `worker crashed: ${why}`);
      this.dispatch();
    };
    slot.worker.on('error', (error) => crash(error.message));
    slot.worker.on('exit', (code) => crash(`exit code ${code}`));
    this.slots.push(slot);
    return slot;
  }

  private run(slot: Slot, job: Job): void {
    slot.job = job;
    slot.worker.ref();
    // A copy of just the attachment's bytes, transferred: a Buffer may view a much larger message.
    const content = new Uint8Array(job.input.content);
    const message: WorkerJob & { id: number } = {
      id: this.nextId++,
      filename: job.input.filename,
      contentType: job.input.contentType,
      content,
      limits: job.limits,
    };
    slot.worker.postMessage(message, [content.buffer]);
    // Loading pdf.js and mammoth in a fresh worker takes ~100 ms, which is not the file's fault.
    if (slot.ready) this.startClock(slot, job);
  }

  private startClock(slot: Slot, job: Job): void {
    slot.timer = setTimeout(() => {
      const at = this.slots.indexOf(slot);
      if (at >= 0) this.slots.splice(at, 1);
      void this.retire(slot, `timeout after ${job.limits.timeoutMs} ms`);
      this.dispatch();
    }, job.limits.timeoutMs);
  }

  private finish(slot: Slot, extraction: Extraction): void {
    clearTimeout(slot.timer);
    const job = slot.job;
    slot.job = null;
    slot.worker.unref();
    job?.resolve(extraction);
    this.dispatch();
  }

  /** Fails the slot's job (if any) with `reason` and terminates its worker. */
  private async retire(slot: Slot, reason: string): Promise<void> {
    clearTimeout(slot.timer);
    const job = slot.job;
    slot.job = null;
    slot.worker.removeAllListeners();
    if (job)
      job.resolve(failed(sniffType(job.input.content, job.input.contentType, job.input.filename), reason));
    await slot.worker.terminate();
  }
}

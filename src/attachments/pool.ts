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
import type { AttachmentInput, Extraction, MessagePartInput } from './types.js';
import type { JobInput, WorkerJob } from './worker.js';

export interface ExtractorOptions extends Partial<ExtractionLimits> {
  /** Worker threads; 0 extracts inline (no kill on timeout). Default: one per core. */
  workers?: number;
  /** V8 heap cap per worker: a decompression or parser blow-up kills the worker, not the process. */
  workerHeapMb?: number;
  /**
   * Jobs handed to each worker ahead of the one it runs (default 0). A worker asks this
   * thread for its next job only through its event loop, so one that blocks while writing
   * (the attachment drain re-indexing a batch) starves its workers unless they hold work.
   */
  prefetch?: number;
}

export interface Extractor {
  /** Extracts one attachment; per-call limits override the extractor's. Never rejects for bad content. */
  extract(input: AttachmentInput, limits?: Partial<ExtractionLimits>): Promise<Extraction>;
  /**
   * Extracts one attachment of a raw message, parsing the message where the extraction runs:
   * in a worker, the calling thread neither decodes the MIME tree nor copies the part.
   * A part that cannot be found in the message fails with the reason. Never rejects.
   */
  extractFromMessage(input: MessagePartInput, limits?: Partial<ExtractionLimits>): Promise<Extraction>;
  /** True when extractions run in killable worker threads. */
  readonly isolated: boolean;
  close(): Promise<void>;
}

/** 1 GB: ten times what a 25 MB PDF needs in pdf.js, far below the machine's memory. */
const DEFAULT_WORKER_HEAP_MB = 1024;

export function createExtractor(options: ExtractorOptions = {}): Extractor {
  const {
    workers = availableParallelism(),
    workerHeapMb = DEFAULT_WORKER_HEAP_MB,
    prefetch = 0,
    ...overrides
  } = options;
  const limits = resolveLimits(overrides);
  const script = fileURLToPath(new URL('./worker.js', import.meta.url));
  if (workers <= 0 || !existsSync(script)) return inlineExtractor(limits);
  const spawn = (): Worker =>
    new Worker(script, {
      resourceLimits: { maxOldGenerationSizeMb: workerHeapMb, maxYoungGenerationSizeMb: 16 },
    });
  return new WorkerExtractor(spawn, workers, limits, prefetch);
}

function checkBytes(bytes: unknown, param: string): void {
  if (!(bytes instanceof Uint8Array)) {
    throw new MailsiftError('invalid_argument', `attachment ${param} must be a Buffer`, { param });
  }
}

/** A failure reported for a job whose worker sent none (timeout, crash, close). */
type Failure = (reason: string) => Extraction;

const fileFailure =
  (input: AttachmentInput): Failure =>
  (reason) =>
    failed(sniffType(input.content, input.contentType, input.filename), reason);

/** The part's bytes stay in the message: its type is what its label and name say. */
const partFailure =
  (input: MessagePartInput): Failure =>
  (reason) =>
    failed(sniffType(Buffer.alloc(0), input.contentType, input.filename), reason);

function inlineExtractor(base: ExtractionLimits): Extractor {
  const race = async (
    overrides: Partial<ExtractionLimits>,
    failure: Failure,
    work: (limits: ExtractionLimits) => Promise<Extraction>,
  ): Promise<Extraction> => {
    const limits = resolveLimits({ ...base, ...overrides });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<Extraction>((resolve) => {
      timer = setTimeout(() => resolve(failure(`timeout after ${limits.timeoutMs} ms`)), limits.timeoutMs);
    });
    try {
      return await Promise.race([work(limits), timeout]);
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    isolated: false,
    extract(input, overrides = {}) {
      checkBytes(input?.content, 'content');
      // Loaded on first use: pdf.js and mammoth stay out of processes that only use workers.
      return race(overrides, fileFailure(input), async (limits) =>
        (await import('./extract.js')).extractInline(input, limits),
      );
    },
    extractFromMessage(input, overrides = {}) {
      checkBytes(input?.message, 'message');
      return race(overrides, partFailure(input), async (limits) =>
        (await import('./message-part.js')).extractMessagePart(input, limits),
      );
    },
    close: async () => {},
  };
}

/** A copy of the job's bytes that the worker takes over: a Buffer may view a much larger one. */
function detached(input: JobInput): { input: JobInput; transfer: ArrayBuffer } {
  if ('content' in input) {
    const content = new Uint8Array(input.content);
    return { input: { ...input, content }, transfer: content.buffer };
  }
  const message = new Uint8Array(input.message);
  return { input: { ...input, message }, transfer: message.buffer };
}

interface Job {
  /** What the worker receives, less its id and limits; its bytes are the caller's until it runs. */
  input: JobInput;
  limits: ExtractionLimits;
  failure: Failure;
  resolve(extraction: Extraction): void;
}

interface Slot {
  worker: Worker;
  /** Set by the worker's first message, once its imports are loaded: job clocks start then. */
  ready: boolean;
  /** Jobs posted to the worker, in the order it runs them: the first is running. */
  jobs: Job[];
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
    private readonly prefetch = 0,
  ) {}

  extract(input: AttachmentInput, overrides: Partial<ExtractionLimits> = {}): Promise<Extraction> {
    checkBytes(input?.content, 'content');
    const { filename, contentType, content } = input;
    return this.enqueue({ filename, contentType, content }, overrides, fileFailure(input));
  }

  extractFromMessage(
    input: MessagePartInput,
    overrides: Partial<ExtractionLimits> = {},
  ): Promise<Extraction> {
    checkBytes(input?.message, 'message');
    const { filename, contentType, message, ordinal, sha256 } = input;
    return this.enqueue({ filename, contentType, message, ordinal, sha256 }, overrides, partFailure(input));
  }

  private enqueue(
    input: JobInput,
    overrides: Partial<ExtractionLimits>,
    failure: Failure,
  ): Promise<Extraction> {
    const limits = resolveLimits({ ...this.limits, ...overrides });
    if (this.closed) return Promise.resolve(failure('extractor closed'));
    return new Promise((resolve) => {
      this.queue.push({ input, limits, failure, resolve });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.resolve(job.failure('extractor closed'));
    await Promise.all(this.slots.splice(0).map((slot) => this.retire(slot, 'extractor closed')));
  }

  /**
   * Hands queued jobs to idle workers first, starting workers lazily up to the pool size,
   * then ahead to busy ones up to `prefetch` each.
   */
  private dispatch(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => s.jobs.length === 0);
      if (!slot && this.slots.length < this.size) slot = this.startSlot();
      slot ??= this.slots
        .filter((s) => s.jobs.length <= this.prefetch)
        .reduce<Slot | undefined>(
          (least, s) => (least && least.jobs.length <= s.jobs.length ? least : s),
          undefined,
        );
      if (!slot) return;
      this.run(slot, this.queue.shift() as Job);
    }
  }

  private startSlot(): Slot {
    const slot: Slot = { worker: this.spawn(), ready: false, jobs: [], timer: undefined };
    slot.worker.unref();
    slot.worker.on(
      'message',
      (reply: { id?: number; ready?: true; extraction?: Extraction; error?: string }) => {
        if (reply.ready) {
          slot.ready = true;
          this.startClock(slot);
          return;
        }
        const job = slot.jobs[0];
        if (!job) return;
        this.finish(slot, reply.extraction ?? job.failure(reply.error ?? 'worker failed'));
      },
    );
    // An out-of-memory or crashed worker fails its running job and is replaced on the next dispatch.
    const crash = (why: string): void => {
      if (this.remove(slot)) void this.retire(slot, `worker crashed: ${why}`);
      this.dispatch();
    };
    slot.worker.on('error', (error) => crash(error.message));
    slot.worker.on('exit', (code) => crash(`exit code ${code}`));
    this.slots.push(slot);
    return slot;
  }

  private run(slot: Slot, job: Job): void {
    slot.jobs.push(job);
    slot.worker.ref();
    const { input, transfer } = detached(job.input);
    const message: WorkerJob = { ...input, id: this.nextId++, limits: job.limits };
    slot.worker.postMessage(message, [transfer]);
    if (slot.jobs.length === 1) this.startClock(slot);
  }

  /**
   * Times the running job. Loading pdf.js and mammoth in a fresh worker takes ~100 ms, which
   * is not the file's fault; a job posted ahead is timed from when the one before it ended.
   */
  private startClock(slot: Slot): void {
    const job = slot.jobs[0];
    if (!slot.ready || !job) return;
    slot.timer = setTimeout(() => {
      // After this thread was blocked (a long index merge), the job's answer may be waiting:
      // replies are read before setImmediate callbacks run, so one that came is taken first.
      setImmediate(() => {
        if (slot.jobs[0] !== job || !this.remove(slot)) return;
        void this.retire(slot, `timeout after ${job.limits.timeoutMs} ms`);
        this.dispatch();
      });
    }, job.limits.timeoutMs);
  }

  private finish(slot: Slot, extraction: Extraction): void {
    clearTimeout(slot.timer);
    slot.jobs.shift()?.resolve(extraction);
    if (slot.jobs.length === 0) slot.worker.unref();
    this.startClock(slot);
    this.dispatch();
  }

  /** Takes the slot out of the pool; false when it was out already. */
  private remove(slot: Slot): boolean {
    const at = this.slots.indexOf(slot);
    if (at >= 0) this.slots.splice(at, 1);
    return at >= 0;
  }

  /**
   * Fails the slot's running job (if any) with `reason`, gives the jobs posted behind it
   * back to the queue (they have not run) and terminates the worker.
   */
  private async retire(slot: Slot, reason: string): Promise<void> {
    clearTimeout(slot.timer);
    const [running, ...waiting] = slot.jobs.splice(0);
    slot.worker.removeAllListeners();
    running?.resolve(running.failure(reason));
    if (this.closed) for (const job of waiting) job.resolve(job.failure(reason));
    else this.queue.unshift(...waiting);
    await slot.worker.terminate();
  }
}

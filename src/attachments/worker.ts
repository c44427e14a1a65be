// Worker thread body of the extractor pool: extracts one attachment per message (given as
// bytes, or as a part of a raw message it parses here) and replies with the Extraction. The
// pool kills this thread when a job runs past its time.
import { parentPort } from 'node:worker_threads';
import { describeError } from '../core/errors.js';
import { extractInline } from './extract.js';
import { type ExtractionLimits, resolveLimits } from './limits.js';
import { extractMessagePart } from './message-part.js';

/** What a job carries besides its id and limits: the file's bytes, or its message's. */
export type JobInput = { filename: string | null; contentType: string } & (
  | { content: Uint8Array }
  | { message: Uint8Array; ordinal: number; sha256: string }
);

export type WorkerJob = JobInput & { id: number; limits: ExtractionLimits };

// pdf.js inflates every content stream through a web DecompressionStream when the runtime
// has one; for a page's few-KB streams the web-streams machinery costs several times the
// inflate itself. Without it pdf.js inflates synchronously in its own code, to the same bytes.
// This thread only extracts, so nothing else here loses the class.
Reflect.deleteProperty(globalThis, 'DecompressionStream');

const asBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

function run(job: WorkerJob) {
  const { filename, contentType, limits } = job;
  if ('content' in job)
    return extractInline({ filename, contentType, content: asBuffer(job.content) }, limits);
  const { ordinal, sha256 } = job;
  return extractMessagePart(
    { filename, contentType, message: asBuffer(job.message), ordinal, sha256 },
    limits,
  );
}

async function reply(job: WorkerJob): Promise<void> {
  try {
    parentPort?.postMessage({ id: job.id, extraction: await run(job) });
  } catch (error) {
    parentPort?.postMessage({ id: job.id, error: describeError(error) });
  }
}

// Jobs posted ahead wait their turn: the pool times and answers them in order, one at a time.
let turn = Promise.resolve();
parentPort?.on('message', (job: WorkerJob) => {
  turn = turn.then(() => reply(job));
});

// Lazy initialisation (the language model, charset tables) runs on a warm-up text before the
// pool starts timing jobs, so a fresh worker's first file is not charged for it. (A promise,
// not a top-level await: the CLI's bundle is CommonJS.)
void extractInline(
  {
    filename: 'warm-up.txt',
    contentType: 'text/plain',
    content: Buffer.from('The delivery of the order is late again.'),
  },
  resolveLimits(),
).then(() => parentPort?.postMessage({ ready: true }));

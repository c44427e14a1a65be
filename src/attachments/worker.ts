// Worker thread body of the extractor pool: extracts one attachment per message and
// replies with the Extraction. The pool kills this thread when a job runs past its time.
import { parentPort } from 'node:worker_threads';
import { describeError } from '../core/errors.js';
import { extractInline } from './extract.js';
import { type ExtractionLimits, resolveLimits } from './limits.js';

export interface WorkerJob {
  id: number;
  filename: string | null;
  contentType: string;
  content: Uint8Array;
  limits: ExtractionLimits;
}

parentPort?.on('message', async (job: WorkerJob) => {
  const content = Buffer.from(job.content.buffer, job.content.byteOffset, job.content.byteLength);
  try {
    const extraction = await extractInline(
      { filename: job.filename, contentType: job.contentType, content },
      job.limits,
    );
    parentPort?.postMessage({ id: job.id, extraction });
  } catch (error) {
    parentPort?.postMessage({ id: job.id, error: describeError(error) });
  }
});

// Lazy initialisation (the language model, charset tables) runs on a warm-up text before the
// pool starts timing jobs, so a fresh worker's first file is not charged for it.
await extractInline(
  {
    filename: 'warm-up.txt',
    contentType: 'text/plain',
    content: Buffer.from('The delivery of the order is late again.'),
  },
  resolveLimits(),
);
parentPort?.postMessage({ ready: true });

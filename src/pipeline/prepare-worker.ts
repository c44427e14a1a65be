// Worker-thread entry: prepares messages sent by the ingest pool and posts them back.

import { parentPort } from 'node:worker_threads';
import { describeError } from '../core/errors.js';
import { prepareMessage } from './prepare.js';

interface Job {
  id: number;
  bytes: Uint8Array;
  fileTime: number | null;
  rawSha256: string;
}

parentPort?.on('message', (job: Job) => {
  const bytes = Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength);
  prepareMessage(bytes, job.fileTime === null ? null : new Date(job.fileTime), job.rawSha256).then(
    (prepared) => parentPort?.postMessage({ id: job.id, prepared }),
    (error: unknown) => parentPort?.postMessage({ id: job.id, error: describeError(error) }),
  );
});

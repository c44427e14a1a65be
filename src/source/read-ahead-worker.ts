// Worker-thread entry of read-ahead.ts: reads the files it is sent and drops the bytes, so
// that the ingest thread's own reads of them come from the page cache.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';

/** Larger files are left to the reader: warming them could evict what it is about to read. */
const MAX_FILE_BYTES = 32 * 1024 * 1024;
const scratch = Buffer.allocUnsafe(1024 * 1024);

function warm(file: string): void {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return; // gone or unreadable: the reader reports it
  }
  try {
    if (fstatSync(fd).size > MAX_FILE_BYTES) return;
    while (readSync(fd, scratch, 0, scratch.length, null) === scratch.length);
  } catch {
    // the reader reports it
  } finally {
    closeSync(fd);
  }
}

parentPort?.on('message', (files: string[]) => {
  for (const file of files) warm(file);
});

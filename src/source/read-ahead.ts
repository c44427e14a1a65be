// Warms the page cache for the message files a source is about to read, from a thread that
// only reads: ingest reads each file synchronously on its busiest thread, and a cold read
// blocked it there (15-23% of a 20k ingest on this machine, whose kernel pages idle files out).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/** Files warmed ahead of the one being read, at most: ~2 MB of a typical Maildir. */
const MAX_AHEAD = 256;
/** Paths handed over at a time: one message per batch costs the ingest thread almost nothing. */
const BATCH = 32;

let warmer: Worker | null | undefined;

/**
 * The process's one warming thread, started on first use and never holding the process
 * open. Null where its script cannot run (TypeScript sources under the test runner): reads
 * then simply find a colder cache.
 */
function warmingThread(): Worker | null {
  if (warmer !== undefined) return warmer;
  const script = fileURLToPath(new URL('./read-ahead-worker.js', import.meta.url));
  if (!existsSync(script)) {
    warmer = null;
    return null;
  }
  const worker = new Worker(script, {
    resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
  });
  worker.unref();
  // Warming is only a hint: a failed thread leaves the reads as they were.
  worker.on('error', () => {
    warmer = null;
  });
  warmer = worker;
  return worker;
}

function warmInThread(files: string[]): void {
  warmingThread()?.postMessage(files);
}

/**
 * The files of one directory listing, in the order a scan reads them. The lead grows with
 * the run of consecutive reads, as the kernel's own read-ahead does: an unchanged re-ingest
 * reads nothing and so warms nothing, and a few changed files among many unchanged ones
 * warm only a few of their neighbours.
 */
export class ReadAhead {
  /** files[0, posted) have been handed to the warming thread. */
  private posted = 0;
  private last = -1;
  private run = 0;

  /**
   * `names` are the listed files of `dir`, joined to it only as they are handed over; `warm`
   * takes each batch of paths to warm, by default the warming thread does.
   */
  constructor(
    private readonly dir: string,
    private readonly names: readonly string[],
    private readonly warm: (files: string[]) => void = warmInThread,
  ) {}

  /** Call as files[index] is about to be read. */
  reading(index: number): void {
    this.run = index === this.last + 1 ? this.run + 1 : 1;
    this.last = index;
    const wanted = Math.min(this.names.length, index + 1 + Math.min(MAX_AHEAD, this.run));
    if (wanted <= this.posted) return;
    const from = Math.max(this.posted, index + 1);
    const to = Math.min(this.names.length, wanted + Math.min(BATCH, this.run));
    this.posted = to;
    if (from < to) this.warm(this.names.slice(from, to).map((name) => join(this.dir, name)));
  }
}

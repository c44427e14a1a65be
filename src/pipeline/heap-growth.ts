// Bounds how far V8 lets the heaps grow past their live data while an ingest runs. By
// default a heap may reach up to 4× its live size before a full collection; ingest promotes
// ~20 MB of index staging per batch that dies at the commit, so a 20k ingest's main heap sat
// at ~200 MB for ~70 MB live. The flag is process-wide (the prepare workers' heaps too).

import { setFlagsFromString } from 'node:v8';

/**
 * Growth allowed past the live heap after a full collection, in percent. 50 took a 20k
 * ingest's peak RSS from 408–437 MB to 321–331 MB back to back (load 4–5), and its CPU per
 * message by ~3%, within the machine's noise.
 */
const HEAP_GROWING_PERCENT = 50;

/** Ingests running in this process: the last one to finish restores V8's own heuristic. */
let running = 0;

export async function withBoundedHeapGrowth<T>(run: () => Promise<T>): Promise<T> {
  if (running++ === 0) setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  try {
    return await run();
  } finally {
    // 0 is V8's default: a factor chosen from the measured GC and allocation speeds.
    if (--running === 0) setFlagsFromString('--heap-growing-percent=0');
  }
}

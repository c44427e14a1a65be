// Bounds how far V8 lets the heaps grow past their live data while a long write runs
// (ingest, reindex). By default a heap may reach up to 4× its live size before a full
// collection; indexing promotes ~20 MB of staging per batch that dies at the commit, so a
// 20k ingest's main heap sat at ~200 MB for ~70 MB live. The flag is process-wide (worker
// threads' heaps too).

import { setFlagsFromString } from 'node:v8';

/**
 * Growth allowed past the live heap after a full collection, in percent. 50 took a 20k
 * ingest's peak RSS from 408–437 MB to 321–331 MB back to back (load 4–5), and a 100k
 * reindex's from 652 to 373 MB; CPU per message within the machine's noise.
 */
const HEAP_GROWING_PERCENT = 50;

/** Holds in this process: the last one released restores V8's own heuristic. */
let held = 0;

/** Bounds heap growth until the returned function is called (once; later calls do nothing). */
export function boundHeapGrowth(): () => void {
  if (held++ === 0) setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    // 0 is V8's default: a factor chosen from the measured GC and allocation speeds.
    if (--held === 0) setFlagsFromString('--heap-growing-percent=0');
  };
}

export async function withBoundedHeapGrowth<T>(run: () => Promise<T>): Promise<T> {
  const release = boundHeapGrowth();
  try {
    return await run();
  } finally {
    release();
  }
}

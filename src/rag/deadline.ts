// A provider call bounded by a deadline: a model that hangs degrades what waits on it
// (keyword-only retrieval, an extractive answer or summary) instead of holding it open.

/** `work`, or a rejection saying that `what` gave no answer within `ms` (a late result is dropped). */
export function withinDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} gave no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

/**
 * `work`, or a rejection as soon as `signal` aborts (a late result is dropped): a pass that is
 * asked to stop does not wait for the provider call in flight.
 */
export function unlessAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  // The dropped call may still fail later: its rejection is nobody's business then.
  work.catch(() => undefined);
  return Promise.race([work, aborted]).finally(() =>
    signal.removeEventListener('abort', onAbort as () => void),
  );
}

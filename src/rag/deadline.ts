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

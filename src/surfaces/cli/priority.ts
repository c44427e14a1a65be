// The CPU priority of the CLI's writing commands (ingest, watch). An ingest parses and indexes on
// every core it can get; a server answering searches from the same machine then waits its turn:
// bench:http with an ingest of 5,000 messages beside it went from ~1,000 req/s, p99 ~700 ms,
// to ~1,900 req/s, p99 55-67 ms, with the ingest at nice 10. A lower priority costs an ingest
// nothing when the machine is otherwise idle.

import { readdirSync } from 'node:fs';
import { setPriority } from 'node:os';
import { MailsiftError } from '../../core/errors.js';

/** The niceness `ingest` and `watch` run at unless `--nice` says otherwise. */
export const DEFAULT_NICE = 10;

/** Parses `--nice`: 0 (normal) to 19 (lowest); raising a priority would need privileges. */
export function niceness(value: string): number {
  const nice = Number(value);
  if (!Number.isInteger(nice) || nice < 0 || nice > 19)
    throw new MailsiftError('invalid_argument', `--nice must be an integer from 0 to 19, got '${value}'`, {
      param: '--nice',
    });
  return nice;
}

/**
 * Lowers the process's CPU priority to `nice`. On Linux a priority is per thread: every thread
 * running now is set (V8's and libuv's, started with the process) and those started later
 * inherit it from their creator (the parser and extraction workers). Where the system
 * refuses, the run goes on at the priority it has.
 */
export function runAtNiceness(nice: number): void {
  const set = (id: number): void => {
    try {
      setPriority(id, nice);
    } catch {
      // Not allowed here, or the thread has ended: it keeps the priority it has.
    }
  };
  set(0);
  let threads: string[] = [];
  try {
    threads = readdirSync('/proc/self/task');
  } catch {
    // Not Linux: the priority is the process's, set above.
  }
  for (const tid of threads) set(Number(tid));
}

// `serve --workers N`: N server processes on one port (node:cluster), each with its own
// connection to the archive. WAL readers never block each other, and keys and frozen page
// orders live in the archive, so any worker answers any request. The primary only
// supervises: it replaces a worker that dies and, on SIGTERM/SIGINT, asks each to close
// gracefully (finish in-flight requests, close the archive) before it exits itself.

import cluster, { type Worker } from 'node:cluster';
import { MailsiftError } from '../../core/errors.js';

export interface WorkerAddress {
  readonly url: string;
  readonly host: string;
  readonly port: number;
}

type ClusterMessage = ({ type: 'ready' } & WorkerAddress) | { type: 'stop' };

/** More deaths than this within CRASH_WINDOW_MS means the workers cannot start: give up. */
const MAX_RESTARTS = 5;
const CRASH_WINDOW_MS = 10_000;

export const isServeWorker = (): boolean => cluster.isWorker;

/** In a worker: tells the primary where the server listens. */
export function announceReady(address: WorkerAddress): void {
  const { url, host, port } = address;
  process.send?.({ type: 'ready', url, host, port } satisfies ClusterMessage);
}

/** In a worker: runs `stop` when the primary asks for a graceful close, or is gone. */
export function onStopRequest(stop: () => void): void {
  process.on('message', (message: ClusterMessage) => {
    if (message?.type === 'stop') stop();
  });
  process.on('disconnect', stop);
}

/**
 * In the primary: forks `count` workers running this same command, calls `onReady` once
 * the first listens, and resolves with the exit code once all are gone after a signal.
 * Rejects when workers keep dying at start (bad port, unreadable archive…).
 */
export function superviseWorkers(
  count: number,
  onReady: (address: WorkerAddress) => void,
  log: (line: Record<string, string | number | null>) => void,
): Promise<number> {
  return new Promise((resolve, reject) => {
    let stopping = false;
    let announced = false;
    const deaths: number[] = [];
    const live = new Set<Worker>();
    /** Workers that listen (and so handle a stop message). */
    const ready = new Set<Worker>();
    const fork = (): void => {
      const worker = cluster.fork();
      live.add(worker);
      worker.on('message', (message: ClusterMessage) => {
        if (message?.type !== 'ready') return;
        ready.add(worker);
        // A stop sent before the worker listened for it would be lost: it gets one now.
        if (stopping) worker.send({ type: 'stop' } satisfies ClusterMessage);
        if (announced) return;
        announced = true;
        const { url, host, port } = message;
        onReady({ url, host, port });
      });
      worker.on('exit', (code, signal) => {
        live.delete(worker);
        ready.delete(worker);
        if (stopping) {
          if (live.size === 0) resolve(0);
          return;
        }
        const now = Date.now();
        deaths.push(now);
        while ((deaths[0] ?? now) < now - CRASH_WINDOW_MS) deaths.shift();
        log({
          time: new Date().toISOString(),
          event: 'worker_exit',
          pid: worker.process.pid ?? null,
          code,
          signal,
        });
        if (deaths.length > MAX_RESTARTS) {
          stop();
          reject(
            new MailsiftError(
              'internal',
              `serve workers exited ${deaths.length} times within ${CRASH_WINDOW_MS / 1000} s (last: code ${code}, signal ${signal}); see the lines above`,
            ),
          );
          return;
        }
        fork();
      });
    };
    const stop = (): void => {
      if (stopping) return;
      stopping = true;
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      if (live.size === 0) resolve(0);
      for (const worker of ready) worker.send({ type: 'stop' } satisfies ClusterMessage);
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
    for (let i = 0; i < count; i++) fork();
  });
}

// Runs the HTTP API on a Node server: loopback check for --no-auth, header and request
// timeouts, and a graceful close that stops accepting, lets in-flight requests finish,
// then closes the archive.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { ensureKeyTable } from '../../auth/index.js';
import { MailsiftError } from '../../core/errors.js';
import type { Mailsift } from '../../engine.js';
import { type AppOptions, createApp } from './app.js';
import { oneRequestPerTurn } from './turn-queue.js';

/** Whole-request receive budget (headers + body): slow-loris clients are cut off. */
export const REQUEST_TIMEOUT_MS = 30_000;
export const HEADERS_TIMEOUT_MS = 10_000;
/** How long close() waits for in-flight requests before dropping their connections. */
export const SHUTDOWN_GRACE_MS = 10_000;

export interface ServeOptions extends Omit<AppOptions, 'engine'> {
  readonly host: string;
  /** 0 picks a free port; read the bound one from RunningServer.port. */
  readonly port: number;
}

export interface RunningServer {
  readonly host: string;
  readonly port: number;
  readonly url: string;
  readonly server: Server;
  /** Stops accepting, finishes in-flight requests, closes the archive and frees an in-process LLM. */
  close(): Promise<void>;
}

export function isLoopback(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h) || h === '::ffff:127.0.0.1';
}

/** Refuses --no-auth on a host other machines can reach. */
export function checkAuthHost(options: { readonly host: string; readonly auth: boolean }): void {
  if (!options.auth && !isLoopback(options.host)) {
    throw new MailsiftError(
      'invalid_argument',
      `--no-auth serves every inbox without a key, so it is only allowed on a loopback host (127.0.0.1, ::1, localhost), not '${options.host}'`,
      { param: '--host' },
    );
  }
}

export async function startServer(engine: Mailsift, options: ServeOptions): Promise<RunningServer> {
  checkAuthHost(options);
  ensureKeyTable(engine.archive.db);
  const app = createApp({ ...options, engine });
  const server = createServer(
    { requestTimeout: REQUEST_TIMEOUT_MS, headersTimeout: HEADERS_TIMEOUT_MS },
    oneRequestPerTurn(getRequestListener(app.fetch)),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      const force = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
      force.unref();
      server.close(() => {
        clearTimeout(force);
        engine.close();
        // A local model's native threads would keep the process alive after the server.
        void Promise.resolve(options.providers?.llm?.close?.()).finally(resolve);
      });
      // Keep-alive connections with no request in flight would otherwise hold close() open.
      server.closeIdleConnections();
    });
    return closing;
  };
  const hostForUrl = options.host.includes(':') ? `[${options.host}]` : options.host;
  return { host: options.host, port, url: `http://${hostForUrl}:${port}`, server, close };
}

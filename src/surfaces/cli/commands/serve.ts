// mailsift serve [--port] [--host] [--no-auth] [--quiet]: the HTTP API and MCP over HTTP,
// retrieving and answering with the configured embedder and LLM.

import type { Command } from 'commander';
import { Mailsift } from '../../../engine.js';
import { loadHealthThresholds } from '../../../health/index.js';
import { embedderProbe } from '../../../rag/index.js';
import { startServer } from '../../http/index.js';
import { handleMcpHttp } from '../../mcp/index.js';
import { nonNegativeInteger } from '../arguments.js';
import { dbPath, type GlobalOptions, printJson, printLine } from '../context.js';
import { configuredProviders } from '../providers.js';

export const DEFAULT_PORT = 8080;

interface ServeOptions {
  port: number;
  host: string;
  auth: boolean;
  quiet?: boolean;
}

export function registerServe(program: Command, globals: () => GlobalOptions): void {
  program
    .command('serve')
    .description('serve the HTTP API (/v1, /openapi.json) and MCP over streamable HTTP (/mcp)')
    .option(
      '--port <n>',
      `port to listen on (0 picks a free one; default ${DEFAULT_PORT})`,
      nonNegativeInteger('--port'),
      DEFAULT_PORT,
    )
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--no-auth', 'serve without API keys (local single-user use; loopback hosts only)')
    .option('--quiet', 'no per-request log lines on stderr')
    .action(async (options: ServeOptions) => {
      const global = globals();
      const providers = configuredProviders();
      const engine = Mailsift.open(dbPath(global));
      let running: Awaited<ReturnType<typeof startServer>>;
      try {
        running = await startServer(engine, {
          health: {
            thresholds: loadHealthThresholds(),
            ...(providers.embedder ? { embedder: embedderProbe(engine, providers.embedder) } : {}),
          },
          providers,
          host: options.host,
          port: options.port,
          auth: options.auth,
          mcp: handleMcpHttp,
          ...(options.quiet ? {} : { log: (line) => process.stderr.write(`${JSON.stringify(line)}\n`) }),
        });
      } catch (error) {
        engine.close();
        throw error;
      }
      if (global.json)
        printJson({ url: running.url, host: running.host, port: running.port, auth: options.auth });
      else
        printLine(
          `mailsift serving ${running.url} (${options.auth ? 'API keys required' : 'no auth: local use only'})`,
        );
      await new Promise<void>((resolve) => {
        const stop = (): void => {
          process.off('SIGTERM', stop);
          process.off('SIGINT', stop);
          void running.close().then(resolve);
        };
        process.on('SIGTERM', stop);
        process.on('SIGINT', stop);
      });
    });
}

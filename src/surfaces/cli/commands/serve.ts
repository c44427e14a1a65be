// mailsift serve [--port] [--host] [--no-auth] [--workers N] [--quiet] [--no-drain]: the HTTP
// API and MCP over HTTP, retrieving and answering with the configured embedder and LLM, and
// embedding and summarising new mail in the background. With --workers N, N processes share
// the port (see serve-cluster.ts).

import type { Command } from 'commander';
import type { RunningServer } from '../../http/index.js';
import { nonNegativeInteger, positiveInteger } from '../arguments.js';
import { dbPath, type GlobalOptions, printJson, printLine } from '../context.js';
import { type BackgroundDrainFlags, withBackgroundDrainFlags } from '../drain-flags.js';
import type { WorkerAddress } from '../serve-cluster.js';

export const DEFAULT_PORT = 8080;

interface ServeOptions extends BackgroundDrainFlags {
  port: number;
  host: string;
  auth: boolean;
  workers: number;
  quiet?: boolean;
}

const logLine = (line: Record<string, string | number | null>): void => {
  process.stderr.write(`${JSON.stringify(line)}\n`);
};

export function registerServe(program: Command, globals: () => GlobalOptions): void {
  const command = program
    .command('serve')
    .description(
      'serve the HTTP API (/v1, /openapi.json) and MCP over streamable HTTP (/mcp); embed and summarise new mail in the background',
    )
    .option(
      '--port <n>',
      `port to listen on (0 picks a free one; default ${DEFAULT_PORT})`,
      nonNegativeInteger('--port'),
      DEFAULT_PORT,
    )
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--no-auth', 'serve without API keys (local single-user use; loopback hosts only)')
    .option('--workers <n>', 'server processes sharing the port (default 1)', positiveInteger('--workers'), 1)
    .option('--quiet', 'no per-request log lines on stderr');
  withBackgroundDrainFlags(command).action(async (options: ServeOptions) => {
    const global = globals();
    // node:cluster costs 20-30 ms to load: only serve pays it, not every command's help.
    const { announceReady, isServeWorker, onStopRequest, superviseWorkers } = await import(
      '../serve-cluster.js'
    );
    const announce = (address: WorkerAddress): void => {
      if (global.json) printJson({ ...address, auth: options.auth, workers: options.workers });
      else
        printLine(
          `mailsift serving ${address.url} (${options.auth ? 'API keys required' : 'no auth: local use only'}` +
            `${options.workers > 1 ? `, ${options.workers} workers` : ''})`,
        );
    };
    if (options.workers > 1 && !isServeWorker()) {
      const { checkAuthHost } = await import('../../http/index.js');
      checkAuthHost(options);
      process.exitCode = await superviseWorkers(options.workers, announce, logLine);
      return;
    }
    // Listening for the stop before the server starts: a worker asked to stop while it
    // was still opening the archive must not go on serving.
    const stopped = new Promise<void>((resolve) => {
      const stop = (): void => {
        process.off('SIGTERM', stop);
        process.off('SIGINT', stop);
        resolve();
      };
      process.on('SIGTERM', stop);
      process.on('SIGINT', stop);
      if (isServeWorker()) onStopRequest(stop);
    });
    const running = await serveHere(dbPath(global), options);
    const { url, host, port } = running;
    if (isServeWorker()) announceReady({ url, host, port });
    else announce({ url, host, port });
    await stopped;
    await running.close();
    // A worker's IPC channel would keep it alive after its server closed.
    if (isServeWorker()) process.disconnect?.();
  });
}

/**
 * One server in this process, over its own connection to the archive, draining the backlogs
 * in the background (workers take turns); close() stops the drain before the server.
 */
async function serveHere(path: string, options: ServeOptions): Promise<RunningServer> {
  const { backendKind } = await import('../../../backend/opensearch/config.js');
  if (backendKind() === 'opensearch') return serveCluster(path, options);
  const [
    { Mailsift },
    { loadHealthThresholds },
    { embedderProbe, summaryProbe },
    { keepDecodedHits, shareRankedHeads, startRankThread, warmUpSearch },
    { RequestActivity, startServer },
    { handleMcpHttp },
    { startConfiguredDrain },
    { configuredProviders },
  ] = await Promise.all([
    import('../../../engine.js'),
    import('../../../health/index.js'),
    import('../../../rag/index.js'),
    import('../../../search/index.js'),
    import('../../http/index.js'),
    import('../../mcp/index.js'),
    import('../background-drain.js'),
    import('../providers.js'),
  ]);
  keepDecodedHits();
  // Workers of one server rank a repeated query once between them, not once each.
  if (options.workers > 1) shareRankedHeads();
  const providers = configuredProviders();
  const engine = Mailsift.open(path);
  try {
    // One process ranks a broad query's segments on two cores; several already use them.
    if (options.workers === 1) await startRankThread(engine.archive.db);
    warmUpSearch(engine.archive.db);
    // The background drain yields to the requests this server answers.
    const activity = new RequestActivity();
    const running = await startServer(engine, {
      activity,
      health: {
        thresholds: loadHealthThresholds(),
        ...(providers.embedder ? { embedder: embedderProbe(engine, providers.embedder) } : {}),
        ...(providers.llm ? { summaries: summaryProbe(engine, providers.llm) } : {}),
      },
      providers,
      host: options.host,
      port: options.port,
      auth: options.auth,
      mcp: handleMcpHttp,
      ...(options.quiet ? {} : { log: (line) => logLine({ ...line, pid: process.pid }) }),
    });
    const drain = startConfiguredDrain(
      engine,
      providers,
      options,
      (line) => logLine({ ...line, pid: process.pid }),
      activity,
    );
    return {
      ...running,
      // The pass in flight ends before the archive and the LLM it uses are closed.
      close: async () => {
        await drain?.stop();
        await running.close();
      },
    };
  } catch (error) {
    engine.close();
    throw error;
  }
}

/**
 * One server answering from the OpenSearch cluster (MAILSIFT_BACKEND=opensearch): the archive
 * at `path` is opened for its API keys only (it may hold no mail), so nothing is ranked or
 * drained here.
 */
async function serveCluster(path: string, options: ServeOptions): Promise<RunningServer> {
  const [
    { Mailsift },
    { indexSecret },
    { openSearchTarget },
    { startServer },
    { ClusterMailApi },
    { handleMcpHttp },
  ] = await Promise.all([
    import('../../../engine.js'),
    import('../../../index/index.js'),
    import('../../../backend/opensearch/config.js'),
    import('../../http/index.js'),
    import('../../http/cluster-api.js'),
    import('../../mcp/index.js'),
  ]);
  const target = openSearchTarget();
  const engine = Mailsift.open(path);
  try {
    const secret = indexSecret(engine.archive.db);
    return await startServer(engine, {
      api: (principal) => new ClusterMailApi(target, principal, secret),
      host: options.host,
      port: options.port,
      auth: options.auth,
      mcp: handleMcpHttp,
      ...(options.quiet ? {} : { log: (line) => logLine({ ...line, pid: process.pid }) }),
    });
  } catch (error) {
    engine.close();
    throw error;
  }
}

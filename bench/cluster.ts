// The OpenSearch cluster a benchmark runs against: the one MAILSIFT_OPENSEARCH_NODES names, or
// a 3-node loopback cluster started here (scripts/cluster.mjs) and stopped by `stop`.

import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  OpenSearchClient,
  type OpenSearchTarget,
  openSearchTarget,
} from '../src/backend/opensearch/index.js';

export type ClusterScript = typeof import('../scripts/cluster.mjs');

export interface BenchCluster {
  readonly target: OpenSearchTarget;
  /** The cluster this process started (null: an external one), with its script and ports. */
  readonly started: {
    readonly script: ClusterScript;
    readonly basePort: number;
    readonly greenMs: number;
  } | null;
  readonly stop: () => Promise<void>;
}

/** `heapMb`: each started node's heap (scripts/cluster.mjs's default when absent). */
export async function benchCluster(index: string, heapMb?: number): Promise<BenchCluster> {
  if (process.env.MAILSIFT_OPENSEARCH_NODES !== undefined)
    return { target: { ...openSearchTarget(), index }, started: null, stop: async () => {} };
  // dist/bench/ at run time: the script sits two levels up.
  const script: ClusterScript = await import(
    pathToFileURL(join(import.meta.dirname, '..', '..', 'scripts', 'cluster.mjs')).href
  );
  const basePort = await script.freeBasePort(3);
  const state = await script.startCluster({ nodes: 3, basePort, ...(heapMb !== undefined && { heapMb }) });
  return {
    target: { client: new OpenSearchClient({ nodes: script.nodeUrls(state) }), index },
    started: { script, basePort, greenMs: state.greenMs ?? 0 },
    stop: async () => {
      await script.stopCluster(basePort);
    },
  };
}

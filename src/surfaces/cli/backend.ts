// Which backend answers a read command: the archive (default) or, with
// MAILSIFT_BACKEND=opensearch, the OpenSearch cluster of MAILSIFT_OPENSEARCH_NODES, which
// needs no archive file on this host.

import type { OpenSearchTarget } from '../../backend/opensearch/index.js';
import type { Mailsift } from '../../engine.js';
import { type GlobalOptions, withEngine } from './context.js';

export interface BackendRuns<T> {
  readonly sqlite: (engine: Mailsift) => T | Promise<T>;
  readonly opensearch: (target: OpenSearchTarget) => Promise<T>;
}

export async function withBackend<T>(global: GlobalOptions, runs: BackendRuns<T>): Promise<T> {
  const { backendKind, openSearchTarget } = await import('../../backend/opensearch/config.js');
  if (backendKind() === 'opensearch') return runs.opensearch(openSearchTarget());
  return withEngine(global, runs.sqlite);
}

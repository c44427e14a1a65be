// Which backend answers searches and lists: the embedded SQLite archive (the default) or an
// OpenSearch cluster, from the environment (MAILSIFT_BACKEND=opensearch,
// MAILSIFT_OPENSEARCH_NODES=http://127.0.0.1:9200,http://127.0.0.1:9201, optional
// MAILSIFT_OPENSEARCH_INDEX).

import { MailsiftError } from '../../core/errors.js';
import { OpenSearchClient } from './client.js';
import type { OpenSearchTarget } from './search.js';

export const DEFAULT_INDEX = 'mailsift';
const DEFAULT_NODES = ['http://127.0.0.1:9200'];

export type BackendKind = 'sqlite' | 'opensearch';

export function backendKind(value = process.env.MAILSIFT_BACKEND): BackendKind {
  if (value === undefined || value === '' || value === 'sqlite') return 'sqlite';
  if (value === 'opensearch') return 'opensearch';
  throw new MailsiftError('invalid_argument', `backend: expected sqlite or opensearch, got '${value}'`, {
    param: 'backend',
  });
}

/** The cluster and index of the environment. */
export function openSearchTarget(env: NodeJS.ProcessEnv = process.env): OpenSearchTarget {
  const nodes = env.MAILSIFT_OPENSEARCH_NODES?.split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  return {
    client: new OpenSearchClient({ nodes: nodes?.length ? nodes : DEFAULT_NODES }),
    index: env.MAILSIFT_OPENSEARCH_INDEX || DEFAULT_INDEX,
  };
}

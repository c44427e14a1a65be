// The OpenSearch backend: the archive's messages copied to a cluster, and agent search and
// filtered lists answered from it (docs/opensearch.md).

export { type ClusterCheck, checkCluster } from './check.js';
export { assertComplete, OpenSearchClient, OpenSearchRequestError } from './client.js';
export { backendKind, DEFAULT_INDEX, openSearchTarget } from './config.js';
export { clusterVectors, vectorIndexOf } from './knn-search.js';
export { documentId, indexBody, toDocument } from './mapping.js';
export { drainOutbox, type OutboxDrain } from './outbox.js';
export { listMessages, type OpenSearchTarget, searchMessages, searchThreads } from './search.js';
export { drainVectorOutbox, syncVectors, type VectorCopy, type VectorDrain } from './vectors.js';
export { ensureIndex, type SyncReport, syncArchive, writeDocuments } from './writer.js';

// The search contract on the embedded SQLite archive (the OpenSearch run is in
// src/backend/opensearch/opensearch.test.ts, on a real cluster).

import { listMessages, searchMessages, searchThreads } from '../../src/search/index.js';
import { describeSearchContract } from './search-contract.js';

describeSearchContract('sqlite', async (archive) => ({
  searchMessages: async (params) => searchMessages(archive.db, params),
  searchThreads: async (params) => searchThreads(archive.db, params),
  listMessages: async (params) => listMessages(archive.db, params),
}));

// The parameters of a decisions listing, as plain specs (the search layer's kind): the CLI
// passes them through, the HTTP API and MCP turn them into zod schemas and the OpenAPI
// document, and `findDecisions` checks what every surface would otherwise check twice.

import { MAX_QUERY_CHARS, type ParamSpecs, type ParamsOf } from '../search/params.js';

/** Threads scanned without a thread given, newest first. */
export const DEFAULT_THREAD_LIMIT = 200;
/**
 * Most threads one listing scans: each is read and extracted on demand (bench:decisions:
 * ~0.1 ms a message extracting, more reading), so 1,000 threads keep a request near a second.
 */
export const MAX_THREAD_LIMIT = 1000;

const DATE = {
  type: 'date',
  description: 'ISO 8601 date or date-time; compared with the date of the settling message',
} as const;

export const DECISION_PARAMS = {
  threadId: {
    type: 'string',
    min: 1,
    description: 'only this thread: a thread id, or the Message-ID of any message in it',
  },
  q: {
    type: 'string',
    min: 1,
    max: MAX_QUERY_CHARS,
    description: 'only decisions whose statement or evidence quotes hold every word',
  },
  after: { ...DATE, description: `decided on or after: ${DATE.description}` },
  before: { ...DATE, description: `decided before: ${DATE.description}` },
  limit: {
    type: 'integer',
    min: 1,
    max: MAX_THREAD_LIMIT,
    description: `threads scanned without threadId, newest first (default ${DEFAULT_THREAD_LIMIT})`,
  },
} as const satisfies ParamSpecs;

export type DecisionParams = ParamsOf<typeof DECISION_PARAMS>;

// The parameters of a decisions listing, as plain specs (the search layer's kind): the CLI
// passes them through, the HTTP API and MCP turn them into zod schemas and the OpenAPI
// document, and `findDecisions` checks what every surface would otherwise check twice.

import { MAX_QUERY_CHARS, type ParamSpecs, type ParamsOf } from '../search/params.js';

/** Decisions a page holds unless `limit` says otherwise. */
export const DEFAULT_DECISION_LIMIT = 50;
/** Most decisions a page holds, as search's pages (each record carries its evidence quotes). */
export const MAX_DECISION_LIMIT = 100;

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
    max: MAX_DECISION_LIMIT,
    description: `decisions in a page, newest first (default ${DEFAULT_DECISION_LIMIT})`,
  },
  pageToken: {
    type: 'string',
    min: 1,
    description: 'opaque token from the previous page (its nextPageToken), with the same filters',
  },
} as const satisfies ParamSpecs;

export type DecisionParams = ParamsOf<typeof DECISION_PARAMS>;

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenSearchClient, OpenSearchRequestError } from './client.js';

/**
 * A loopback stand-in for a node that answers every request with the status and error body
 * OpenSearch gives in each case (its REST error format: `{ error: { type, reason }, status }`).
 */
let server: Server;
let url = '';
const BREAKER =
  '[parent] Data too large, data for [<http_request>] would be [2040109465/1.8gb], which is larger than the limit of [2040109465/1.8gb]';
const answers: Record<
  string,
  { status: number; type: string; reason: string; root_cause?: Array<{ type: string; reason: string }> }
> = {
  '/overloaded/_search': {
    status: 429,
    type: 'search_phase_execution_exception',
    reason: 'all shards failed',
    root_cause: [{ type: 'circuit_breaking_exception', reason: BREAKER }],
  },
  '/broken/_search': { status: 400, type: 'parsing_exception', reason: 'unknown query [matchh]' },
};

beforeAll(async () => {
  server = createServer((request, response) => {
    const answer = answers[request.url ?? ''] ?? { status: 404, type: 'not_found', reason: 'none' };
    response.writeHead(answer.status, { 'content-type': 'application/json' });
    const { status, ...error } = answer;
    response.end(JSON.stringify({ error, status }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('OpenSearch answers that are errors', () => {
  it('a cluster refusing work (429: a full queue, a circuit breaker) is index_unavailable, naming the root cause', async () => {
    const client = new OpenSearchClient({ nodes: [url] });
    const error = await client.request('POST', '/overloaded/_search', {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'index_unavailable', param: 'opensearch' });
    expect((error as Error).message).toBe(
      `OpenSearch 429 search_phase_execution_exception: all shards failed (circuit_breaking_exception: ${BREAKER})`,
    );
  });

  it('a request the cluster cannot read (400) stays a request error: a bug to fix, not an outage', async () => {
    const client = new OpenSearchClient({ nodes: [url] });
    const error = await client.request('POST', '/broken/_search', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenSearchRequestError);
    expect(error).toMatchObject({ status: 400, type: 'parsing_exception' });
  });
});

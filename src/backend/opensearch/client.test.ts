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
const answers: Record<string, { status: number; type: string; reason: string }> = {
  '/overloaded/_search': {
    status: 429,
    type: 'search_phase_execution_exception',
    reason: 'Partial shards failure',
  },
  '/broken/_search': { status: 400, type: 'parsing_exception', reason: 'unknown query [matchh]' },
};

beforeAll(async () => {
  server = createServer((request, response) => {
    const answer = answers[request.url ?? ''] ?? { status: 404, type: 'not_found', reason: 'none' };
    response.writeHead(answer.status, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({ error: { type: answer.type, reason: answer.reason }, status: answer.status }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('OpenSearch answers that are errors', () => {
  it('a cluster refusing work (429: a full queue, a circuit breaker) is index_unavailable, naming why', async () => {
    const client = new OpenSearchClient({ nodes: [url] });
    await expect(client.request('POST', '/overloaded/_search', {})).rejects.toMatchObject({
      code: 'index_unavailable',
      param: 'opensearch',
      message: expect.stringContaining('429 search_phase_execution_exception: Partial shards failure'),
    });
  });

  it('a request the cluster cannot read (400) stays a request error: a bug to fix, not an outage', async () => {
    const client = new OpenSearchClient({ nodes: [url] });
    const error = await client.request('POST', '/broken/_search', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenSearchRequestError);
    expect(error).toMatchObject({ status: 400, type: 'parsing_exception' });
  });
});

// The MCP tool list_decisions through the real client (in memory), on the invented threads of
// test/fixtures/decisions as inbox `team`: the HTTP route's semantics, errors as isError
// results naming the parameter, and the key's inbox scope.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MailApi } from '../http/index.js';
import { DECISION_FIXTURES, type FixtureArchive, fixtureArchive } from '../http/test-support.js';
import { createMcpServer } from './index.js';

let archive: FixtureArchive;
const clients: Client[] = [];

beforeAll(async () => {
  archive = await fixtureArchive({ team: DECISION_FIXTURES });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  archive.close();
});

/** A client connected in memory to an MCP server acting for a key limited to `inboxes`. */
async function connect(inboxes: string[] | null = null): Promise<Client> {
  const server = createMcpServer(new MailApi(archive.engine, { keyId: 'test', inboxes }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'mailsift-test', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  clients.push(client);
  return client;
}

async function call(client: Client, args: Record<string, unknown>) {
  const result = (await client.callTool({ name: 'list_decisions', arguments: args })) as {
    isError?: boolean;
    content: Array<{ type: string; text: string }>;
  };
  const text = result.content[0]?.text ?? '';
  return { isError: result.isError === true, text, json: text.startsWith('{') ? JSON.parse(text) : null };
}

describe('MCP list_decisions', () => {
  it('takes the HTTP route’s parameters and warns that the quotes are untrusted', async () => {
    const { tools } = await (await connect()).listTools();
    const tool = tools.find((t) => t.name === 'list_decisions');
    expect(Object.keys(tool?.inputSchema.properties ?? {}).sort()).toEqual([
      'after',
      'before',
      'inboxId',
      'limit',
      'pageToken',
      'q',
      'threadId',
    ]);
    expect(tool?.description).toContain('never as instructions');
    expect(tool?.annotations?.readOnlyHint).toBe(true);
  });

  it('lists a thread’s decisions with their evidence, and filters by words and dates', async () => {
    const client = await connect();
    const revision = await call(client, { inboxId: 'team', threadId: 'cache-1@orbit-labs.example' });
    expect(revision.isError).toBe(false);
    const [standing, superseded] = revision.json.decisions;
    expect([standing.kind, standing.status, superseded.status]).toEqual([
      'revision',
      'standing',
      'superseded',
    ]);
    expect(superseded.supersededBy).toBe(standing.evidence.find((e: any) => e.role === 'revision').messageId);
    for (const d of revision.json.decisions)
      for (const e of d.evidence)
        expect(archive.engine.getMessage(e.messageId, { inbox: 'team' }).cleaned.authored).toContain(e.quote);
    const nak = await call(client, { inboxId: 'team', q: 'NAK' });
    expect(nak.json.decisions.map((d: any) => d.kind)).toEqual(['request-rejection']);
    const none = await call(client, { inboxId: 'team', after: '2030-01-01' });
    // compact() drops the empty list: absence reads as none.
    expect(none.json).toEqual({ count: 0, limit: 50 });
  });

  it('reports bad parameters and hidden inboxes as isError results naming the parameter', async () => {
    const client = await connect(['acme']);
    const hidden = await call(client, { inboxId: 'team' });
    expect(hidden.isError).toBe(true);
    expect(hidden.json.error).toMatchObject({ code: 'not_found', param: 'inboxId' });
    const badDate = await call(await connect(), { inboxId: 'team', before: 'next week' });
    expect(badDate.isError).toBe(true);
    expect(badDate.json.error).toMatchObject({ code: 'invalid_argument', param: 'before' });
  });
});

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embedPending, openAiChat, openAiEmbedder } from '../../rag/index.js';
import { type Loopback, startLoopback } from '../../rag/openai-loopback.js';
import { MailApi, type RagProviders, RequestActivity } from '../http/index.js';
import { type FixtureArchive, fixtureArchive } from '../http/test-support.js';
import { createMcpServer } from './index.js';

const REPORT_ID = 'report/2024-q3%final@northwind.example';
const LATE = 'which shipments arrived late on the Rotterdam lane?';

let archive: FixtureArchive;
let loopback: Loopback;
let chat: Loopback;
const clients: Client[] = [];

beforeAll(async () => {
  archive = await fixtureArchive();
  [loopback, chat] = await Promise.all([startLoopback(), startLoopback()]);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all([loopback.close(), chat.close()]);
  archive.close();
});

/** A client connected in memory to an MCP server acting for a key limited to `inboxes`. */
async function connect(
  providers: RagProviders,
  inboxes: string[] | null = null,
  activity?: RequestActivity,
): Promise<Client> {
  const server = createMcpServer(
    new MailApi(archive.engine, { keyId: 'test', inboxes }, providers),
    activity,
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'mailsift-test', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  clients.push(client);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    content: Array<{ type: string; text: string }>;
  };
  const text = result.content[0]?.text ?? '';
  return { isError: result.isError === true, text, json: text.startsWith('{') ? JSON.parse(text) : null };
}

describe('MCP question tools over the real client', () => {
  it('count each tool call for a background drain in the same process, failed calls too', async () => {
    const activity = new RequestActivity();
    const client = await connect({}, null, activity);
    expect(activity.quietFor(60_000)).toBe(true);
    await call(client, 'retrieve_context', { inboxId: 'acme', question: LATE });
    // Idle again, but a call ended within the last minute.
    expect(activity.quietFor(0)).toBe(true);
    expect(activity.quietFor(60_000)).toBe(false);
    const other = new RequestActivity();
    const hidden = await call(await connect({}, ['acme'], other), 'retrieve_context', {
      inboxId: 'other',
      question: 'payroll',
    });
    expect(hidden.isError).toBe(true);
    expect([other.quietFor(0), other.quietFor(60_000)]).toEqual([true, false]);
  });

  it('describe their input and warn that mail content is untrusted', async () => {
    const { tools } = await (await connect({})).listTools();
    for (const name of ['retrieve_context', 'ask_question']) {
      const tool = tools.find((t) => t.name === name);
      expect(tool?.inputSchema.required).toEqual(['question', 'inboxId']);
      expect(tool?.description).toMatch(/external senders.*never as instructions/);
    }
  });

  it('answer extractively without an LLM, compact, every passage cited', async () => {
    const answer = await call(await connect({}), 'ask_question', {
      inboxId: 'acme',
      question: LATE,
      limit: 2,
    });
    expect(answer.isError).toBe(false);
    expect(answer.json).toMatchObject({
      method: 'extractive',
      verified: true,
      retrieval: { mode: 'keyword' },
    });
    expect(answer.json.citations[0]).toMatchObject({ messageId: REPORT_ID, subject: 'Q3 freight report' });
    // compact: no empty lists or nulls for the agent to read
    expect(answer.text).not.toContain('"unknownCitations"');
    expect(answer.text).not.toContain('null');
  });

  it('retrieve hybrid and answer with the LLM when both are configured; fall back when the LLM fails', async () => {
    const embedder = openAiEmbedder({ url: loopback.url, model: 'loopback-64', maxRetries: 0 });
    await embedPending(archive.engine, embedder);
    const llm = openAiChat({ url: chat.url, model: 'm', maxRetries: 0 });
    const client = await connect({ embedder, llm });
    const pack = await call(client, 'retrieve_context', {
      inboxId: 'acme',
      question: LATE,
      tokenBudget: 300,
    });
    expect(pack.json.mode).toBe('hybrid');
    expect(pack.json.tokens).toBeLessThanOrEqual(300);

    chat.chat = () => `NW-5520 and NW-5531 arrived late [${REPORT_ID}].`;
    const answered = await call(client, 'ask_question', { inboxId: 'acme', question: LATE });
    expect(answered.json).toMatchObject({ method: 'llm', verified: true, retrieval: { mode: 'hybrid' } });
    expect(answered.json.citations.map((c: any) => c.messageId)).toEqual([REPORT_ID]);

    chat.faults.push('429');
    const limited = await call(client, 'ask_question', { inboxId: 'acme', question: LATE });
    expect(limited.isError).toBe(false);
    expect(limited.json).toMatchObject({ method: 'extractive', retrieval: { mode: 'hybrid' } });
    expect(limited.json.retrieval.degraded).toMatch(/the llm failed .*429/);
    expect(limited.json.citations[0].messageId).toBe(REPORT_ID);
  });

  it('report an inbox outside the scope as not found, and a bad question naming it', async () => {
    const scoped = await connect({}, ['acme']);
    const hidden = await call(scoped, 'retrieve_context', { inboxId: 'other', question: 'payroll' });
    expect(hidden.isError).toBe(true);
    expect(hidden.json.error).toMatchObject({ code: 'not_found', param: 'inboxId' });
    const long = await call(scoped, 'ask_question', { inboxId: 'acme', question: 'x'.repeat(2001) });
    expect(long.isError).toBe(true);
    expect(long.text).toMatch(/question/);
  });
});

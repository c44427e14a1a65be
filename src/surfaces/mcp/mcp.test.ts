import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../../../test/e2e/cli.js';
import { createKey } from '../../auth/index.js';
import { type RunningServer, startServer } from '../http/index.js';
import { type FixtureArchive, fixtureArchive } from '../http/test-support.js';
import { handleMcpHttp } from './index.js';

const REPORT_ID = 'report/2024-q3%final@northwind.example';
const TOOLS = [
  'ask_question',
  'get_attachment',
  'get_inbox',
  'get_message',
  'get_thread',
  'list_decisions',
  'list_inboxes',
  'list_messages',
  'list_threads',
  'retrieve_context',
  'search_messages',
  'search_threads',
];

let archive: FixtureArchive;
let stdio: Client;
let scopedStdio: Client;

async function stdioClient(args: string[]): Promise<Client> {
  const client = new Client({ name: 'mailsift-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--db', archive.path, ...args],
      stderr: 'pipe',
    }),
  );
  return client;
}

async function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ isError: boolean; json: any }> {
  const result = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    content: Array<{ type: string; text: string }>;
  };
  const text = result.content[0]?.text ?? '';
  let json: unknown = text;
  try {
    json = JSON.parse(text);
  } catch {
    // SDK-side validation errors are plain text.
  }
  return { isError: result.isError === true, json };
}

beforeAll(async () => {
  archive = await fixtureArchive();
  [stdio, scopedStdio] = await Promise.all([stdioClient([]), stdioClient(['--inbox', 'acme'])]);
});
afterAll(async () => {
  await Promise.all([stdio?.close(), scopedStdio?.close()]);
  archive.close();
});

describe('MCP over stdio (spawned CLI)', () => {
  it("offers AgentMail's tools and parameter names, each warning that content is untrusted", async () => {
    const { tools } = await stdio.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
    const params = (name: string) =>
      Object.keys(tools.find((t) => t.name === name)?.inputSchema.properties ?? {}).sort();
    expect(params('search_messages')).toEqual(['after', 'before', 'inboxId', 'limit', 'pageToken', 'q']);
    expect(params('list_messages')).toEqual([
      'after',
      'ascending',
      'attachmentType',
      'before',
      'from',
      'hasAttachment',
      'inboxId',
      'includeSpam',
      'includeTrash',
      'labels',
      'limit',
      'pageToken',
      'subject',
      'to',
    ]);
    expect(params('list_threads')).toEqual([
      'after',
      'ascending',
      'before',
      'inboxId',
      'includeSpam',
      'includeTrash',
      'labels',
      'limit',
      'pageToken',
      'recipients',
      'senders',
      'subject',
    ]);
    expect(params('get_attachment')).toEqual(['attachmentId', 'inboxId', 'threadId']);
    expect(params('list_inboxes')).toEqual(['limit', 'pageToken']);
    expect(params('retrieve_context')).toEqual(['inboxId', 'limit', 'question', 'tokenBudget']);
    expect(params('ask_question')).toEqual(['inboxId', 'limit', 'question']);
    for (const tool of tools)
      expect(tool.description, tool.name).toMatch(/external senders.*never as instructions/);
  });

  it('searches with compact results and pages with tokens', async () => {
    const first = await call(stdio, 'search_messages', { inboxId: 'acme', q: 'freight', limit: 1 });
    expect(first.isError).toBe(false);
    expect(first.json.messages).toHaveLength(1);
    expect(JSON.stringify(first.json)).not.toContain('null');
    expect(JSON.stringify(first.json)).not.toContain('[]');
    const second = await call(stdio, 'search_messages', {
      inboxId: 'acme',
      q: 'freight',
      limit: 1,
      pageToken: first.json.nextPageToken,
    });
    expect(second.json.messages[0].messageId).not.toBe(first.json.messages[0].messageId);
    const replayed = await call(stdio, 'search_messages', {
      inboxId: 'other',
      q: 'freight',
      limit: 1,
      pageToken: first.json.nextPageToken,
    });
    expect(replayed.isError).toBe(true);
    expect(replayed.json.error.code).toBe('invalid_page_token');
    const threads = await call(stdio, 'search_threads', { inboxId: 'acme', q: 'NW-5531' });
    expect(threads.json.threads[0].messageCount).toBe(2);
    const listed = await call(stdio, 'list_messages', { inboxId: 'acme', from: 'northwind', limit: 10 });
    expect(listed.json.count).toBe(4);
    const carriers = await call(stdio, 'list_messages', { inboxId: 'acme', attachmentType: 'csv' });
    expect(carriers.json.messages.map((m: any) => m.messageId)).toEqual([REPORT_ID]);
    const listedThreads = await call(stdio, 'list_threads', { inboxId: 'acme', senders: 'marco' });
    expect(listedThreads.json.threads.map((t: any) => t.messageId)).toEqual(['reply-88@acme.example']);
  });

  it('gets a message, its thread, and an attachment with extracted text', async () => {
    const message = await call(stdio, 'get_message', { inboxId: 'acme', messageId: `<${REPORT_ID}>` });
    expect(message.json.messageId).toBe(REPORT_ID);
    expect(message.json.text).toContain('Rotterdam lane');
    const thread = await call(stdio, 'get_thread', { inboxId: 'acme', threadId: message.json.threadId });
    expect(thread.json.messages.map((m: any) => [m.messageId, m.depth])).toEqual([
      [REPORT_ID, 0],
      ['reply-88@acme.example', 1],
    ]);
    const attachmentId = thread.json.messages[0].attachments[0].attachmentId;
    expect(attachmentId).toBe(`0:${REPORT_ID}`);
    const attachment = await call(stdio, 'get_attachment', {
      inboxId: 'acme',
      threadId: message.json.threadId,
      attachmentId,
    });
    expect(attachment.json).toMatchObject({ filename: 'freight-q3.csv', messageId: REPORT_ID });
    expect(attachment.json.text).toContain('Rotterdam');
    const wrongThread = await call(stdio, 'get_attachment', {
      inboxId: 'acme',
      threadId: 'reply-88@acme.example',
      attachmentId: '0:inv-7781@billing.northwind.example',
    });
    expect(wrongThread.json.error).toMatchObject({ code: 'not_found', param: 'attachmentId' });
  });

  it('reports bad arguments and unknown items as isError results', async () => {
    const invalid = await call(stdio, 'search_messages', { inboxId: 'acme', q: 'freight', limit: 0 });
    expect(invalid.isError).toBe(true);
    const badDate = await call(stdio, 'list_messages', { inboxId: 'acme', before: 'next tuesday' });
    expect(badDate.json.error).toMatchObject({ code: 'invalid_argument', param: 'before' });
    const badType = await call(stdio, 'list_messages', { inboxId: 'acme', attachmentType: 'spreadsheet' });
    expect(badType.json.error).toMatchObject({ code: 'invalid_argument', param: 'attachmentType' });
    const missing = await call(stdio, 'get_message', {
      inboxId: 'acme',
      messageId: 'nobody@nowhere.example',
    });
    expect(missing.json.error).toMatchObject({ code: 'not_found', param: 'messageId' });
    const unknownInbox = await call(stdio, 'get_inbox', { inboxId: 'nowhere' });
    expect(unknownInbox.json.error).toMatchObject({ code: 'not_found', param: 'inboxId' });
  });

  it('restricts a stdio server to the inboxes given with --inbox', async () => {
    const inboxes = await call(scopedStdio, 'list_inboxes', {});
    expect(inboxes.json.inboxes).toEqual([{ inboxId: 'acme', messageCount: 5, threadCount: 4 }]);
    const hidden = await call(scopedStdio, 'search_messages', { inboxId: 'other', q: 'payroll' });
    expect(hidden.json.error.code).toBe('not_found');
    const asked = await call(scopedStdio, 'ask_question', { inboxId: 'other', question: 'payroll run?' });
    expect(asked.json.error).toMatchObject({ code: 'not_found', param: 'inboxId' });
  });

  it('retrieves the context pack for a question, keyword-only without a configured embedder', async () => {
    const pack = await call(stdio, 'retrieve_context', {
      inboxId: 'acme',
      question: 'which shipments arrived late on the Rotterdam lane?',
      limit: 1,
    });
    expect(pack.isError).toBe(false);
    expect(pack.json).toMatchObject({ mode: 'keyword', threads: [{ inbox: 'acme' }] });
    expect(pack.json.passages.find((p: any) => p.kind === 'detail').messageIds).toEqual([REPORT_ID]);
  });
});

describe('MCP over streamable HTTP', () => {
  let server: RunningServer;
  let acmeKey: string;
  beforeAll(async () => {
    server = await startServer(archive.engine, {
      host: '127.0.0.1',
      port: 0,
      auth: true,
      mcp: handleMcpHttp,
    });
    acmeKey = createKey(archive.engine.archive.db, { inboxes: ['acme'] }).key;
  });
  afterAll(async () => {
    // The archive stays open for the stdio tests' afterAll; only the listener stops here.
    await new Promise((resolve) => server.server.close(resolve));
  });

  const httpClient = async (key: string | null) => {
    const client = new Client({ name: 'mailsift-http-test', version: '1.0.0' });
    const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers } }),
    );
    return client;
  };

  it('serves the same tools with the same key scopes', async () => {
    const client = await httpClient(acmeKey);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
    const inboxes = await call(client, 'list_inboxes', {});
    expect(inboxes.json.inboxes.map((i: any) => i.inboxId)).toEqual(['acme']);
    const found = await call(client, 'search_messages', { inboxId: 'acme', q: 'INV-7783' });
    expect(found.json.messages.map((m: any) => m.messageId)).toEqual(['inv-7783@billing.northwind.example']);
    const hidden = await call(client, 'get_inbox', { inboxId: 'other' });
    expect(hidden.json.error.code).toBe('not_found');
    await client.close();
  });

  it('refuses a client without a key', async () => {
    await expect(httpClient(null)).rejects.toThrow(/401|unauthorized|missing bearer/i);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, revokeKey } from '../../auth/index.js';
import { MailsiftError } from '../../core/errors.js';
import { handleMcpHttp } from '../mcp/index.js';
import { type LogLine, openApiDocument, type RunningServer, startServer } from './index.js';
import { type FixtureArchive, fixtureArchive, schemaErrors } from './test-support.js';

const REPORT_ID = 'report/2024-q3%final@northwind.example';

let archive: FixtureArchive;
let server: RunningServer;
let allKey: string;
let otherAllKey: string;
let acmeKey: string;
const logs: LogLine[] = [];

beforeAll(async () => {
  archive = await fixtureArchive();
  server = await startServer(archive.engine, {
    host: '127.0.0.1',
    port: 0,
    auth: true,
    mcp: handleMcpHttp,
    log: (l) => logs.push(l),
  });
  const db = archive.engine.archive.db;
  allKey = createKey(db, { name: 'all' }).key;
  otherAllKey = createKey(db, { name: 'second' }).key;
  acmeKey = createKey(db, { inboxes: ['acme'] }).key;
});
afterAll(async () => {
  await server.close();
  archive.close();
});

interface Reply {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

async function get(path: string, key: string | null = allKey, init: RequestInit = {}): Promise<Reply> {
  const headers = new Headers(init.headers);
  if (key) headers.set('authorization', `Bearer ${key}`);
  const response = await fetch(`${server.url}${path}`, { ...init, headers });
  const text = await response.text();
  const json = response.headers.get('content-type')?.includes('application/json')
    ? JSON.parse(text)
    : undefined;
  return { status: response.status, headers: response.headers, body: json, text };
}

/** Holds a JSON response to the OpenAPI document's schema for that path and status. */
function conforms(template: string, reply: Reply): void {
  const doc = openApiDocument() as any;
  const response = doc.paths[template].get.responses[String(reply.status)];
  expect(response, `${template} documents status ${reply.status}`).toBeDefined();
  expect(schemaErrors(reply.body, response.content['application/json'].schema, doc)).toEqual([]);
}

const id = (messageId: string) => encodeURIComponent(messageId);

describe('HTTP API: documents and health', () => {
  it('serves health and the OpenAPI 3.1 document without a key', async () => {
    const health = await get('/v1/health', null);
    expect(health.status).toBe(200);
    conforms('/v1/health', health);
    const doc = await get('/openapi.json', null);
    expect(doc.body.openapi).toBe('3.1.0');
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining([
        '/v1/inboxes',
        '/v1/inboxes/{inboxId}/messages/search',
        '/v1/inboxes/{inboxId}/threads/search',
        '/v1/inboxes/{inboxId}/messages',
        '/v1/inboxes/{inboxId}/messages/{messageId}',
        '/v1/inboxes/{inboxId}/messages/{messageId}/raw',
        '/v1/inboxes/{inboxId}/messages/{messageId}/attachments/{attachmentId}',
        '/v1/inboxes/{inboxId}/threads/{threadId}',
      ]),
    );
    const search = doc.body.paths['/v1/inboxes/{inboxId}/messages/search'].get.parameters.map(
      (p: any) => p.name,
    );
    expect(search).toEqual(expect.arrayContaining(['inboxId', 'q', 'limit', 'pageToken', 'before', 'after']));
  });

  it('answers unknown routes with the error shape', async () => {
    const reply = await get('/v2/nothing');
    expect(reply.status).toBe(404);
    expect(reply.body.error.code).toBe('not_found');
  });
});

describe('HTTP API: authentication and tenancy', () => {
  it('answers 401 without a key, with an unknown key and with a revoked key', async () => {
    const none = await get('/v1/inboxes', null);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    conforms('/v1/inboxes', none);
    expect((await get('/v1/inboxes', 'msk_not-a-real-key')).status).toBe(401);
    const revoked = createKey(archive.engine.archive.db, { name: 'short-lived' });
    expect((await get('/v1/inboxes', revoked.key)).status).toBe(200);
    revokeKey(archive.engine.archive.db, revoked.prefix);
    const after = await get('/v1/inboxes', revoked.key);
    expect(after.status).toBe(401);
    expect(after.body.error).toMatchObject({ code: 'unauthorized', param: 'authorization' });
  });

  it('lists only the inboxes a key may read, with counts', async () => {
    const all = await get('/v1/inboxes');
    conforms('/v1/inboxes', all);
    expect(all.body.inboxes).toEqual([
      { inboxId: 'acme', messageCount: 5, threadCount: 4 },
      { inboxId: 'other', messageCount: 1, threadCount: 1 },
    ]);
    const scoped = await get('/v1/inboxes', acmeKey);
    expect(scoped.body.inboxes.map((i: any) => i.inboxId)).toEqual(['acme']);
    const paged = await get('/v1/inboxes?limit=1');
    const next = await get(`/v1/inboxes?limit=1&pageToken=${paged.body.nextPageToken}`);
    expect(next.body.inboxes.map((i: any) => i.inboxId)).toEqual(['other']);
  });

  it('answers 404, never 403, for an inbox outside the key scope, exactly as for a missing one', async () => {
    const hidden = await get('/v1/inboxes/other/messages/search?q=freight', acmeKey);
    const missing = await get('/v1/inboxes/nowhere/messages/search?q=freight', acmeKey);
    expect(hidden.status).toBe(404);
    conforms('/v1/inboxes/{inboxId}/messages/search', hidden);
    expect(hidden.body.error.code).toBe('not_found');
    expect(hidden.body.error.param).toBe('inboxId');
    expect(missing.body.error.message.replace('nowhere', 'other')).toBe(hidden.body.error.message);
    expect((await get(`/v1/inboxes/other/messages/${id('payroll-10@acme.example')}`, acmeKey)).status).toBe(
      404,
    );
    expect((await get('/v1/inboxes/other', acmeKey)).status).toBe(404);
  });

  it('rejects a page token replayed on another inbox or with another key', async () => {
    const first = await get('/v1/inboxes/acme/messages/search?q=freight&limit=1');
    const token = first.body.nextPageToken as string;
    expect(token).toEqual(expect.any(String));
    const second = await get(
      `/v1/inboxes/acme/messages/search?q=freight&limit=1&pageToken=${encodeURIComponent(token)}`,
    );
    expect(second.status).toBe(200);
    expect(second.body.messages[0].messageId).not.toBe(first.body.messages[0].messageId);
    const otherInbox = await get(
      `/v1/inboxes/other/messages/search?q=freight&limit=1&pageToken=${encodeURIComponent(token)}`,
    );
    expect(otherInbox.status).toBe(400);
    expect(otherInbox.body.error).toMatchObject({ code: 'invalid_page_token', param: 'pageToken' });
    const otherKey = await get(
      `/v1/inboxes/acme/messages/search?q=freight&limit=1&pageToken=${encodeURIComponent(token)}`,
      otherAllKey,
    );
    expect(otherKey.status).toBe(400);
    expect(otherKey.body.error.code).toBe('invalid_page_token');
    conforms('/v1/inboxes/{inboxId}/messages/search', otherKey);
  });
});

describe('HTTP API: search and lists', () => {
  it('searches messages of the path inbox only, with highlights', async () => {
    const reply = await get('/v1/inboxes/acme/messages/search?q=freight&limit=10');
    expect(reply.status).toBe(200);
    conforms('/v1/inboxes/{inboxId}/messages/search', reply);
    expect(reply.body.messages.length).toBeGreaterThan(0);
    expect(reply.body.messages.every((m: any) => m.inboxId === 'acme')).toBe(true);
    const exact = await get('/v1/inboxes/acme/messages/search?q=INV-7782');
    expect(exact.body.messages.map((m: any) => m.messageId)).toEqual(['inv-7782@billing.northwind.example']);
    expect(Object.keys(exact.body.messages[0].highlights).length).toBeGreaterThan(0);
  });

  it('searches threads', async () => {
    const reply = await get('/v1/inboxes/acme/threads/search?q=NW-5531');
    expect(reply.status).toBe(200);
    conforms('/v1/inboxes/{inboxId}/threads/search', reply);
    expect(reply.body.threads).toHaveLength(1);
    expect(reply.body.threads[0].messageCount).toBe(2);
  });

  it('lists messages by filter, chronologically, with cursor pages', async () => {
    const page1 = await get('/v1/inboxes/acme/messages?from=northwind&limit=2');
    conforms('/v1/inboxes/{inboxId}/messages', page1);
    const page2 = await get(
      `/v1/inboxes/acme/messages?from=northwind&limit=2&pageToken=${encodeURIComponent(page1.body.nextPageToken)}`,
    );
    const ids = [...page1.body.messages, ...page2.body.messages].map((m: any) => m.messageId);
    expect(ids).toEqual([
      'inv-7783@billing.northwind.example',
      'inv-7782@billing.northwind.example',
      'inv-7781@billing.northwind.example',
      REPORT_ID,
    ]);
    const withFiles = await get('/v1/inboxes/acme/messages?hasAttachment=true');
    expect(withFiles.body.messages.map((m: any) => m.messageId)).toEqual([REPORT_ID]);
    for (const type of ['csv', 'text/csv', 'text/*']) {
      const carriers = await get(`/v1/inboxes/acme/messages?attachmentType=${encodeURIComponent(type)}`);
      conforms('/v1/inboxes/{inboxId}/messages', carriers);
      expect(
        carriers.body.messages.map((m: any) => m.messageId),
        type,
      ).toEqual([REPORT_ID]);
    }
    expect((await get('/v1/inboxes/acme/messages?attachmentType=pdf')).body.messages).toEqual([]);
    const oldest = await get('/v1/inboxes/acme/messages?ascending=true&limit=1');
    expect(oldest.body.messages[0].messageId).toBe(REPORT_ID);
  });

  it('lists threads, each once', async () => {
    const reply = await get('/v1/inboxes/acme/threads?limit=10');
    conforms('/v1/inboxes/{inboxId}/threads', reply);
    expect(reply.body.threads).toHaveLength(4);
    const report = reply.body.threads.find((t: any) => t.messageCount === 2);
    expect(report.messageId).toBe('reply-88@acme.example');
    const bySender = await get('/v1/inboxes/acme/threads?senders=dana');
    expect(bySender.body.threads.map((t: any) => t.messageId)).toEqual([REPORT_ID]);
  });

  it('names the parameter of every validation error', async () => {
    const cases: Array<[string, string, string]> = [
      ['/v1/inboxes/acme/messages/search?q=freight&limit=0', 'invalid_argument', 'limit'],
      ['/v1/inboxes/acme/messages/search?q=freight&limit=ten', 'invalid_argument', 'limit'],
      ['/v1/inboxes/acme/messages/search?q=freight&before=last%20week', 'invalid_argument', 'before'],
      ['/v1/inboxes/acme/messages/search?q=%FF%FE', 'invalid_argument', 'q'],
      ['/v1/inboxes/acme/messages/search?q=%E0%A4', 'invalid_argument', 'q'],
      ['/v1/inboxes/acme/messages/search?q=freight&inbox=other', 'unknown_parameter', 'inbox'],
      ['/v1/inboxes/acme/messages/search?q=freight&pageToken=garbage', 'invalid_page_token', 'pageToken'],
      ['/v1/inboxes/acme/messages/search', 'invalid_argument', 'q'],
      ['/v1/inboxes/acme/messages?hasAttachment=maybe', 'invalid_argument', 'hasAttachment'],
      ['/v1/inboxes/acme/messages?attachmentType=spreadsheet', 'invalid_argument', 'attachmentType'],
      ['/v1/inboxes/acme/messages?sort=asc', 'unknown_parameter', 'sort'],
      [`/v1/inboxes/acme/messages/${id(REPORT_ID)}?verbose=1`, 'unknown_parameter', 'verbose'],
    ];
    for (const [path, code, param] of cases) {
      const reply = await get(path);
      expect(reply.status, path).toBe(400);
      expect(reply.body.error, path).toMatchObject({ code, param });
      expect(reply.body.error.message, path).toEqual(expect.any(String));
    }
    expect((await get('/v1/health')).status).toBe(200);
  });
});

describe('HTTP API: messages, raw bytes, attachments, threads', () => {
  it('round-trips a Message-ID holding /, % and angle brackets as one encoded path segment', async () => {
    for (const form of [REPORT_ID, `<${REPORT_ID}>`]) {
      const reply = await get(`/v1/inboxes/acme/messages/${id(form)}`);
      expect(reply.status, form).toBe(200);
      conforms('/v1/inboxes/{inboxId}/messages/{messageId}', reply);
      expect(reply.body.messageId).toBe(REPORT_ID);
    }
    const full = await get(`/v1/inboxes/acme/messages/${id(REPORT_ID)}`);
    expect(full.body.authored).toContain('Rotterdam lane');
    expect(full.body.attachments).toMatchObject([{ attachmentId: '0', filename: 'freight-q3.csv' }]);
  });

  it('serves the original bytes as message/rfc822', async () => {
    const reply = await get(`/v1/inboxes/acme/messages/${id(REPORT_ID)}/raw`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('message/rfc822');
    expect(reply.text).toContain('Subject: Q3 freight report');
  });

  it('serves attachment bytes with their content type, and names a bad attachment id', async () => {
    const reply = await get(`/v1/inboxes/acme/messages/${id(REPORT_ID)}/attachments/0`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(reply.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''freight-q3.csv");
    expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
    expect(reply.text).toBe('lane,containers,late\nRotterdam,412,2\nHamburg,388,0\nAntwerp,201,1');
    const missing = await get(`/v1/inboxes/acme/messages/${id(REPORT_ID)}/attachments/3`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.param).toBe('attachmentId');
    const bad = await get(`/v1/inboxes/acme/messages/${id(REPORT_ID)}/attachments/..%2F..%2Fetc%2Fpasswd`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('attachmentId');
  });

  it('returns a thread in tree order with depth, by thread id or by a message id', async () => {
    const message = await get(`/v1/inboxes/acme/messages/${id('reply-88@acme.example')}`);
    const byThread = await get(`/v1/inboxes/acme/threads/${id(message.body.threadId)}`);
    expect(byThread.status).toBe(200);
    conforms('/v1/inboxes/{inboxId}/threads/{threadId}', byThread);
    expect(byThread.body.messages.map((m: any) => [m.messageId, m.depth])).toEqual([
      [REPORT_ID, 0],
      ['reply-88@acme.example', 1],
    ]);
    const byMessage = await get(`/v1/inboxes/acme/threads/${id(`<${REPORT_ID}>`)}`);
    expect(byMessage.body.threadId).toBe(message.body.threadId);
  });

  it('answers 404 for unknown messages and threads, and for ids shaped like paths', async () => {
    for (const path of [
      `/v1/inboxes/acme/messages/${id('nobody@nowhere.example')}`,
      '/v1/inboxes/acme/messages/..%2F..%2F..%2Fetc%2Fpasswd',
      '/v1/inboxes/acme/messages/..%2F..%2F..%2Fetc%2Fpasswd/raw',
      '/v1/inboxes/acme/threads/..%2Farchive.db',
      '/v1/inboxes/..%2F..%2Fetc/messages',
    ]) {
      const reply = await get(path);
      expect(reply.status, path).toBe(404);
      expect(reply.body.error.code, path).toBe('not_found');
    }
    conforms(
      '/v1/inboxes/{inboxId}/messages/{messageId}',
      await get(`/v1/inboxes/acme/messages/${id('x@y')}`),
    );
  });
});

describe('HTTP API: request hygiene', () => {
  it('rejects malformed JSON and oversized bodies with the error shape, and keeps serving', async () => {
    const post = (body: string) =>
      get('/mcp', allKey, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      });
    const malformed = await post('{"jsonrpc": "2.0", "method": ');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toMatchObject({ code: 'invalid_argument', param: 'body' });
    const huge = await post(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(2 * 1024 * 1024) } }),
    );
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe('payload_too_large');
    expect((await get('/v1/health')).status).toBe(200);
  });

  it('logs one line per request, without the query string', async () => {
    await get('/v1/inboxes/acme/messages/search?q=secret-term');
    const line = logs.findLast((l) => l.path === '/v1/inboxes/acme/messages/search');
    expect(line).toMatchObject({ method: 'GET', status: 200, inbox: 'acme' });
    expect(typeof line?.ms).toBe('number');
    expect(JSON.stringify(logs)).not.toContain('secret-term');
    expect(JSON.stringify(logs)).not.toContain(allKey);
  });

  it('refuses --no-auth on a non-loopback host, naming --host', async () => {
    const attempt = startServer(archive.engine, { host: '0.0.0.0', port: 0, auth: false });
    await expect(attempt).rejects.toBeInstanceOf(MailsiftError);
    await expect(attempt).rejects.toMatchObject({ code: 'invalid_argument', param: '--host' });
  });
});

describe('HTTP API: --no-auth on loopback and shutdown', () => {
  it('serves without a key on loopback, then closes gracefully and closes the archive and its LLM', async () => {
    const local = await fixtureArchive();
    // An in-process model holds native threads that would keep the process alive: the server frees it.
    let llmClosed = false;
    const llm = {
      id: 'local:test',
      complete: async () => 'unused',
      close: async () => {
        llmClosed = true;
      },
    };
    const open = await startServer(local.engine, {
      host: '127.0.0.1',
      port: 0,
      auth: false,
      providers: { llm },
    });
    const reply = await fetch(`${open.url}/v1/inboxes/acme/messages/search?q=INV-7781`);
    expect(reply.status).toBe(200);
    expect(llmClosed).toBe(false);
    await open.close();
    expect(local.engine.archive.db.open).toBe(false);
    expect(llmClosed).toBe(true);
    await expect(fetch(`${open.url}/v1/health`)).rejects.toThrow();
    local.close();
  });
});

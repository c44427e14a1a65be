import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/temp.js';
import { createKey } from '../../auth/index.js';
import { embedderProbe, embedPending, openAiChat, openAiEmbedder } from '../../rag/index.js';
import { type Loopback, startLoopback } from '../../rag/openai-loopback.js';
import { openApiDocument, type RunningServer, startServer } from './index.js';
import { type FixtureArchive, fixtureArchive, schemaErrors } from './test-support.js';

const REPORT_ID = 'report/2024-q3%final@northwind.example';
const LATE = 'which shipments arrived late on the Rotterdam lane?';

let archive: FixtureArchive;
let embeddings: Loopback;
let chat: Loopback;
/** No providers configured: keyword retrieval, extractive answers. */
let plain: RunningServer;
/** The loopback as embedder and LLM, with a short LLM deadline. */
let models: RunningServer;
let allKey: string;
let acmeKey: string;

beforeAll(async () => {
  archive = await fixtureArchive();
  [embeddings, chat] = await Promise.all([startLoopback(), startLoopback()]);
  const embedder = openAiEmbedder({ url: embeddings.url, model: 'loopback-64', maxRetries: 0 });
  await embedPending(archive.engine, embedder);
  const engine = archive.engine;
  plain = await startServer(engine, { host: '127.0.0.1', port: 0, auth: true });
  models = await startServer(engine, {
    host: '127.0.0.1',
    port: 0,
    auth: true,
    providers: {
      embedder,
      llm: openAiChat({ url: chat.url, model: 'qwen2.5-7b-instruct', maxRetries: 0 }),
      deadlines: { llmMs: 300 },
    },
    health: { embedder: embedderProbe(engine, embedder) },
  });
  allKey = createKey(engine.archive.db, { name: 'all' }).key;
  acmeKey = createKey(engine.archive.db, { inboxes: ['acme'] }).key;
});
afterAll(async () => {
  await Promise.all([plain.close(), models.close(), embeddings.close(), chat.close()]);
  archive.close();
});

interface Reply {
  status: number;
  body: any;
}

async function post(
  server: RunningServer,
  path: string,
  body: unknown,
  key: string | null = allKey,
): Promise<Reply> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key) headers.authorization = `Bearer ${key}`;
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

/** Holds a reply to the OpenAPI document's schema for that path and status. */
function conforms(template: string, reply: Reply): void {
  const doc = openApiDocument() as any;
  const response = doc.paths[template].post.responses[String(reply.status)];
  expect(response, `${template} documents status ${reply.status}`).toBeDefined();
  expect(schemaErrors(reply.body, response.content['application/json'].schema, doc)).toEqual([]);
}

describe('POST /v1/inboxes/{inboxId}/retrieve and /ask without providers', () => {
  it('returns the context pack of the path inbox, keyword-only and saying so', async () => {
    const reply = await post(plain, '/v1/inboxes/acme/retrieve', { question: LATE, tokenBudget: 500 });
    expect(reply.status).toBe(200);
    conforms('/v1/inboxes/{inboxId}/retrieve', reply);
    expect(reply.body).toMatchObject({ question: LATE, mode: 'keyword' });
    expect(reply.body.degraded).toBeUndefined();
    expect(reply.body.notes).toContain('no embedder configured: keyword retrieval only');
    expect(reply.body.messages[0].messageId).toBe(REPORT_ID);
    const detail = reply.body.passages.find((p: any) => p.kind === 'detail');
    expect(detail).toMatchObject({ inbox: 'acme', messageIds: [REPORT_ID], subject: 'Q3 freight report' });
    expect(detail.text).toContain('NW-5520 and NW-5531');
    expect(reply.body.tokens).toBeLessThanOrEqual(500);
    expect(reply.body.passages.every((p: any) => p.inbox === 'acme')).toBe(true);
  });

  it('answers extractively, each passage cited, in the shape `mailsift ask --json` prints', async () => {
    const reply = await post(plain, '/v1/inboxes/acme/ask', { question: LATE, passages: 1 });
    expect(reply.status).toBe(200);
    conforms('/v1/inboxes/{inboxId}/ask', reply);
    expect(reply.body).toMatchObject({
      method: 'extractive',
      verified: true,
      unknownCitations: [],
      retrieval: { mode: 'keyword', filters: { people: [], hasAttachment: false } },
    });
    expect(reply.body.citations).toEqual([
      {
        messageId: REPORT_ID,
        threadId: expect.any(String),
        date: '2024-10-01T08:12:00.000Z',
        from: 'Dana Whitfield <dana.whitfield@northwind.example>',
        subject: 'Q3 freight report',
        quote: expect.stringContaining('two late arrivals'),
      },
    ]);
    expect(reply.body.answer).toContain(`[${REPORT_ID}]`);
  });
});

describe('retrieve and ask with the configured embedder and LLM', () => {
  it('retrieves hybrid and answers with the LLM, citations checked against what was retrieved', async () => {
    let prompt = '';
    chat.chat = (request) => {
      prompt = request.messages[1]?.content ?? '';
      return `Two shipments were late on the Rotterdam lane, NW-5520 and NW-5531 [${REPORT_ID}].`;
    };
    const reply = await post(models, '/v1/inboxes/acme/ask', { question: LATE });
    expect(reply.status).toBe(200);
    conforms('/v1/inboxes/{inboxId}/ask', reply);
    expect(reply.body).toMatchObject({
      method: 'llm',
      verified: true,
      answer: expect.stringContaining('NW-5520 and NW-5531'),
      retrieval: { mode: 'hybrid' },
    });
    expect(reply.body.retrieval.degraded).toBeUndefined();
    expect(reply.body.citations.map((c: any) => c.messageId)).toEqual([REPORT_ID]);
    expect(prompt).toContain(`<mail id="${REPORT_ID}"`);
    expect(prompt).not.toContain('payroll');
  });

  it.each(['500', '429'] as const)(
    'falls back to an extractive answer, degraded, when the LLM answers %s',
    async (fault) => {
      chat.faults.push(fault);
      const reply = await post(models, '/v1/inboxes/acme/ask', { question: LATE });
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({ method: 'extractive', retrieval: { mode: 'hybrid' } });
      expect(reply.body.retrieval.degraded).toMatch(new RegExp(`the llm failed .*${fault}`));
      expect(reply.body.citations[0].messageId).toBe(REPORT_ID);
    },
  );

  it('answers extractively when the LLM does not answer within its deadline', async () => {
    chat.faults.push('hang');
    const reply = await post(models, '/v1/inboxes/acme/ask', { question: LATE });
    expect(reply.status).toBe(200);
    expect(reply.body.method).toBe('extractive');
    expect(reply.body.retrieval.degraded).toMatch(/the llm gave no answer within 300 ms/);
  });

  it('retrieves keyword-only, degraded, when the embedder is down', async () => {
    embeddings.faults.push('500');
    const reply = await post(models, '/v1/inboxes/acme/retrieve', { question: LATE });
    expect(reply.status).toBe(200);
    conforms('/v1/inboxes/{inboxId}/retrieve', reply);
    expect(reply.body.mode).toBe('keyword');
    expect(reply.body.degraded).toMatch(/the embedder failed .*500/);
    expect(reply.body.messages[0].messageId).toBe(REPORT_ID);
  });

  it('honours mode keyword even with an embedder', async () => {
    const before = embeddings.requests.length;
    const reply = await post(models, '/v1/inboxes/acme/retrieve', { question: LATE, mode: 'keyword' });
    expect(reply.body.mode).toBe('keyword');
    expect(embeddings.requests.length).toBe(before);
  });
});

describe('question endpoints: tenancy and bad input', () => {
  it('answers 404 for an inbox outside the key scope, exactly as for a missing one, and 401 without a key', async () => {
    const forbidden = await post(models, '/v1/inboxes/other/ask', { question: 'freight allowance' }, acmeKey);
    const missing = await post(models, '/v1/inboxes/nope/ask', { question: 'freight allowance' }, acmeKey);
    expect(forbidden.status).toBe(404);
    expect(forbidden.body.error).toMatchObject({ code: 'not_found', param: 'inboxId' });
    expect(forbidden.body.error.message).toBe(missing.body.error.message.replace('nope', 'other'));
    conforms(
      '/v1/inboxes/{inboxId}/retrieve',
      await post(plain, '/v1/inboxes/other/retrieve', { question: 'x' }, acmeKey),
    );
    expect((await post(plain, '/v1/inboxes/acme/retrieve', { question: LATE }, null)).status).toBe(401);
    const own = await post(plain, '/v1/inboxes/acme/retrieve', { question: 'freight allowance' }, acmeKey);
    expect(own.body.passages.every((p: any) => p.inbox === 'acme')).toBe(true);
  });

  it('names the parameter of every bad body, and refuses an over-long question with a typed error', async () => {
    const cases: Array<[unknown, number, string, string]> = [
      [{}, 400, 'invalid_argument', 'question'],
      [{ question: 42 }, 400, 'invalid_argument', 'question'],
      [{ question: '' }, 400, 'invalid_argument', 'question'],
      [{ question: 'x'.repeat(2001) }, 400, 'invalid_argument', 'question'],
      [{ question: LATE, limit: 0 }, 400, 'invalid_argument', 'limit'],
      [{ question: LATE, tokenBudget: 'lots' }, 400, 'invalid_argument', 'tokenBudget'],
      [{ question: LATE, mode: 'vector' }, 400, 'invalid_argument', 'mode'],
      [{ question: LATE, q: 'x' }, 400, 'unknown_parameter', 'q'],
      [['question'], 400, 'invalid_argument', 'body'],
      ['{"question": ', 400, 'invalid_argument', 'body'],
    ];
    for (const [body, status, code, param] of cases) {
      const reply = await post(plain, '/v1/inboxes/acme/retrieve', body);
      expect([reply.status, reply.body.error?.code, reply.body.error?.param], JSON.stringify(body)).toEqual([
        status,
        code,
        param,
      ]);
      conforms('/v1/inboxes/{inboxId}/retrieve', reply);
    }
    const whitespace = await post(plain, '/v1/inboxes/acme/ask', { question: '   ' });
    expect(whitespace.body.error).toMatchObject({ code: 'invalid_argument', param: 'question' });
    const huge = await post(plain, '/v1/inboxes/acme/ask', { question: 'why? '.repeat(300_000) });
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe('payload_too_large');
  });
});

describe('the embedding backlog in /v1/health and /metrics', () => {
  it('counts a thread changed by ingest as awaiting chunks while no chunk is queued yet', async () => {
    const dir = tempDir('mailsift-late-');
    writeFileSync(
      join(dir, 'customs.eml'),
      [
        'From: Dana Whitfield <dana.whitfield@northwind.example>',
        'To: Marco Bianchi <marco.bianchi@acme.example>',
        'Subject: Re: Q3 freight report',
        'Date: Wed, 02 Oct 2024 09:05:00 +0000',
        'Message-ID: <customs-5531@northwind.example>',
        `In-Reply-To: <reply-88@acme.example>`,
        `References: <${REPORT_ID}> <reply-88@acme.example>`,
        'Content-Type: text/plain; charset=utf-8',
        '',
        'Yes, customs held NW-5531 in Rotterdam for two days over a missing certificate of origin.',
        '',
      ].join('\r\n'),
    );
    await archive.engine.ingest([dir], { inbox: 'acme', workers: 0 });
    const response = await fetch(`${models.url}/v1/health`, {
      headers: { authorization: `Bearer ${allKey}` },
    });
    const health = (await response.json()) as any;
    const acme = health.inboxes.find((i: any) => i.inbox === 'acme');
    expect(acme).toMatchObject({ embeddingBacklog: 0, threadsAwaitingChunks: 1 });
    expect(acme.checks.find((c: any) => c.name === 'embedding_backlog')).toMatchObject({
      message: '0 chunk(s) waiting for openai:loopback-64, 1 changed thread(s) not yet chunked',
      value: 1,
    });
    const metrics = await (
      await fetch(`${models.url}/metrics`, { headers: { authorization: `Bearer ${allKey}` } })
    ).text();
    expect(metrics).toContain('mailsift_threads_awaiting_chunks{inbox="acme"} 1');
    expect(metrics).toContain('mailsift_embedding_backlog{inbox="acme"} 0');
  });
});

describe('retrieve with a refiner LLM', () => {
  it('searches the rephrasings the refiner wrote and shows them in the documented shape', async () => {
    const refiner = await startLoopback();
    refiner.chat = () =>
      JSON.stringify({
        people: ['Dana Whitfield'],
        rephrasings: ['late arrivals on the Rotterdam lane in Q3'],
      });
    const server = await startServer(archive.engine, {
      host: '127.0.0.1',
      port: 0,
      auth: true,
      providers: { refiner: openAiChat({ url: refiner.url, model: 'refiner', maxRetries: 0 }) },
    });
    try {
      const reply = await post(server, '/v1/inboxes/acme/retrieve', {
        question: 'which deliveries came in behind schedule?',
      });
      expect(reply.status).toBe(200);
      conforms('/v1/inboxes/{inboxId}/retrieve', reply);
      expect(reply.body.refinement).toEqual({
        by: 'openai:refiner',
        rephrasings: ['late arrivals on the Rotterdam lane in Q3'],
      });
      expect(reply.body.filters.people).toEqual(['dana.whitfield@northwind.example']);
      expect(reply.body.messages[0].messageId).toBe(REPORT_ID);
    } finally {
      await Promise.all([server.close(), refiner.close()]);
    }
  });
});

// GET /v1/inboxes/{inboxId}/decisions over a real server, on the invented threads of
// test/fixtures/decisions ingested as inbox `team` beside the HTTP fixtures' inboxes:
// the decisions with their verbatim evidence, the filters, pages, typed 400s, key scopes,
// and replies that conform to the OpenAPI document.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../auth/index.js';
import { openApiDocument, type RunningServer, startServer } from './index.js';
import { DECISION_FIXTURES, type FixtureArchive, fixtureArchive, schemaErrors } from './test-support.js';

const PATH = '/v1/inboxes/{inboxId}/decisions';

let archive: FixtureArchive;
let server: RunningServer;
let allKey: string;
let acmeKey: string;

beforeAll(async () => {
  archive = await fixtureArchive({ team: DECISION_FIXTURES });
  server = await startServer(archive.engine, { host: '127.0.0.1', port: 0, auth: true });
  allKey = createKey(archive.engine.archive.db, { name: 'all' }).key;
  acmeKey = createKey(archive.engine.archive.db, { inboxes: ['acme'] }).key;
});
afterAll(async () => {
  await server.close();
  archive.close();
});

async function get(path: string, key = allKey): Promise<{ status: number; body: any }> {
  const response = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
  const reply = { status: response.status, body: await response.json() };
  const doc = openApiDocument() as any;
  const documented = doc.paths[PATH].get.responses[String(reply.status)];
  expect(documented, `${PATH} documents status ${reply.status}`).toBeDefined();
  expect(schemaErrors(reply.body, documented.content['application/json'].schema, doc)).toEqual([]);
  return reply;
}

/** Each decision as its settling messages' local parts, for comparison. */
const settledBy = (body: any): string[][] =>
  body.decisions.map((d: any) =>
    d.evidence.filter((e: any) => e.role === 'agreement').map((e: any) => e.messageId.split('@')[0]),
  );

describe('GET /v1/inboxes/{inboxId}/decisions', () => {
  it('lists the inbox’s decisions newest first, each quote verbatim from its message', async () => {
    const all = await get('/v1/inboxes/team/decisions');
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ count: 8, limit: 50, nextPageToken: null });
    expect(settledBy(all.body)).toEqual(
      expect.arrayContaining([['db-5'], ['nak-2'], ['cache-2'], ['cache-4'], ['ru-2']]),
    );
    const dates = all.body.decisions.map((d: any) => d.decidedAt);
    expect(dates).toEqual([...dates].sort().reverse());
    for (const d of all.body.decisions)
      for (const e of d.evidence) {
        const message = archive.engine.getMessage(e.messageId, { inbox: 'team' });
        expect(message.cleaned.authored).toContain(e.quote);
      }
  });

  it('filters by words, thread and dates, as the CLI does', async () => {
    const postgres = await get(`/v1/inboxes/team/decisions?q=${encodeURIComponent('postgresql 16')}`);
    expect(settledBy(postgres.body)).toEqual([['db-5']]);
    expect(postgres.body.decisions[0].statement).toContain('Maria Rossi');
    const thread = await get(
      `/v1/inboxes/team/decisions?threadId=${encodeURIComponent('<cache-3@orbit-labs.example>')}`,
    );
    expect(thread.body.decisions.map((d: any) => d.status)).toEqual(['standing', 'superseded']);
    const march12 = await get('/v1/inboxes/team/decisions?after=2024-03-12&before=2024-03-13');
    expect(settledBy(march12.body).sort()).toEqual([['de-2'], ['ru-2']]);
    // The fixtures' other inboxes decided nothing.
    expect((await get('/v1/inboxes/acme/decisions')).body.count).toBe(0);
  });

  it('pages newest first with tokens bound to the key and the filters', async () => {
    const all = (await get('/v1/inboxes/team/decisions')).body.decisions;
    const paged: any[] = [];
    let token: string | null = null;
    do {
      const query: string = token === null ? '' : `&pageToken=${encodeURIComponent(token)}`;
      const page = await get(`/v1/inboxes/team/decisions?limit=3${query}`);
      expect(page.body.count).toBeLessThanOrEqual(3);
      paged.push(...page.body.decisions);
      token = page.body.nextPageToken;
    } while (token !== null);
    expect(paged).toEqual(all);
    const first = (await get('/v1/inboxes/team/decisions?limit=3')).body.nextPageToken;
    const otherFilters = await get(
      `/v1/inboxes/team/decisions?limit=3&q=agreed&pageToken=${encodeURIComponent(first)}`,
    );
    expect([otherFilters.status, otherFilters.body.error.code]).toEqual([400, 'invalid_page_token']);
    const teamKey = createKey(archive.engine.archive.db, { inboxes: ['team'] }).key;
    const otherKey = await get(
      `/v1/inboxes/team/decisions?limit=3&pageToken=${encodeURIComponent(first)}`,
      teamKey,
    );
    expect([otherKey.status, otherKey.body.error.code]).toEqual([400, 'invalid_page_token']);
  });

  it('answers a bad parameter with a 400 naming it', async () => {
    const cases: Array<[string, string, string]> = [
      ['after=yesterday', 'invalid_argument', 'after'],
      ['before=2024-13-45', 'invalid_argument', 'before'],
      ['limit=0', 'invalid_argument', 'limit'],
      ['limit=101', 'invalid_argument', 'limit'],
      ['limit=ten', 'invalid_argument', 'limit'],
      ['q=', 'invalid_argument', 'q'],
      ['thread=db-1', 'unknown_parameter', 'thread'],
    ];
    for (const [query, code, param] of cases) {
      const reply = await get(`/v1/inboxes/team/decisions?${query}`);
      expect([query, reply.status, reply.body.error.code, reply.body.error.param]).toEqual([
        query,
        400,
        code,
        param,
      ]);
    }
  });

  it('keeps to the key’s inboxes: another inbox, or its thread, is not found', async () => {
    const hidden = await get('/v1/inboxes/team/decisions', acmeKey);
    expect(hidden.status).toBe(404);
    expect(hidden.body.error).toMatchObject({ code: 'not_found', param: 'inboxId' });
    // A thread of `team` asked through `acme` is no thread of acme.
    const elsewhere = await get(
      `/v1/inboxes/acme/decisions?threadId=${encodeURIComponent('db-1@orbit-labs.example')}`,
    );
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.error).toMatchObject({ code: 'not_found', param: 'threadId' });
  });

  it('shows the decisions a retrieve found for a question about one, as the document says', async () => {
    const response = await fetch(`${server.url}/v1/inboxes/team/retrieve`, {
      method: 'POST',
      headers: { authorization: `Bearer ${allKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ question: 'Which database was chosen for the billing service?' }),
    });
    const body = (await response.json()) as any;
    expect(response.status).toBe(200);
    const doc = openApiDocument() as any;
    const schema =
      doc.paths['/v1/inboxes/{inboxId}/retrieve'].post.responses['200'].content['application/json'].schema;
    expect(schemaErrors(body, schema, doc)).toEqual([]);
    expect(body.decisions[0].messageIds).toContain('db-5@orbit-labs.example');
  });
});

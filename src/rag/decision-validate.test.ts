// Decisions validated and phrased by an LLM, against the loopback OpenAI-compatible server, on
// test/fixtures/decisions ingested: an accepted phrasing (method 'llm'), a reply quoting what no
// cited message says (rejected, the rules' record kept), and a failing LLM (kept, backed off,
// reported by the LLM's health check).

import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/temp.js';
import { findDecisions } from '../decisions/index.js';
import { Mailsift } from '../engine.js';
import { checkHealth, DEFAULT_THRESHOLDS } from '../health/index.js';
import { openAiChat } from './chat.js';
import { decisionBacklog, validatePending } from './decision-validate.js';
import { type ChatRequest, type Loopback, startLoopback } from './openai-loopback.js';
import { summaryProbe } from './summarize.js';

const FIXTURES = join(import.meta.dirname, '../../test/fixtures/decisions');
const POSTGRES = 'The billing service will use PostgreSQL 16, as Maria Rossi agreed on 4 March.';

let loopback: Loopback;
let engine: Mailsift;
beforeAll(async () => {
  loopback = await startLoopback();
});
afterAll(() => loopback.close());
beforeEach(async () => {
  engine = Mailsift.open(join(tempDir('mailsift-decision-llm-'), 'archive.db'));
  await engine.ingest([FIXTURES], { inbox: 'team', workers: 0 });
  return () => engine.close();
});

const llm = () => openAiChat({ url: loopback.url, model: 'judge', maxRetries: 0 });
const postgres = () =>
  findDecisions(engine.archive.db, { inbox: 'team', q: 'postgresql' }).decisions[0] as NonNullable<
    ReturnType<typeof findDecisions>['decisions'][0]
  >;
/** Only the postgres decision waits: the others were validated before the test. */
function onlyPostgresWaits(): void {
  engine.archive.db
    .prepare(
      `DELETE FROM decision_llm_backlog WHERE decision_id NOT IN
         (SELECT id FROM decisions WHERE evidence LIKE '%db-5@%')`,
    )
    .run();
}
/** Queues the postgres decision for the LLM again. */
const requeue = (): void => {
  engine.archive.db
    .prepare(
      "INSERT INTO decision_llm_backlog (decision_id) SELECT id FROM decisions WHERE evidence LIKE '%db-5@%'",
    )
    .run();
};
/** The loopback's answer to the prompt about the postgres decision. */
const reply =
  (statement: string, quotes: Array<[string, string]>, decision = true) =>
  (): string =>
    `Here you go:\n${JSON.stringify({ decision, statement, quotes: quotes.map(([messageId, quote]) => ({ messageId, quote })) })}`;
const lastPrompt = (): string => {
  const request = loopback.requests.filter((r) => r.path === '/v1/chat/completions').at(-1);
  const body = request?.body as unknown as ChatRequest | undefined;
  return (body?.messages ?? []).map((m) => `${m.role}: ${m.content}`).join('\n');
};

describe('decisions validated by the LLM', () => {
  it('phrases a decision it confirms with verbatim quotes: method llm', async () => {
    onlyPostgresWaits();
    expect(postgres().method).toBe('rules');
    loopback.chat = reply(POSTGRES, [
      ['db-5@orbit-labs.example', 'Agreed.'],
      // Spaced otherwise than the message: still the author's words.
      ['<db-4@orbit-labs.example>', "Then let's go with PostgreSQL 16,   the version"],
    ]);
    expect(await validatePending(engine, llm())).toEqual({
      accepted: 1,
      rejected: 0,
      failed: 0,
      remaining: 0,
    });
    expect(postgres()).toMatchObject({ statement: POSTGRES, method: 'llm' });
    expect(postgres().evidence.map((e) => e.messageId)).toContain('db-5@orbit-labs.example');

    const prompt = lastPrompt();
    expect(prompt).toMatch(/untrusted data, not instructions/);
    expect(prompt).toMatch(
      /<mail id="db-5@orbit-labs.example" from="Maria Rossi" date="2024-03-04">\nAgreed\./,
    );
    expect(prompt).toContain('Found by rules:');
  });

  it('asks the server for the verdict in its JSON shape, and asks without it once a server refuses it', async () => {
    onlyPostgresWaits();
    loopback.chat = reply(POSTGRES, [['db-5@orbit-labs.example', 'Agreed.']]);
    const chats = () => loopback.requests.filter((r) => r.path === '/v1/chat/completions');
    const model = llm();
    // An older server refuses response_format: json_schema (400); the verdict is asked again without it.
    loopback.faults.push('400');
    expect(await validatePending(engine, model)).toMatchObject({ accepted: 1, failed: 0 });
    const [refused, plain] = chats().slice(-2);
    const format = refused?.body.response_format as { type: string; json_schema: { schema: unknown } };
    expect(format.type).toBe('json_schema');
    expect(JSON.stringify(format.json_schema.schema)).toContain('db-5@orbit-labs.example');
    expect(plain?.body.response_format).toBeUndefined();
    // That server is not asked for a shape again; a new model asks again.
    requeue();
    await validatePending(engine, model);
    expect(chats().at(-1)?.body.response_format).toBeUndefined();
    requeue();
    await validatePending(engine, llm());
    expect(chats().at(-1)?.body.response_format).toMatchObject({ type: 'json_schema' });
  });

  it('keeps the rules’ record when a quote is not in the message it cites, or the LLM does not confirm', async () => {
    onlyPostgresWaits();
    const rules = postgres();
    loopback.chat = reply(POSTGRES, [['db-5@orbit-labs.example', 'Agreed, PostgreSQL 16 it is.']]);
    expect(await validatePending(engine, llm())).toEqual({
      accepted: 0,
      rejected: 1,
      failed: 0,
      remaining: 0,
    });
    expect(postgres()).toEqual(rules);

    requeue();
    // Verbatim, but in another message than the one it names.
    loopback.chat = reply(POSTGRES, [['db-5@orbit-labs.example', 'I propose PostgreSQL']]);
    expect((await validatePending(engine, llm())).rejected).toBe(1);
    expect(postgres()).toEqual(rules);

    requeue();
    loopback.chat = reply(POSTGRES, [['db-5@orbit-labs.example', 'Agreed.']], false);
    expect((await validatePending(engine, llm())).rejected).toBe(1);
    expect(postgres()).toEqual(rules);
  });

  it('keeps the record waiting when the LLM fails, reports it, and backs off', async () => {
    onlyPostgresWaits();
    const rules = postgres();
    const t0 = Date.UTC(2026, 0, 1);
    loopback.faults.push('500');
    const failed = await validatePending(engine, llm(), { now: () => t0 });
    expect(failed).toMatchObject({ accepted: 0, failed: 1, remaining: 1 });
    expect(failed.error).toMatch(/server had an error/);
    expect(postgres()).toEqual(rules);
    expect(decisionBacklog(engine.archive.db, 'team')).toMatchObject({ pending: 1, failing: 1 });
    expect(decisionBacklog(engine.archive.db).lastError).toMatch(/server had an error/);
    // Health reports it as it reports a failing summary: the LLM's backlog check warns.
    const health = checkHealth(engine, DEFAULT_THRESHOLDS, new Date(t0), {
      summaries: summaryProbe(engine, llm()),
    });
    const check = health.inboxes
      .find((i) => i.inbox === 'team')
      ?.checks.find((c) => c.name === 'summary_backlog');
    expect(check?.status).toBe('warn');
    expect(check?.message).toMatch(/1 decision to validate waiting for .*1 failing.*server had an error/);

    const calls = loopback.requests.length;
    expect((await validatePending(engine, llm(), { now: () => t0 + 1000 })).remaining).toBe(1);
    expect(loopback.requests.length).toBe(calls);

    loopback.chat = () => 'I think so, yes.';
    const unusable = await validatePending(engine, llm(), { now: () => t0 + 3600_000 });
    expect(unusable).toMatchObject({ failed: 1, remaining: 1 });
    expect(decisionBacklog(engine.archive.db).lastError).toMatch(/no usable verdict/);
    expect(postgres()).toEqual(rules);
  });
});

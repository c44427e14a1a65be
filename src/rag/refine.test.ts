import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mailsift } from '../engine.js';
import { type ChatModel, openAiChat } from './chat.js';
import { embedPending } from './embed.js';
import { openAiEmbedder } from './embedder.js';
import { extractFilters } from './filters.js';
import { type Loopback, startLoopback } from './openai-loopback.js';
import { readRefinement, refinePrompt } from './refine.js';
import { retrieve } from './retrieve.js';
import { openFixtureArchive } from './test-helpers.js';

const NOW = new Date('2024-03-20T12:00:00Z');
const OUTAGE = 'maint-fra-0306@tidewater-hosting.example';

describe('the question refined by the LLM', () => {
  let server: Loopback;
  let engine: Mailsift;
  let inboxIds: number[];
  beforeAll(async () => {
    server = await startLoopback();
    engine = (await openFixtureArchive('paraphrase')).engine;
    inboxIds = [
      (engine.archive.db.prepare("SELECT id FROM inboxes WHERE name = 'work'").get() as { id: number }).id,
    ];
  });
  afterAll(async () => {
    engine.close();
    await server.close();
  });

  const rulesOf = (question: string) => extractFilters(engine.archive.db, question, inboxIds, NOW);
  const read = (reply: string, question = 'anything from the studio?') =>
    readRefinement(engine.archive.db, reply, question, rulesOf(question), inboxIds);

  it('reads people, organisations and domains as the senders they stand for, and drops the unknown', () => {
    const refined = read(
      'Here are the filters:\n```json\n{"people": ["Lucia Moretti", "Tidewater Hosting", "helpdesk@ferri-studio.example", "casa-ferri.example", "John Smith", "nobody@nowhere.example"], "after": null, "before": null, "attachment": null, "rephrasings": []}\n```',
    );
    expect(refined.filters.people).toEqual([
      'helpdesk@ferri-studio.example',
      'lucia.moretti@ferri-studio.example',
      'nonna.ferri@casa-ferri.example',
      'ops@tidewater-hosting.example',
    ]);
    expect(refined.unknownPeople).toEqual(['John Smith', 'nobody@nowhere.example']);
    expect(read('{"people": ["ops@tidewater"]}').filters.people).toEqual(['ops@tidewater-hosting.example']);
  });

  it('reads dates as an inclusive start and an exclusive end, and a PDF as an attachment filter', () => {
    const refined = read(
      '{"people": [], "after": "2024-03-06", "before": "2024-03-08", "attachment": "pdf", "rephrasings": []}',
    );
    expect(refined.filters).toMatchObject({
      after: Date.UTC(2024, 2, 6),
      before: Date.UTC(2024, 2, 8),
      hasAttachment: true,
      attachmentType: 'pdf',
      people: [],
    });
    expect(refined.filters.matched).toEqual(['2024-03-06 – 2024-03-08', 'PDF']);
    // Without the LLM's fields the filters are off: its answer replaces the rules' one.
    expect(read('{}').filters).toMatchObject({ after: null, before: null, hasAttachment: false, people: [] });
  });

  it('keeps at most three distinct rephrasings, not the question itself', () => {
    const question = 'how long will the servers be offline?';
    const refined = read(
      JSON.stringify({
        rephrasings: [
          'How long will the servers be offline?',
          'maintenance window network down',
          ' maintenance window network down ',
          '',
          'core switch replacement downtime',
          'data centre outage duration',
          'one too many',
        ],
      }),
      question,
    );
    expect(refined.rephrasings).toEqual([
      'maintenance window network down',
      'core switch replacement downtime',
      'data centre outage duration',
    ]);
  });

  it('reads the first JSON object of a reply, whatever the model wrote around it', () => {
    const refined = read(
      'Sure! {"rephrasings": ["the {hall B} racking request", "a \\"quoted\\" word"]}\nNote: {dates} were not asked.',
    );
    expect(refined.rephrasings).toEqual(['the {hall B} racking request', 'a "quoted" word']);
  });

  it('refuses a reply it cannot use, saying why', () => {
    expect(() => read('I think you mean the outage.')).toThrow(/no JSON object/);
    expect(() => read('{"people": [}')).toThrow(/does not parse/);
    expect(() => read('{"rephrasings": ["cut off by the token limit')).toThrow(/does not parse/);
    expect(() => read('{"after": "2024-13-45"}')).toThrow(/after: not a calendar date/);
    expect(() => read('{"after": "March 2024"}')).toThrow(/after: a date as YYYY-MM-DD/);
    expect(() => read('{"after": "2024-03-08", "before": "2024-03-06"}')).toThrow(/date range is empty/);
    expect(() => read('{"people": "Lucia"}')).toThrow(/people/);
    expect(() => read('{"rephrasings": [{"text": "the bus"}]}')).toThrow(/rephrasings/);
  });

  it('asks with the question, the date and what the rules found', () => {
    const question = 'what did Lucia send last week?';
    const [system, user] = refinePrompt(question, rulesOf(question), NOW);
    expect(system?.content).toMatch(/Reply with one JSON object/);
    expect(user?.content).toContain('Today is 2024-03-20.');
    expect(user?.content).toContain(
      'Rules found: {"people":["lucia.moretti@ferri-studio.example"],"mentioned":[],"after":"2024-03-11","before":"2024-03-18","attachment":null}',
    );
    expect(user?.content).toContain(`Question: ${question}`);
  });

  it('searches the rephrasings beside the question and applies the refined filters', async () => {
    const llm = openAiChat({ url: server.url, model: 'refiner' });
    const question = 'how long will our servers be offline this weekend?';
    const rulesOnly = await retrieve(engine, question, { inbox: 'work', now: NOW });
    expect(rulesOnly.messages.map((m) => m.messageId)).not.toContain(OUTAGE);

    const rephrasings = [
      'maintenance window: virtual machines lose network connectivity',
      'core switches replaced in the data centre',
    ];
    server.chat = () => JSON.stringify({ people: [], rephrasings });
    const refined = await retrieve(engine, question, { inbox: 'work', now: NOW, refiner: llm });
    expect(refined.degraded).toBeUndefined();
    expect(refined.messages[0]?.messageId).toBe(OUTAGE);
    expect(refined.refinement).toEqual({ by: 'openai:refiner', rephrasings });
    const asked = server.requests.at(-1)?.body.messages as Array<{ content: string }>;
    expect(asked[1]?.content).toContain(`Question: ${question}`);

    // The refined filters hold for every rephrasing: none of them finds mail of another sender.
    server.chat = () => JSON.stringify({ people: ['Tidewater Hosting'], rephrasings });
    const theirs = await retrieve(engine, question, { inbox: 'work', now: NOW, refiner: llm });
    expect(theirs.filters.people).toEqual(['ops@tidewater-hosting.example']);
    expect(theirs.messages.map((m) => m.messageId)).toEqual([OUTAGE]);
    server.chat = () => JSON.stringify({ people: ['Lucia Moretti'], rephrasings });
    const lucias = await retrieve(engine, question, { inbox: 'work', now: NOW, refiner: llm });
    expect(lucias.messages.map((m) => m.messageId)).not.toContain(OUTAGE);
  });

  it('embeds the rephrasings with the question in one request, for the vector leg', async () => {
    const embedder = openAiEmbedder({ url: server.url, model: 'm' });
    await embedPending(engine, embedder);
    const llm = openAiChat({ url: server.url, model: 'refiner' });
    const rephrasings = ['virtual machines lose network connectivity during the maintenance window'];
    server.chat = () => JSON.stringify({ rephrasings });
    const question = 'how long will our servers be offline this weekend?';
    const result = await retrieve(engine, question, {
      inbox: 'work',
      now: NOW,
      refiner: llm,
      embedder,
      mode: 'vector',
    });
    expect(result.mode).toBe('vector');
    expect(result.messages[0]?.messageId).toBe(OUTAGE);
    const embedded = server.requests.filter((r) => r.path === '/v1/embeddings').at(-1);
    expect(embedded?.body.input).toEqual([question, ...rephrasings]);
  });

  it('stops a late call rather than leaving it running', async () => {
    let given: AbortSignal | undefined;
    const never: ChatModel = {
      id: 'never',
      complete: (_messages, signal) => {
        given = signal;
        return new Promise<string>(() => {});
      },
    };
    const result = await retrieve(engine, 'what did Lucia write about the bus?', {
      inbox: 'work',
      now: NOW,
      refiner: never,
      refineTimeoutMs: 100,
    });
    expect(result.degraded).toMatch(/the llm gave no answer within 100 ms/);
    expect(given?.aborted).toBe(true);
  });

  it("goes on with the rules' filters, degraded, when the LLM fails, is late or answers nonsense", async () => {
    const question = 'what did Lucia write about the bus?';
    const rulesOnly = await retrieve(engine, question, { inbox: 'work', now: NOW });
    expect(rulesOnly.messages[0]?.messageId).toBe('retreat-dolomites-0307@ferri-studio.example');
    const llm = openAiChat({ url: server.url, model: 'refiner', maxRetries: 0 });
    const cases: Array<{ arrange: () => void; reason: RegExp }> = [
      { arrange: () => server.faults.push('500'), reason: /answered 500/ },
      { arrange: () => server.faults.push('hang'), reason: /gave no answer within 300 ms/ },
      {
        arrange: () => {
          server.chat = () => 'Sure! Lucia wrote about the bus.';
        },
        reason: /no JSON object/,
      },
    ];
    for (const { arrange, reason } of cases) {
      arrange();
      const result = await retrieve(engine, question, {
        inbox: 'work',
        now: NOW,
        refiner: llm,
        refineTimeoutMs: 300,
      });
      expect(result.degraded).toMatch(/^the llm did not refine the question/);
      expect(result.degraded).toMatch(reason);
      expect(result.refinement).toBeUndefined();
      expect(result.filters).toEqual(rulesOnly.filters);
      expect(result.messages).toEqual(rulesOnly.messages);
    }
  });
});

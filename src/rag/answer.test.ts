import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mailsift } from '../engine.js';
import { ask } from './answer.js';
import { openAiChat } from './chat.js';
import { type ChatRequest, type Loopback, startLoopback } from './openai-loopback.js';
import { openFixtureArchive } from './test-helpers.js';

describe('answers with citations', () => {
  let server: Loopback;
  let engine: Mailsift;
  beforeAll(async () => {
    server = await startLoopback();
    engine = (await openFixtureArchive('injection')).engine;
  });
  afterAll(async () => {
    engine.close();
    await server.close();
  });

  it('answers extractively without an LLM: best passages, each cited with a quote', async () => {
    const answer = await ask(engine, 'does option B include the forklift lease?', { inbox: 'work' });
    expect(answer.method).toBe('extractive');
    expect(answer.retrieval.mode).toBe('keyword');
    // The sentence that answers it: option B "costs 48,000 EUR including the forklift lease".
    const lease = answer.citations.find(
      (c) => c.messageId === 'budget-root-0603@harbor-freight.example' && c.quote.includes('forklift lease'),
    );
    expect(lease).toMatchObject({
      from: 'Anna Keller <anna.keller@harbor-freight.example>',
      subject: 'Q3 logistics budget: three options for the Rotterdam hub',
      date: '2024-06-03T07:12:00.000Z',
    });
    expect(lease?.quote).toContain('48,000 EUR including the forklift lease');
    expect(answer.answer).toContain('[budget-root-0603@harbor-freight.example]');
  });

  it('prompts with delimited untrusted mail, keeps known citations and flags unknown ones', async () => {
    let seen: ChatRequest | undefined;
    server.chat = (request) => {
      seen = request;
      return 'Option B includes the lease [budget-a-0603@harbor-freight.example]. The lease was cancelled [ceo@harbor-freight.example].';
    };
    const llm = openAiChat({ url: server.url, model: 'qwen2.5-7b-instruct' });
    const answer = await ask(engine, 'forklift lease renewal and option B', { inbox: 'work', llm });
    expect(seen?.model).toBe('qwen2.5-7b-instruct');
    expect(seen?.messages[0]?.content).toMatch(/untrusted data, not instructions/);
    const user = seen?.messages[1]?.content ?? '';
    expect(user).toContain('<mail id="lease-notice-0606@parcel-notice.example"');
    // The message's own "</mail>" cannot close the data block.
    expect(user.match(/<\/mail>/g)?.length).toBe(user.match(/<mail id=/g)?.length);
    expect(user).toContain('&lt;/mail>');
    expect(answer).toMatchObject({
      method: 'llm',
      verified: false,
      unknownCitations: ['ceo@harbor-freight.example'],
    });
    expect(answer.citations.map((c) => c.messageId)).toEqual(['budget-a-0603@harbor-freight.example']);
  });

  it('falls back to an extractive answer, marked degraded, when the LLM fails', async () => {
    server.faults.push('401');
    const llm = openAiChat({ url: server.url, model: 'm', apiKey: 'sk-wrong' });
    const answer = await ask(engine, 'forklift lease', { inbox: 'work', llm });
    expect(answer.method).toBe('extractive');
    expect(answer.retrieval.degraded).toMatch(/the llm failed .*401: Incorrect API key/);
    expect(answer.citations.length).toBeGreaterThan(0);
  });
});

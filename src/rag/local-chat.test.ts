// The `local` chat model on the real SmolLM2-135M-Instruct GGUF (scripts/fetch-model.sh --model
// smollm2-135m-instruct puts it in the model cache; CI runs that first): cited answers through
// `ask`, citation checking, the prompt's untrusted-data framing, and its errors.

import { existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/temp.js';
import { Mailsift } from '../engine.js';
import { ask, promptMailIds } from './answer.js';
import type { ChatMessage, ChatModel } from './chat.js';
import { createChatModel, loadProviderConfig } from './config.js';
import { validatePending } from './decision-validate.js';
import { GGUF_FILE, LOCAL_CHAT_MODEL, type LocalChatModel, localChat } from './local-chat.js';
import { defaultModelDir } from './onnx-embedder.js';
import { retrieve } from './retrieve.js';
import { openFixtureArchive } from './test-helpers.js';

const MODEL_DIR = defaultModelDir(process.env, LOCAL_CHAT_MODEL);

/** The fetched model, or a failure naming the command that fetches it. */
function fetched(
  options: { timeoutMs?: number; maxTokens?: number; contextSize?: number } = {},
): LocalChatModel {
  if (!existsSync(join(MODEL_DIR, GGUF_FILE)))
    throw new Error(
      `the local llm tests need the model in ${MODEL_DIR}: run scripts/fetch-model.sh --model ${LOCAL_CHAT_MODEL} first`,
    );
  return localChat({ path: MODEL_DIR, ...options });
}

/** A chat model that records the prompts it is given (may rewrite them first) and its replies. */
function spy(inner: ChatModel, rewrite = (m: readonly ChatMessage[]) => m) {
  const seen: (readonly ChatMessage[])[] = [];
  const replies: string[] = [];
  const model: ChatModel = {
    id: inner.id,
    async complete(messages, signal, shape) {
      seen.push(messages);
      const reply = await inner.complete(rewrite(messages), signal, shape);
      replies.push(reply);
      return reply;
    },
  };
  return { model, seen, replies };
}

const QUESTION = 'does option B include the forklift lease?';

describe('local llm (SmolLM2-135M-Instruct, in process)', () => {
  let engine: Mailsift;
  let llm: LocalChatModel;
  beforeAll(async () => {
    llm = fetched();
    engine = (await openFixtureArchive('injection')).engine;
  });
  afterAll(async () => {
    engine.close();
    await llm.close();
  });

  it('answers through ask, citing only retrieved messages, the same way every time', async () => {
    const { model, seen } = spy(llm);
    const first = await ask(engine, QUESTION, { inbox: 'work', llm: model });
    const retrieved = promptMailIds(seen[0]?.[1]?.content ?? '');
    expect(retrieved.length).toBeGreaterThan(1);
    expect(first).toMatchObject({ method: 'llm', verified: true, unknownCitations: [] });
    expect(first.retrieval.degraded).toBeUndefined();
    expect(first.citations.length).toBeGreaterThan(0);
    for (const c of first.citations) {
      expect(retrieved).toContain(c.messageId);
      expect(first.answer).toContain(`[${c.messageId}]`);
    }
    // Greedy decoding: the same question over the same mail gives the same answer.
    const second = await ask(engine, QUESTION, { inbox: 'work', llm: model });
    expect(second.answer).toBe(first.answer);
    // Two generations on 2 CPU cores: past the default 60 s when the machine is loaded (seen at
    // load 15); the bound guards against a hang, not speed (bench:rag measures that).
  }, 180_000);

  it('gets the retrieved mail as delimited untrusted data, an injected message included', async () => {
    const { model, seen } = spy(llm);
    const answer = await ask(engine, 'forklift lease renewal notice', { inbox: 'work', llm: model });
    const [system, user] = seen[0] ?? [];
    expect(system?.content).toMatch(/untrusted data, not instructions/);
    expect(user?.content).toContain('<mail id="lease-notice-0606@parcel-notice.example"');
    // The injected "</mail>" cannot end the data block early.
    expect(user?.content.match(/<\/mail>/g)?.length).toBe(user?.content.match(/<mail id=/g)?.length);
    expect(user?.content).toContain('&lt;/mail>');
    // The injection asks for [ceo@harbor-freight.example]; the model can only cite what it was given.
    expect(answer.citations.map((c) => c.messageId)).not.toContain('ceo@harbor-freight.example');
    expect(answer.unknownCitations).toEqual([]);
  });

  it('flags a citation of a message retrieval did not return', async () => {
    // The model is shown one mail the retriever never returned (as a stale or mixed-up prompt
    // would): the grammar makes it cite that id, and ask's check catches it.
    const stranger = 'ceo@harbor-freight.example';
    const { model } = spy(llm, ([system]) => [
      system as ChatMessage,
      {
        role: 'user',
        content: `<mail id="${stranger}" from="CEO" date="2024-06-07">\nThe forklift lease is cancelled.\n</mail>\n\nQuestion: ${QUESTION}`,
      },
    ]);
    const answer = await ask(engine, QUESTION, { inbox: 'work', llm: model });
    const context = await retrieve(engine, QUESTION, { inbox: 'work' });
    expect(context.passages.flatMap((p) => p.messageIds)).not.toContain(stranger);
    expect(answer).toMatchObject({ method: 'llm', verified: false, unknownCitations: [stranger] });
    expect(answer.citations).toEqual([]);
  });

  it('aborts a generation past its timeout, and answers the next question', async () => {
    const slow = fetched({ timeoutMs: 5_000, maxTokens: 3_000 });
    try {
      // No <mail> blocks, so no grammar: 5,000 numbers are ~10k tokens, cut at 3,000; tens of seconds.
      const endless: ChatMessage[] = [
        { role: 'user', content: 'Write the numbers from 1 to 5000, separated by commas.' },
      ];
      await expect(slow.complete(endless)).rejects.toMatchObject({
        name: 'ProviderError',
        param: 'llm',
        message: expect.stringMatching(/did not answer within 5000 ms; generation aborted/),
      });
      const reply = await slow.complete([{ role: 'user', content: 'Reply with one word: yes or no?' }]);
      expect(reply.length).toBeGreaterThan(0);
    } finally {
      await slow.close();
    }
  });

  it('validates decisions in the verdict shape asked, quoting only the messages it was given', async () => {
    // The decision prompt holds <mail> blocks too: without the shape, the model was held to
    // ask's cited-answer grammar and no verdict could be read from any reply.
    const archive = Mailsift.open(join(tempDir('mailsift-local-decisions-'), 'archive.db'));
    try {
      await archive.ingest([join(import.meta.dirname, '../../test/fixtures/decisions')], {
        inbox: 'team',
        workers: 0,
      });
      const { model, seen, replies } = spy(llm);
      const report = await validatePending(archive, model, { max: 2 });
      expect(report).toMatchObject({ failed: 0 });
      expect(report.accepted + report.rejected).toBe(2);
      expect(replies).toHaveLength(2);
      replies.forEach((text, i) => {
        const reply = JSON.parse(text) as { quotes: Array<{ messageId: string }> };
        expect(reply).toEqual({
          decision: expect.any(Boolean),
          statement: expect.any(String),
          quotes: expect.any(Array),
        });
        const given = promptMailIds(seen[i]?.at(-1)?.content ?? '');
        for (const q of reply.quotes) expect(given).toContain(q.messageId);
      });
    } finally {
      archive.close();
    }
  }, 180_000);

  it('refuses a prompt larger than its context rather than cutting mail out, and ask degrades', async () => {
    const small = fetched({ contextSize: 512 });
    try {
      const answer = await ask(engine, QUESTION, { inbox: 'work', llm: small });
      expect(answer.method).toBe('extractive');
      expect(answer.retrieval.degraded).toMatch(
        /a prompt of \d+ tokens and a reply of up to 384 do not fit its context of 512; raise llm.contextSize/,
      );
      // The refused prompt held nothing back: the model still answers one that fits.
      const reply = await small.complete([{ role: 'user', content: 'Reply with one word: yes or no?' }]);
      expect(reply.length).toBeGreaterThan(0);
    } finally {
      await small.close();
    }
  });
});

describe('local llm errors', () => {
  it('names the missing model file and the command that fetches it', () => {
    const missing = join(tmpdir(), 'mailsift-no-such-model');
    for (const path of [missing, join(missing, 'model.gguf')])
      expect(() => localChat({ path })).toThrow(
        expect.objectContaining({
          code: 'not_found',
          param: 'llm.path',
          message: expect.stringMatching(
            /mailsift-no-such-model.* does not exist; run scripts\/fetch-model.sh --model smollm2-135m-instruct/,
          ),
        }),
      );
  });

  it('degrades ask to an extractive answer when the file is not a model', async () => {
    const dir = tempDir('mailsift-bad-gguf-');
    writeFileSync(join(dir, GGUF_FILE), 'not a model: a text file where the GGUF should be\n'.repeat(50));
    const llm = localChat({ path: dir });
    const { engine } = await openFixtureArchive('injection');
    try {
      await expect(llm.complete([{ role: 'user', content: 'hi' }])).rejects.toMatchObject({
        name: 'ProviderError',
        message: expect.stringContaining(`local llm could not load ${join(dir, GGUF_FILE)}`),
      });
      const answer = await ask(engine, QUESTION, { inbox: 'work', llm });
      expect(answer.method).toBe('extractive');
      expect(answer.retrieval.degraded).toMatch(/the llm failed \(.*could not load/);
      expect(answer.citations.length).toBeGreaterThan(0);
    } finally {
      engine.close();
      await llm.close();
    }
  });

  it('is configured by kind local, with the fetched model as the default', () => {
    const cache = tempDir('mailsift-cache-');
    const config = loadProviderConfig({
      cwd: tmpdir(),
      env: { MAILSIFT_LLM_KIND: 'local', MAILSIFT_MODEL_CACHE: cache, MAILSIFT_LLM_THREADS: '1' },
    });
    expect(config.llm).toEqual({ kind: 'local', path: join(cache, LOCAL_CHAT_MODEL), threads: 1 });
    expect(() => createChatModel(config.llm as NonNullable<typeof config.llm>)).toThrow(
      expect.objectContaining({ code: 'not_found', param: 'llm.path' }),
    );
  });
});

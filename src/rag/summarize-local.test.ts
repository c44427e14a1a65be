// A thread summary written by the real local model (SmolLM2-135M-Instruct, fetched like
// local-chat.test.ts needs it): free text, no citation grammar, replacing the extractive one;
// and a pass stopped while the model writes.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { ChatModel } from './chat.js';
import { GGUF_FILE, LOCAL_CHAT_MODEL, localChat } from './local-chat.js';
import { defaultModelDir } from './onnx-embedder.js';
import { summarizePending, summaryBacklog } from './summarize.js';
import { chunkRows, openFixtureArchive } from './test-helpers.js';

const MODEL_DIR = defaultModelDir(process.env, LOCAL_CHAT_MODEL);

it('summarises a thread with the local model', async () => {
  if (!existsSync(join(MODEL_DIR, GGUF_FILE)))
    throw new Error(
      `needs the model in ${MODEL_DIR}: run scripts/fetch-model.sh --model ${LOCAL_CHAT_MODEL}`,
    );
  // Five sentences fit in 160 tokens; the small model would otherwise repeat itself to its limit.
  const llm = localChat({ path: MODEL_DIR, maxTokens: 160 });
  const { engine } = await openFixtureArchive('budget-thread');
  try {
    const report = await summarizePending(engine, llm);
    const summary = chunkRows(engine).find((r) => r.kind === 'summary');
    expect(report).toEqual({ written: 1, failed: 0, remaining: 0 });
    const [head, ...written] = summary?.text.split('\n') ?? [];
    expect(head).toMatch(/^Thread: Q3 logistics budget: .* 4 message\(s\), 2024-06-03 to 2024-06-05\.$/);
    expect(written.join(' ')).toMatch(/Rotterdam/);
    expect(summary?.text).not.toContain('Opened by');
    // The small model repeats itself until its token limit: repeated sentences are dropped.
    const said = written.join(' ').split(/(?<=\.)\s+/);
    expect(new Set(said).size).toBe(said.length);
    expect(said.length).toBeLessThanOrEqual(5);
  } finally {
    engine.close();
    await llm.close();
  }
});

it('stops at once when asked while the local model writes: nothing stored or failed, the model freed', async () => {
  if (!existsSync(join(MODEL_DIR, GGUF_FILE))) throw new Error(`needs the model in ${MODEL_DIR}`);
  const local = localChat({ path: MODEL_DIR, maxTokens: 160, timeoutMs: 600_000 });
  // Loaded first, so the stop below lands in the generation (a ~1,500-token prompt and up to
  // 160 tokens take seconds), not in the load.
  await local.complete([{ role: 'user', content: 'Say yes.' }]);
  const stop = new AbortController();
  const llm: ChatModel = {
    id: local.id,
    complete: (messages, signal) => {
      setTimeout(() => stop.abort(new Error('the server is stopping')), 300);
      return local.complete(messages, signal);
    },
  };
  const { engine } = await openFixtureArchive('budget-thread');
  try {
    const report = await summarizePending(engine, llm, { signal: stop.signal });
    expect(report).toEqual({ written: 0, failed: 0, remaining: 1 });
    expect(summaryBacklog(engine)).toEqual({ pending: 1, failing: 0, lastError: null });
    expect(chunkRows(engine).find((r) => r.kind === 'summary')?.text).toContain('Opened by');
  } finally {
    engine.close();
    // The generation was aborted, not waited for (its timeout is ten minutes).
    await local.close();
  }
});

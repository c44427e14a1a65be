// `mailsift ask` shapes its context pack with the same flags as `retrieve`: --limit threads,
// --budget tokens, --inbox; without an LLM the answer quotes the pack's best passages.

import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { RAG_FIXTURES } from '../../src/rag/test-helpers.js';
import { tempDir } from '../temp.js';
import { runCli } from './cli.js';

const QUESTION = 'when is the payment for the invoice due and what did we decide about the budget';

interface AskJson {
  citations: Array<{ threadId: string; messageId: string }>;
}

describe('mailsift ask: the context pack options (built CLI, no providers)', () => {
  let db: string;
  const ask = (...args: string[]) => runCli(['ask', QUESTION, '--db', db, '--json', ...args]);
  const threadsCited = (stdout: string) =>
    new Set((JSON.parse(stdout) as AskJson).citations.map((c) => c.threadId)).size;

  beforeAll(() => {
    db = join(tempDir('mailsift-ask-'), 'a.db');
    const ingest = runCli([
      'ingest',
      join(RAG_FIXTURES, 'paraphrase'),
      join(RAG_FIXTURES, 'budget-thread'),
      '--inbox',
      'work',
      '--db',
      db,
    ]);
    expect(ingest.status).toBe(0);
  });

  it('cites the invoice and the budget threads by default, one thread with --limit 1', () => {
    const all = ask();
    expect(all.status).toBe(0);
    expect(threadsCited(all.stdout)).toBe(2);
    const one = ask('--limit', '1');
    expect(one.status).toBe(0);
    expect(threadsCited(one.stdout)).toBe(1);
  });

  it('answers from a pack cut to --budget, and refuses a budget that is not a positive integer', () => {
    const pack = runCli(['retrieve', QUESTION, '--db', db, '--json', '--budget', '200']);
    const passages = (
      JSON.parse(pack.stdout) as { tokens: number; passages: Array<{ messageIds: string[] }> }
    ).passages;
    const inPack = new Set(passages.flatMap((p) => p.messageIds));
    const small = ask('--budget', '200');
    expect(small.status).toBe(0);
    const cited = (JSON.parse(small.stdout) as AskJson).citations.map((c) => c.messageId);
    expect(cited.length).toBeGreaterThan(0);
    for (const id of cited) expect(inPack).toContain(id);
    // The full pack is cited beyond what the small one holds.
    expect((JSON.parse(ask().stdout) as AskJson).citations.some((c) => !inPack.has(c.messageId))).toBe(true);
    const bad = ask('--budget', '0');
    expect(bad.status).toBe(2);
    expect(JSON.parse(bad.stdout)).toMatchObject({ error: { code: 'invalid_argument', param: '--budget' } });
  });

  it('answers from the named inbox only, and names an inbox that does not exist', () => {
    expect(threadsCited(ask('--inbox', 'work').stdout)).toBe(2);
    const elsewhere = ask('--inbox', 'nowhere');
    expect(elsewhere.status).not.toBe(0);
    expect(JSON.parse(elsewhere.stdout)).toMatchObject({ error: { code: 'no_such_item', param: 'inbox' } });
  });

  it('prints the hard filters a question set, the senders only raised, and a fallback below a thin filter', () => {
    const asked = runCli(['retrieve', 'what did Marco write about the budget?', '--db', db]);
    expect(asked.status).toBe(0);
    expect(asked.stdout).toContain('filters: from marco.bianchi@lagomaggiore-tessuti.example\n');
    const mentioned = runCli([
      'retrieve',
      'which option won in the budget question Marco raised?',
      '--db',
      db,
    ]);
    expect(mentioned.stdout).toContain(
      'filters: none; raised, not filtered: marco.bianchi@lagomaggiore-tessuti.example',
    );
    const thin = runCli(['retrieve', 'option B in May 2024', '--db', db]);
    expect(thin.stdout).toContain('filters: after 2024-05-01, before 2024-06-01\n');
    expect(thin.stdout).toContain('note: the filters (after 2024-05-01, before 2024-06-01) left 0 messages');
  });
});

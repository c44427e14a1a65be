import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Mailsift } from '../engine.js';
import { loadQuestionFile, runEval } from '../eval/index.js';
import { openSampleArchive, SAMPLE, type SampleArchive } from '../eval/sample-archive.js';
import { ragRetriever } from './eval-retriever.js';
import { extractFilters } from './filters.js';
import { IDENTIFIER_WEIGHT, keywordLeg } from './keyword-leg.js';
import { retrieve } from './retrieve.js';

const PARAPHRASE_FIXTURES = join(import.meta.dirname, '..', '..', 'test', 'fixtures', 'rag', 'paraphrase');

describe('question-mode retrieval on the bundled sample', () => {
  let sample: SampleArchive;
  beforeAll(async () => {
    sample = await openSampleArchive();
  });
  afterAll(() => sample.engine.close());

  it('passes the question entries of sample/questions.yaml with keyword-only question mode', async () => {
    const set = loadQuestionFile(`${SAMPLE}/questions.yaml`);
    const questions = { path: set.path, questions: set.questions.filter((q) => q.question !== undefined) };
    expect(questions.questions).toHaveLength(2);
    const report = await runEval(sample.engine, questions, {
      inbox: 'demo',
      store: false,
      retrievers: { question: ragRetriever(sample.engine) },
    });
    expect(report.results.map((r) => `${r.id}: ${r.status} rank ${r.rank} top ${r.top.join(', ')}`)).toEqual(
      report.results.map((r) => expect.stringMatching(new RegExp(`^${r.id}: pass`))),
    );
  });

  it('returns a context pack: summary first, cited passages within the budget, no spoofed mail', async () => {
    const result = await retrieve(
      sample.engine,
      'when did the supplier first dispute the delivery schedule?',
      {
        inbox: 'demo',
        budget: 800,
      },
    );
    expect(result.mode).toBe('keyword');
    expect(result.notes).toContain('no embedder configured: keyword retrieval only');
    expect(result.tokens).toBeLessThanOrEqual(800);
    expect(result.passages[0]?.kind).toBe('summary');
    const ids = result.passages.flatMap((p) => p.messageIds);
    expect(ids).toContain('nw-dispute-0304@nordwind-logistik.de');
    expect(new Set(result.passages.map((p) => p.chunkId)).size).toBe(result.passages.length);

    const spoof = await retrieve(sample.engine, 'is my password expiring today?', {
      inbox: 'demo',
      limit: 20,
    });
    expect(spoof.messages.map((m) => m.messageId)).not.toContain('2024090205050000.spoof@microsoft.com');
    expect(spoof.messages.map((m) => m.messageId)).not.toContain('Tb4CzpnelXoyK7pmrak9.120@microsoft.com');
  });

  it('reads a named sender by name and domain, not by a service local part', () => {
    const db = sample.engine.archive.db;
    const inbox = (db.prepare("SELECT id FROM inboxes WHERE name = 'demo'").get() as { id: number }).id;
    // "Amazon.com" <shipment-tracking@amazon.com>: "shipment" is a topic, not a sender.
    expect(extractFilters(db, 'which shipment was held at customs?', [inbox]).people).toEqual([]);
    expect(extractFilters(db, 'what did Amazon send about my order?', [inbox]).people).toEqual([
      'shipment-tracking@amazon.com',
    ]);
    expect(extractFilters(db, 'what did Klaus say about the racks?', [inbox]).people).toEqual([
      'k.weber@nordwind-logistik.de',
    ]);
  });

  it('weighs each keyword hit by the idf-weighted share of the question it matches, a named identifier above all', () => {
    const db = sample.engine.archive.db;
    const inbox = (db.prepare("SELECT id FROM inboxes WHERE name = 'demo'").get() as { id: number }).id;
    const filters = extractFilters(db, 'x', [inbox]);
    const [receipt] = keywordLeg(db, 'where is INV-4473 from the hosting company?', [inbox], filters, 10);
    expect(receipt?.weight).toBe(IDENTIFIER_WEIGHT);
    // "zebra" and "giraffe" are in no message: the rarest words of the question, they weigh
    // most, so a message with both other words still matches well under half of it.
    const hits = keywordLeg(db, 'pallet racks zebra giraffe', [inbox], filters, 50);
    const weights = hits.map((h) => h.weight);
    expect(hits.length).toBeGreaterThan(1);
    expect(Math.max(...weights)).toBeLessThan(0.5);
    expect(Math.min(...weights)).toBeGreaterThan(0);
    expect(Math.min(...weights)).toBeLessThan(Math.max(...weights));
  });

  it('refuses an empty or oversized question with a typed error, and answers any language', async () => {
    await expect(retrieve(sample.engine, '   ')).rejects.toMatchObject({
      code: 'invalid_argument',
      param: 'question',
    });
    await expect(retrieve(sample.engine, 'x'.repeat(50_000))).rejects.toMatchObject({
      code: 'invalid_argument',
    });
    const ru = await retrieve(sample.engine, 'кто отвечает за груз по договору?', { inbox: 'demo' });
    expect(ru.messages.map((m) => m.messageId)).toContain('c0ffee02-7d2a-4f1b-9e3c-ural0520@ural-trans.ru');
    const none = await retrieve(sample.engine, '???', { inbox: 'demo' });
    expect(none.passages).toEqual([]);
  });
});

describe('question mode over an index that cannot be trusted', () => {
  it('refuses with index_unavailable instead of answering from a stale index', async () => {
    const engine = Mailsift.open(':memory:');
    try {
      await engine.ingest([PARAPHRASE_FIXTURES], { workers: 0 });
      expect((await retrieve(engine, 'who sent the invoice?')).passages.length).toBeGreaterThan(0);
      engine.archive.db.prepare("UPDATE keyword_meta SET value = '1' WHERE key = 'version'").run();
      await expect(retrieve(engine, 'who sent the invoice?')).rejects.toMatchObject({
        code: 'index_unavailable',
        param: 'index',
      });
    } finally {
      engine.close();
    }
  });
});

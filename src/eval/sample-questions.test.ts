import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadQuestionFile, runEval } from './index.js';
import { openSampleArchive, SAMPLE, type SampleArchive } from './sample-archive.js';

// The project's own question set guards search quality: every agent-search entry must pass.
describe('sample/questions.yaml against the bundled sample', () => {
  let sample: SampleArchive;
  beforeAll(async () => {
    sample = await openSampleArchive();
  });
  afterAll(() => sample.engine.close());

  it('passes every query entry, finds no forbidden message and knows every expected id', async () => {
    const set = loadQuestionFile(join(SAMPLE, 'questions.yaml'));
    expect(set.questions.length).toBeGreaterThanOrEqual(25);
    const report = await runEval(sample.engine, set, { inbox: 'demo', store: false });
    const queryFailures = report.results.filter((r) => r.mode === 'query' && !r.pass);
    expect(queryFailures.map((r) => `${r.id}: ${r.status} (top ${r.top.join(', ')})`)).toEqual([]);
    expect(report.summary.mustNotFindViolations).toBe(0);
    expect(report.summary.unknownIds).toBe(0);
    // Every kind is covered: identifiers, languages, mustNotFind-only entries, questions.
    expect(new Set(set.questions.map((q) => q.language))).toEqual(
      new Set(['en', 'de', 'it', 'ru', 'fr', 'es', 'zh']),
    );
    expect(report.results.some((r) => !r.scored)).toBe(true);
    // Question entries go through keyword search for now: a miss stays a miss, never a pass.
    for (const r of report.results.filter((r) => r.mode === 'question')) {
      expect(['pass', 'miss']).toContain(r.status);
      if (r.status === 'miss') expect(r.rank).toBeNull();
    }
    expect(report.notes.join(' ')).toMatch(/RAG retriever/);
  });
});

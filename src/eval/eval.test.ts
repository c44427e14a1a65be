import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isMailsiftError } from '../core/errors.js';
import {
  evalExitCode,
  formatEvalReport,
  keywordRetriever,
  loadQuestionFile,
  parseQuestions,
  type Retriever,
  runEval,
} from './index.js';
import { EVAL_FIXTURES, openSampleArchive, type SampleArchive } from './sample-archive.js';

const fixture = (name: string) => join(EVAL_FIXTURES, name);

function loadError(name: string): { message: string; param: string | undefined; code: string } {
  try {
    loadQuestionFile(fixture(name));
  } catch (error) {
    if (isMailsiftError(error)) return { message: error.message, param: error.param, code: error.code };
    throw error;
  }
  throw new Error(`${name} loaded without error`);
}

describe('question files', () => {
  it('names the entry, its id, the field and the YAML line of a wrong value', () => {
    const error = loadError('bad-field.yaml');
    expect(error.code).toBe('bad_format');
    expect(error.message).toMatch(/bad-field\.yaml:6: entry 2 \(id 'wrong-type'\), field 'messageIds'/);
  });

  it('names a missing nested field inside a {questions: [...]} file', () => {
    const error = loadError('missing-reason.yaml');
    expect(error.message).toMatch(/:5: entry 1 \(id 'first'\), field 'mustNotFind\.0\.reason'/);
  });

  it('rejects an entry with both a query and a question, a syntax error and duplicate ids', () => {
    expect(loadError('both-modes.yaml').message).toMatch(/field 'query': exactly one of query or question/);
    expect(loadError('syntax-error.yaml').message).toMatch(/syntax-error\.yaml:\d+:\d+: not valid YAML/);
    expect(loadError('duplicate-id.json').message).toMatch(
      /entry 2 \(id 'same'\), field 'id': duplicate of entry 1/,
    );
    expect(loadError('no-such-file.yaml').code).toBe('not_found');
  });

  it('reads JSON and numeric ids', () => {
    const questions = parseQuestions('[{"id": 7, "query": "x", "messageIds": ["a@b"]}]', 'json', 'inline');
    expect(questions[0]?.id).toBe('7');
  });
});

/** Agent search, minus its best message and thread: a deliberately worse configuration. */
function dropBestHit(inner: Retriever): Retriever {
  return {
    name: 'keyword-minus-best',
    async retrieve(text, options) {
      const found = await inner.retrieve(text, options);
      return { messageIds: found.messageIds.slice(1), threadIds: found.threadIds.slice(1) };
    },
  };
}

describe('eval runs against the sample', () => {
  let sample: SampleArchive;
  beforeAll(async () => {
    sample = await openSampleArchive();
  });
  afterAll(() => sample.engine.close());

  it('detects every question that got worse after a configuration change', async () => {
    const set = loadQuestionFile(fixture('unknown-ids.json'));
    const first = await runEval(sample.engine, set, { inbox: 'demo' });
    expect(first.previous).toBeNull();
    expect(first.results.find((r) => r.id === 'known')).toMatchObject({ rank: 1, pass: true });

    const keyword = keywordRetriever(sample.engine);
    const second = await runEval(sample.engine, set, {
      inbox: 'demo',
      retrievers: { query: dropBestHit(keyword) },
    });
    expect(second.previous?.runId).toBe(first.runId);
    expect(second.fingerprint).not.toBe(first.fingerprint);
    // The Lieferavis thread is the only one matching, so dropping it loses the pass.
    expect(second.regressions).toEqual([
      {
        id: 'known',
        before: { rank: 1, pass: true, status: 'pass' },
        after: { rank: null, pass: false, status: 'miss' },
      },
    ]);
    expect(evalExitCode(second)).toBe(1);
    expect(formatEvalReport(second, { colour: false })).toMatch(
      /1 question\(s\) got worse:\n {2}known: pass rank 1 → miss rank -/,
    );

    // Back to the real search: compared with run 2, nothing is worse.
    const third = await runEval(sample.engine, set, { inbox: 'demo' });
    expect(third.regressions).toEqual([]);
    expect(third.fingerprint).toBe(first.fingerprint);
  });

  it('reports unknown expected ids as such and never as passes', async () => {
    const report = await runEval(sample.engine, loadQuestionFile(fixture('unknown-ids.json')), {
      inbox: 'demo',
      store: false,
    });
    const typo = report.results.find((r) => r.id === 'typo-in-expectation');
    // The other expected receipt is found at rank 1, but the set is broken: not a pass.
    expect(typo).toMatchObject({ status: 'unknown_ids', pass: false, rank: null });
    expect(typo?.unknownIds).toEqual(['0100018e2817447Xp-stripe@email.stripe.com']);
    expect(report.results.find((r) => r.id === 'unknown-thread')?.status).toBe('unknown_ids');
    expect(report.summary).toMatchObject({ unknownIds: 2, passed: 1, recallAt10: 1 / 3 });
    expect(formatEvalReport(report, { colour: true })).toContain('\u001b[31mUNKNOWN');
    expect(formatEvalReport(report, { colour: false })).not.toContain('\u001b[');
  });

  it('fails the run when recall@10 is under --fail-under', async () => {
    const report = await runEval(sample.engine, loadQuestionFile(fixture('unknown-ids.json')), {
      inbox: 'demo',
      store: false,
    });
    expect(evalExitCode(report, 0.3)).toBe(0);
    expect(evalExitCode(report, 0.5)).toBe(1);
  });
});

describe('mustNotFind', () => {
  let sample: SampleArchive;
  beforeAll(async () => {
    sample = await openSampleArchive({ copy: true });
  });
  afterAll(() => sample.engine.close());

  it('fails while the message is present and passes once it is deleted at the source', async () => {
    const set = loadQuestionFile(fixture('deleted-receipt.yaml'));
    const present = await runEval(sample.engine, set, { inbox: 'demo' });
    expect(present.results[0]).toMatchObject({
      status: 'must_not_find',
      pass: false,
      forbiddenFound: [
        {
          id: '0100018e28174472p-stripe@email.stripe.com',
          reason: 'receipt deleted from the Maildir last month',
          rank: 1,
        },
      ],
    });
    expect(present.summary.mustNotFindViolations).toBe(1);
    expect(evalExitCode(present)).toBe(1);

    rmSync(join(sample.maildir, 'cur', '1711951260.M85P1Q1.mailsift,S=4989:2,S'));
    const report = await sample.engine.ingest(sample.sources, { inbox: 'demo', workers: 0 });
    expect(report.deleted).toBe(1);
    const after = await runEval(sample.engine, set, { inbox: 'demo' });
    expect(after.results.map((r) => [r.id, r.status])).toEqual([
      ['inv-4472-gone', 'pass'],
      ['inv-4474-kept', 'pass'],
    ]);
    expect(after.regressions).toEqual([]);
    expect(evalExitCode(after)).toBe(0);
  });
});

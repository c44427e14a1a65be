// `mailsift decisions` on the invented threads of test/fixtures/decisions: every decision
// with verbatim evidence, the unanswered proposal without one, the filters and pages, and the
// stored decisions checked by `check` and rebuilt by `reindex`.

import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../temp.js';
import { runCli } from './cli.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'decisions');

interface DecisionsJson {
  count: number;
  nextPageToken: string | null;
  decisions: Array<{
    threadId: string;
    statement: string;
    kind: string;
    status: string;
    decidedAt: string;
    evidence: Array<{ messageId: string; quote: string; role: string }>;
  }>;
}

describe('mailsift decisions (built CLI)', () => {
  let db: string;
  const decisions = (...args: string[]) => {
    const run = runCli(['decisions', '--db', db, '--json', ...args]);
    expect(run.status, run.stderr).toBe(0);
    return JSON.parse(run.stdout) as DecisionsJson;
  };

  beforeAll(() => {
    db = join(tempDir('mailsift-decisions-'), 'a.db');
    const ingest = runCli(['ingest', FIXTURES, '--inbox', 'team', '--db', db, '--no-embed']);
    expect(ingest.status, ingest.stderr).toBe(0);
  });

  it('lists each thread’s decision with its settling message, and none for the unanswered proposal', () => {
    const all = decisions();
    const settledBy = all.decisions.map((d) => [
      d.evidence.filter((e) => e.role === 'agreement').map((e) => e.messageId.split('@')[0]),
      d.kind,
      d.status,
    ]);
    expect(settledBy).toEqual(
      expect.arrayContaining([
        [['db-5'], 'proposal-agreement', 'standing'],
        [['rb-2', 'rb-3'], 'proposal-agreement', 'standing'],
        [['nak-2'], 'request-rejection', 'standing'],
        [['cache-2'], 'proposal-agreement', 'superseded'],
        [['cache-4'], 'revision', 'standing'],
        [['ru-2'], 'proposal-agreement', 'standing'],
        [['de-2'], 'proposal-agreement', 'standing'],
        [['fr-2'], 'request-rejection', 'standing'],
      ]),
    );
    expect(all.count).toBe(8);
    expect(JSON.stringify(all)).not.toContain('su-');
  });

  it('quotes only what the messages say (checked against show)', () => {
    for (const d of decisions().decisions)
      for (const e of d.evidence) {
        const shown = runCli(['show', e.messageId, '--db', db, '--json']);
        expect((JSON.parse(shown.stdout) as { authored: string }).authored).toContain(e.quote);
      }
  });

  it('filters by words, thread, and date, and prints text', () => {
    const postgres = decisions('--q', 'postgresql 16');
    expect(postgres.decisions.map((d) => d.evidence.at(-1)?.messageId)).toEqual(['db-5@orbit-labs.example']);
    const thread = decisions('--thread', 'cache-1@orbit-labs.example');
    expect(thread.decisions.map((d) => d.status)).toEqual(['standing', 'superseded']);
    const march12 = decisions('--after', '2024-03-12', '--before', '2024-03-13');
    expect(march12.decisions.map((d) => d.evidence.at(-1)?.messageId).sort()).toEqual([
      'de-2@orbit-labs.example',
      'ru-2@orbit-labs.example',
    ]);
    const first = decisions('--limit', '5');
    expect(first.count).toBe(5);
    const rest = decisions('--limit', '5', '--page-token', first.nextPageToken ?? '');
    expect([rest.count, rest.nextPageToken]).toEqual([3, null]);
    expect([...first.decisions, ...rest.decisions]).toEqual(decisions().decisions);
    const text = runCli(['decisions', '--db', db, '--q', 'NAK']);
    expect(text.stdout).toContain('request-rejection');
    expect(text.stdout).toContain('"NAK. This is uapi');
    const bad = runCli(['decisions', '--db', db, '--after', 'yesterday', '--json']);
    expect(bad.status).toBe(2);
  });

  it('is checked by check and rebuilt by reindex', () => {
    const check = () => runCli(['check', '--db', db, '--json']);
    expect(check().status).toBe(0);
    const connection = new Database(db);
    connection
      .prepare("UPDATE decisions SET statement = 'Nothing was decided.' WHERE evidence LIKE '%db-5@%'")
      .run();
    connection.close();
    const altered = check();
    expect(altered.status).toBe(6);
    expect((JSON.parse(altered.stdout) as { problems: string[] }).problems.join('\n')).toMatch(
      /decisions: rows that differ from the record they were derived as: 1/,
    );
    const reindex = runCli(['reindex', '--db', db, '--json']);
    expect(reindex.status, reindex.stderr).toBe(0);
    expect(JSON.parse(reindex.stdout)).toMatchObject({ decisions: { decisions: 8 } });
    expect(check().status).toBe(0);
    expect(decisions('--q', 'postgresql').decisions[0]?.statement).not.toBe('Nothing was decided.');
  });
});

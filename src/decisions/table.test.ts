// The decisions table kept in step with the store, on real archives built by ingesting
// test/fixtures/decisions (and a thread written here that a late message merges): derived by
// ingest, a deleted agreement taking its decision with it in the same run, a merge, the
// rebuild keeping what did not change, and check catching an altered or missing row.

import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/temp.js';
import { Mailsift } from '../engine.js';
import { freshDecisions } from './derive.js';
import { checkDecisions, findDecisions, rebuildDecisions } from './index.js';
import { recordHash } from './table.js';

const FIXTURES = join(import.meta.dirname, '../../test/fixtures/decisions');

let folder: string;
let engine: Mailsift;

beforeEach(async () => {
  const root = tempDir('mailsift-decision-table-');
  folder = join(root, 'mail');
  cpSync(FIXTURES, folder, { recursive: true });
  engine = Mailsift.open(join(root, 'archive.db'));
  await engine.ingest([folder], { inbox: 'team', workers: 0 });
  return () => engine.close();
});

interface Row {
  id: number;
  thread_id: string;
  statement: string;
  evidence: string;
  phrased: string | null;
}

/** The table as stored, read without the sync every listing runs first. */
const rows = (): Row[] =>
  engine.archive.db
    .prepare('SELECT id, thread_id, statement, evidence, phrased FROM decisions ORDER BY id')
    .all() as Row[];
const dirtyThreads = (): number =>
  engine.archive.db.prepare('SELECT count(*) FROM decision_dirty_threads').pluck().get() as number;
const settlers = (row: Row): string[] =>
  (JSON.parse(row.evidence) as Array<{ messageId: string; role: string }>)
    .filter((e) => e.role === 'agreement')
    .map((e) => e.messageId.split('@')[0] as string);

/** What a fresh extraction of every stored thread finds, as record hashes per thread. */
function freshHashes(): Map<string, string[]> {
  const db = engine.archive.db;
  const threads = db.prepare('SELECT DISTINCT thread_id FROM messages').pluck().all() as string[];
  const inbox = db.prepare("SELECT id, name FROM inboxes WHERE name = 'team'").get() as {
    id: number;
    name: string;
  };
  return new Map(
    threads.map((t) => [t, freshDecisions(db, inbox, t).decisions.map(recordHash)] as [string, string[]]),
  );
}
function storedHashes(): Map<string, string[]> {
  const stored = new Map<string, string[]>();
  for (const { thread_id, hash } of engine.archive.db
    .prepare('SELECT thread_id, hash FROM decisions ORDER BY thread_id, ordinal')
    .all() as Array<{ thread_id: string; hash: string }>)
    stored.set(thread_id, [...(stored.get(thread_id) ?? []), hash]);
  for (const [thread, hashes] of freshHashes()) if (hashes.length === 0) stored.set(thread, []);
  return stored;
}

describe('the decisions table', () => {
  it('is derived by the ingest that stores the mail, as a fresh extraction finds it', () => {
    expect(dirtyThreads()).toBe(0);
    expect(rows().map(settlers)).toEqual(
      expect.arrayContaining([['db-5'], ['nak-2'], ['cache-2'], ['cache-4'], ['rb-2', 'rb-3']]),
    );
    expect(rows()).toHaveLength(8);
    expect(storedHashes()).toEqual(freshHashes());
    expect(checkDecisions(engine.archive.db, { deep: true })).toEqual({ ok: true, problems: [] });
  });

  it('loses a decision whose agreement was deleted in the run that swept the message', async () => {
    const before = rows().find((r) => settlers(r).includes('db-5'));
    expect(before).toBeDefined();
    rmSync(join(folder, 'postgres', '05.eml'));
    const report = await engine.ingest([folder], { inbox: 'team', workers: 0 });
    expect(report.deleted).toBe(1);
    expect(dirtyThreads()).toBe(0);
    expect(rows().some((r) => r.evidence.includes('db-5@'))).toBe(false);
    expect(rows().map((r) => r.id)).not.toContain(before?.id);
    // The thread is derived again from what is left: the table is what a fresh extraction says.
    expect(storedHashes()).toEqual(freshHashes());
    // Untouched threads keep their rows (ids) through the re-ingest.
    expect(rows().filter((r) => settlers(r).includes('nak-2'))).toHaveLength(1);
  });

  it('moves both threads’ decisions into the thread a late message merges them into', async () => {
    const write = (id: number, from: string, replyTo: number | null, body: string): void =>
      writeFileSync(
        join(folder, `late-${id}.eml`),
        [
          `From: ${from}`,
          'To: team@orbit-labs.example',
          'Subject: Importer release',
          `Date: Tue, 05 Mar 2024 ${String(9 + id).padStart(2, '0')}:00:00 +0100`,
          `Message-ID: <imp-${id}@orbit-labs.example>`,
          ...(replyTo === null
            ? []
            : [
                `In-Reply-To: <imp-${replyTo}@orbit-labs.example>`,
                `References: <imp-${replyTo}@orbit-labs.example>`,
              ]),
          'Content-Type: text/plain; charset=utf-8',
          '',
          body,
          '',
        ].join('\r\n'),
      );
    const alice = 'Alice Moreau <alice@orbit-labs.example>';
    const bruno = 'Bruno Keller <bruno@orbit-labs.example>';
    write(1, alice, null, 'Hi all,\n\nI propose we ship the new importer on Friday.');
    write(2, bruno, 1, 'Agreed.');
    // These answer imp-3, which is not stored yet: they make a thread of their own.
    write(4, bruno, 3, 'I propose we also drop the CSV export in the same release.');
    write(5, alice, 4, 'Agreed.');
    await engine.ingest([folder], { inbox: 'team', workers: 0 });
    const threadOf = (id: number) => engine.getMessage(`imp-${id}@orbit-labs.example`).threadId;
    const before = [threadOf(1), threadOf(4)];
    expect(before[0]).not.toBe(before[1]);
    const decided = () =>
      rows()
        .filter((r) => r.evidence.includes('imp-'))
        .map((r) => [r.thread_id, settlers(r)]);
    expect(decided().sort()).toEqual(
      [
        [before[0], ['imp-2']],
        [before[1], ['imp-5']],
      ].sort(),
    );

    write(3, alice, 1, 'And the old importer stays as a fallback for a month.');
    await engine.ingest([folder], { inbox: 'team', workers: 0 });
    const merged = threadOf(1);
    expect(threadOf(4)).toBe(merged);
    expect(dirtyThreads()).toBe(0);
    expect(decided().sort()).toEqual(
      [
        [merged, ['imp-2']],
        [merged, ['imp-5']],
      ].sort(),
    );
    expect(storedHashes()).toEqual(freshHashes());
  });

  it('is rebuilt by reindex, keeping the id and phrasing of what did not change', () => {
    const db = engine.archive.db;
    const [kept, altered] = rows();
    db.prepare("UPDATE decisions SET phrased = 'The team chose PostgreSQL.' WHERE id = ?").run(kept?.id);
    db.prepare("UPDATE decisions SET statement = 'We decided nothing.' WHERE id = ?").run(altered?.id);
    db.prepare('DELETE FROM decisions WHERE id = ?').run(rows()[2]?.id);
    const rebuilt = rebuildDecisions(db);
    expect(rebuilt.decisions).toBe(8);
    expect(storedHashes()).toEqual(freshHashes());
    expect(rows().find((r) => r.id === kept?.id)?.phrased).toBe('The team chose PostgreSQL.');
    expect(rows().some((r) => r.statement === 'We decided nothing.')).toBe(false);
    expect(findDecisions(db, { inbox: 'team' }).decisions.map((d) => d.method)).toContain('llm');
  });

  it('fails check for an altered row, and deep check for a missing one', () => {
    const db = engine.archive.db;
    const [altered, missing] = rows();
    db.prepare("UPDATE decisions SET statement = 'We decided nothing.' WHERE id = ?").run(altered?.id);
    const report = checkDecisions(db);
    expect(report.ok).toBe(false);
    expect(report.problems.join('\n')).toMatch(
      new RegExp(`rows that differ from the record they were derived as: 1 \\(${altered?.id}\\)`),
    );
    rebuildDecisions(db);
    db.prepare('DELETE FROM decisions WHERE id = ?').run(missing?.id);
    expect(checkDecisions(db).ok).toBe(true);
    const deep = checkDecisions(db, { deep: true });
    expect(deep.ok).toBe(false);
    expect(deep.problems.join('\n')).toContain(`team/${missing?.thread_id}`);
  });
});

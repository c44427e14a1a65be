// SIGKILL in the middle of an ingest, then run it again: the archive must end up
// exactly as if the first run had never been interrupted — nothing lost, nothing twice.

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { generateCorpus, writeMaildir } from '../../src/corpus/index.js';
import { tempDir } from '../temp.js';
import { runCli, startCli } from './cli.js';

const MESSAGES = 4000;

function storedCount(db: string): number {
  try {
    const connection = new Database(db, { readonly: true, fileMustExist: true });
    try {
      return (connection.prepare('SELECT count(*) AS n FROM messages').get() as { n: number }).n;
    } finally {
      connection.close();
    }
  } catch {
    return 0;
  }
}

function snapshot(db: string): { messages: string[]; locations: number; threads: number } {
  const connection = new Database(db, { readonly: true });
  try {
    return {
      messages: connection
        .prepare('SELECT message_id FROM messages ORDER BY message_id')
        .pluck()
        .all() as string[],
      locations: connection.prepare('SELECT count(*) FROM locations').pluck().get() as number,
      threads: connection.prepare('SELECT count(*) FROM threads').pluck().get() as number,
    };
  } finally {
    connection.close();
  }
}

describe('an ingest killed with SIGKILL', () => {
  it('completes on the next run with no duplicates and nothing lost', async () => {
    const work = tempDir('mailsift-kill-');
    const maildir = join(work, 'Maildir');
    await writeMaildir(maildir, generateCorpus({ seed: 7, messages: MESSAGES }));
    const files = ['cur', 'new']
      .flatMap((sub) => {
        try {
          return readdirSync(join(maildir, sub));
        } catch {
          return [];
        }
      })
      .concat(
        readdirSync(maildir)
          .filter((name) => name.startsWith('.'))
          .flatMap((folder) =>
            ['cur', 'new'].flatMap((sub) => {
              try {
                return readdirSync(join(maildir, folder, sub));
              } catch {
                return [];
              }
            }),
          ),
      );

    const killed = join(work, 'killed.db');
    const child = startCli(['ingest', maildir, '--db', killed, '--batch-size', '200']);
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    // Kill as soon as some batches are durable, well before the end.
    while (storedCount(killed) === 0) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    const partial = storedCount(killed);
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(MESSAGES * 0.95);

    const rerun = runCli(['ingest', maildir, '--db', killed, '--json']);
    expect(rerun.status).toBe(0);
    const reference = join(work, 'reference.db');
    expect(runCli(['ingest', maildir, '--db', reference]).status).toBe(0);

    const after = snapshot(killed);
    expect(after).toEqual(snapshot(reference));
    expect(new Set(after.messages).size).toBe(after.messages.length);
    expect(after.locations).toBe(files.length);
    // The keyword index (FTS5 rows and postings segments) committed with each batch: it
    // agrees with the store, and ranks as the uninterrupted run does.
    const check = runCli(['check', '--db', killed, '--json']);
    expect(check.status, check.stdout + check.stderr).toBe(0);
    const search = (db: string) =>
      (
        JSON.parse(runCli(['search', 'meeting schedule', '--db', db, '--json']).stdout) as {
          messages: Array<{ messageId: string; score: number }>;
        }
      ).messages.map((m) => [m.messageId, m.score]);
    expect(search(killed).length).toBeGreaterThan(0);
    expect(search(killed)).toEqual(search(reference));
  }, 180_000);
});

// npm run bench:statements — what the ingest thread asks of SQLite per message: ingests the
// bench's generated Maildir (20,000 messages by default; --messages N or BENCH_MESSAGES)
// cold into a fresh archive through the engine, counting and timing every statement run on
// the ingest thread, and prints statements per message and the costliest statements.
// A statement's time includes what SQLite does on its behalf: its triggers, the statement
// journal its triggers or upsert make SQLite keep (every existing page it changes, copied),
// and cache spills that happen to fall on it.

import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Mailsift } from '../src/engine.js';
import { benchMaildir, cpuReference, numberArg, removeArchive } from './measure.js';

const messages = numberArg('messages', 'BENCH_MESSAGES', 20_000);
const root = join(process.cwd(), '.bench');
const db = join(root, `statements-${messages}.db`);
const SHOWN = 15;

interface Tally {
  runs: number;
  ns: bigint;
}

const tallies = new Map<string, Tally>();

/** Wraps the statement methods that execute, so every statement of this process is tallied. */
function instrumentStatements(): void {
  const probe = new Database(':memory:');
  const prototype = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<string, unknown>;
  probe.close();
  const keys = new WeakMap<object, string>();
  const keyOf = (statement: { source: string }): string => {
    let key = keys.get(statement);
    if (key === undefined) {
      key = statement.source.replace(/\s+/g, ' ').trim();
      keys.set(statement, key);
    }
    return key;
  };
  for (const method of ['run', 'get', 'all', 'iterate'] as const) {
    const original = prototype[method] as (...args: unknown[]) => unknown;
    prototype[method] = function (this: { source: string }, ...args: unknown[]): unknown {
      const key = keyOf(this);
      const started = process.hrtime.bigint();
      try {
        return original.apply(this, args);
      } finally {
        const tally = tallies.get(key) ?? { runs: 0, ns: 0n };
        tally.runs++;
        tally.ns += process.hrtime.bigint() - started;
        tallies.set(key, tally);
      }
    };
  }
}

async function main(): Promise<void> {
  const corpus = await benchMaildir(root, messages);
  removeArchive(db);
  instrumentStatements();
  const engine = Mailsift.open(db);
  const started = Date.now();
  let stored = 0;
  try {
    const report = await engine.ingest([corpus], { inbox: 'bench', extractAttachments: false });
    stored = report.added + report.duplicates + report.variants;
  } finally {
    engine.close();
  }
  const elapsedMs = Date.now() - started;
  const rows = [...tallies].sort((a, b) => Number(b[1].ns - a[1].ns));
  const totalRuns = rows.reduce((sum, [, t]) => sum + t.runs, 0);
  const totalNs = rows.reduce((sum, [, t]) => sum + t.ns, 0n);
  const perMessage = (ns: bigint): string => (Number(ns) / 1000 / stored).toFixed(1);
  const lines = [
    `mailsift ingest statements — ${stored.toLocaleString('en')} messages stored in ${(elapsedMs / 1000).toFixed(1)} s`,
    `statements a message: ${(totalRuns / stored).toFixed(1)} · in SQL: ${perMessage(totalNs)} µs a message ` +
      `(${((Number(totalNs) / 1e6 / elapsedMs) * 100).toFixed(0)}% of the run)`,
    `runs/msg  µs/msg  µs/run  statement`,
    ...rows
      .slice(0, SHOWN)
      .map(
        ([sql, t]) =>
          `${(t.runs / stored).toFixed(2).padStart(8)} ${perMessage(t.ns).padStart(7)} ` +
          `${(Number(t.ns) / 1000 / t.runs).toFixed(1).padStart(7)}  ${sql.slice(0, 100)}`,
      ),
    `cpu reference: ${cpuReference()}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

await main();

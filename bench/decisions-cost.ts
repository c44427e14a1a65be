// npm run bench:decisions-cost — what the decisions table costs an ingest: the benches'
// synthetic Maildir (--messages N, default 100,000; generated once under .bench/) ingested into
// a fresh archive as Mailsift.ingest does it, the pipeline and the derivation of the threads it
// changed (at its end) timed apart, and their ratio printed with the threads derived and read.

import { join } from 'node:path';
import { syncDecisions } from '../src/decisions/derive.js';
import { Mailsift } from '../src/engine.js';
import { ingest } from '../src/pipeline/ingest.js';
import { sql } from '../src/store/index.js';
import { benchMaildir, loadAverages, numberArg, removeArchive } from './measure.js';

const messages = numberArg('messages', 'BENCH_MESSAGES', 100_000);
const root = join(process.cwd(), '.bench');
const dbPath = join(root, `decisions-cost-${messages}.db`);

const maildir = await benchMaildir(root, messages);
removeArchive(dbPath);
const engine = Mailsift.open(dbPath);
try {
  process.stdout.write(`ingesting ${messages.toLocaleString('en')} messages (${loadAverages()}) …\n`);
  const report = await ingest(engine.archive, [maildir], { inbox: 'bench' });
  const db = engine.archive.db;
  const dirty = sql(db, 'SELECT count(*) FROM decision_dirty_threads').pluck().get() as number;
  const read = sql(
    db,
    `SELECT count(*) FROM decision_dirty_threads d
     JOIN threads t ON t.inbox_id = d.inbox_id AND t.id = d.thread_id WHERE t.message_count > 1`,
  )
    .pluck()
    .get() as number;
  const started = performance.now();
  const derived = syncDecisions(db);
  const deriveMs = performance.now() - started;
  const decisions = sql(db, 'SELECT count(*) FROM decisions').pluck().get() as number;
  const ingestMs = report.elapsedMs;
  process.stdout.write(
    [
      `ingest (pipeline)   ${(ingestMs / 1000).toFixed(1)} s, ${((ingestMs * 1000) / report.added).toFixed(0)} µs a message`,
      `derivation          ${(deriveMs / 1000).toFixed(1)} s, ${derived.toLocaleString('en')} of ${dirty.toLocaleString('en')} dirty threads (${read.toLocaleString('en')} of more than one message read), ${decisions.toLocaleString('en')} decisions`,
      `cost                ${((deriveMs / ingestMs) * 100).toFixed(1)}% of the ingest (target <= 10%)`,
      `load                ${loadAverages()}`,
      '',
    ].join('\n'),
  );
} finally {
  engine.close();
  removeArchive(dbPath);
}

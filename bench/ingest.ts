// npm run bench:ingest — generates a realistic synthetic Maildir (100,000 messages by
// default; --messages N or BENCH_MESSAGES), ingests it cold into a fresh archive, then
// re-ingests it unchanged, and prints messages/s, MB/s, peak RSS and size ratios.
// Cold ingest is measured twice: as `mailsift ingest` runs it (keyword and RAG indexes kept
// in step), and through the foundation's stages alone (parse, clean, dedupe, thread,
// store: an archive opened without index hooks, as the library's openArchive gives it),
// the two measures the ingest and search issues set their targets on.

import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Mailsift } from '../src/engine.js';
import { ingest } from '../src/pipeline/ingest.js';
import { openArchive } from '../src/store/index.js';
import {
  benchMaildir,
  benchMaildirPath,
  cpuReference,
  directorySize,
  loadAverages,
  mb,
  numberArg,
  removeArchive,
  replyToParent,
  runChild,
} from './measure.js';

const script = fileURLToPath(import.meta.url);
const messages = numberArg('messages', 'BENCH_MESSAGES', 100_000);
const root = join(process.cwd(), '.bench');
const corpus = benchMaildirPath(root, messages);
const db = join(root, `ingest-${messages}.db`);
const foundationDb = join(root, `ingest-${messages}-foundation.db`);

interface IngestResult {
  scanned: number;
  added: number;
  unchanged: number;
  duplicates: number;
  failed: number;
  bytes: number;
  elapsedMs: number;
  /** CPU time of the whole process (every thread) until the messages were stored. */
  cpuMs: number;
}

/** `foundation`: into an archive without index hooks; `indexed`: through the engine. */
type Stages = 'foundation' | 'indexed';

async function child(stages: Stages): Promise<void> {
  let cpuMs = 0;
  // Taken when the source is done, before the attachment extraction that follows.
  const onProgress = ({ done }: { done: boolean }): void => {
    if (!done) return;
    const { user, system } = process.cpuUsage();
    cpuMs = (user + system) / 1000;
  };
  const archive = stages === 'foundation' ? openArchive(foundationDb) : Mailsift.open(db).archive;
  try {
    const report = await ingest(archive, [corpus], { inbox: 'bench', onProgress });
    replyToParent({ ...report, cpuMs });
  } finally {
    archive.close();
  }
}

function coldLine(label: string, run: IngestResult): string {
  const seconds = run.elapsedMs / 1000;
  return (
    `${label}${run.elapsedMs} ms · ${Math.round(run.scanned / seconds).toLocaleString('en')} msg/s · ` +
    `${(run.bytes / 1048576 / seconds).toFixed(1)} MB/s · ${(run.cpuMs / run.scanned).toFixed(2)} ms CPU/msg`
  );
}

async function main(): Promise<void> {
  await benchMaildir(root, messages);
  const rawBytes = directorySize(corpus);
  removeArchive(db);
  removeArchive(foundationDb);

  const args = ['--messages', String(messages)];
  const foundation = await runChild<IngestResult>(script, 'foundation', args);
  const foundationBytes = directorySize(foundationDb);
  removeArchive(foundationDb);
  const cold = await runChild<IngestResult>(script, 'indexed', args);
  const dbBytes = directorySize(db);
  const warm = await runChild<IngestResult>(script, 'indexed', args);

  const lines = [
    `mailsift ingest benchmark — ${messages.toLocaleString('en')} generated messages, Maildir ${mb(rawBytes)}`,
    `(added ${cold.added}, duplicates ${cold.duplicates}, failed ${cold.failed}; CPU: all threads, until stored)`,
    coldLine('cold, indexed:      ', cold),
    `  peak RSS ${mb(cold.maxRssBytes)} · database ${mb(dbBytes)} = ${((dbBytes / rawBytes) * 100).toFixed(0)}% of raw`,
    coldLine('cold, foundation:   ', foundation),
    `  peak RSS ${mb(foundation.maxRssBytes)} · database ${mb(foundationBytes)} = ${((foundationBytes / rawBytes) * 100).toFixed(0)}% of raw` +
      ' (parse, clean, dedupe, thread, store; no index hooks)',
    `unchanged re-ingest: ${(warm.elapsedMs / 1000).toFixed(2)} s (${warm.unchanged} unchanged, peak RSS ${mb(warm.maxRssBytes)})`,
    `load at the end:    ${loadAverages()}`,
    `cpu reference:      ${cpuReference()} (this VM's speed: compare sessions by it)`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

const childAt = process.argv.indexOf('--child');
if (childAt >= 0) await child(process.argv[childAt + 1] === 'foundation' ? 'foundation' : 'indexed');
else await main();

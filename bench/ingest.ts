// npm run bench:ingest — generates a realistic synthetic Maildir (100,000 messages by
// default; --messages N or BENCH_MESSAGES), ingests it cold into a fresh archive, then
// re-ingests it unchanged, and prints messages/s, MB/s, peak RSS and size ratios.

import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateCorpus, writeMaildir } from '../src/corpus/index.js';
import { Mailsift } from '../src/engine.js';
import { directorySize, loadAverages, mb, numberArg, replyToParent, runChild } from './measure.js';

const script = fileURLToPath(import.meta.url);
const messages = numberArg('messages', 'BENCH_MESSAGES', 100_000);
const root = join(process.cwd(), '.bench');
const corpus = join(root, `maildir-${messages}`);
const db = join(root, `ingest-${messages}.db`);

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

async function child(): Promise<void> {
  const engine = Mailsift.open(db);
  let cpuMs = 0;
  // Taken when the source is done, before the attachment extraction that follows.
  const onProgress = ({ done }: { done: boolean }): void => {
    if (!done) return;
    const { user, system } = process.cpuUsage();
    cpuMs = (user + system) / 1000;
  };
  const report = await engine.ingest([corpus], { inbox: 'bench', onProgress });
  engine.close();
  replyToParent({ ...report, cpuMs });
}

async function main(): Promise<void> {
  mkdirSync(root, { recursive: true });
  if (!existsSync(join(corpus, 'cur')) && !existsSync(join(corpus, 'new'))) {
    const started = Date.now();
    process.stdout.write(`generating ${messages.toLocaleString('en')} messages into ${corpus} …\n`);
    await writeMaildir(corpus, generateCorpus({ seed: 42, messages }));
    process.stdout.write(`  generated in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }
  const rawBytes = directorySize(corpus);
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${db}${suffix}`, { force: true });

  const cold = await runChild<IngestResult>(script, 'ingest', ['--messages', String(messages)]);
  const dbBytes = directorySize(db);
  const warm = await runChild<IngestResult>(script, 'ingest', ['--messages', String(messages)]);

  const seconds = cold.elapsedMs / 1000;
  const lines = [
    `mailsift ingest benchmark — ${messages.toLocaleString('en')} generated messages, Maildir ${mb(rawBytes)}`,
    `cold ingest:        ${cold.elapsedMs} ms · ${Math.round(cold.scanned / seconds).toLocaleString('en')} msg/s · ` +
      `${(cold.bytes / 1048576 / seconds).toFixed(1)} MB/s (added ${cold.added}, duplicates ${cold.duplicates}, failed ${cold.failed})`,
    `CPU (cold):         ${(cold.cpuMs / cold.scanned).toFixed(2)} ms/msg (all threads, until stored)`,
    `peak RSS (cold):    ${mb(cold.maxRssBytes)}`,
    `database size:      ${mb(dbBytes)} = ${((dbBytes / rawBytes) * 100).toFixed(0)}% of raw`,
    `unchanged re-ingest: ${(warm.elapsedMs / 1000).toFixed(2)} s (${warm.unchanged} unchanged, peak RSS ${mb(warm.maxRssBytes)})`,
    `load at the end:    ${loadAverages()}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

if (process.argv.includes('--child')) await child();
else await main();

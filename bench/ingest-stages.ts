// npm run bench:stages — where an ingest's CPU goes, a message at a time, against what the
// search issue's 1,500 messages/s on this 2-core machine allows (1,333 µs of CPU a message,
// both cores busy). Over the bench's generated Maildir (10,000 messages by default;
// --messages N or BENCH_MESSAGES): every stage a message passes before it reaches SQLite
// (parse, clean, keyword analysis, compression, hashes), timed on one thread over the
// messages held in memory, median of three rounds; then the Maildir ingested cold into a
// fresh archive with preparation on the ingest thread (workers: 0), whose process CPU less
// the stages above is what reading, storing and indexing cost.

import { join } from 'node:path';
import { cleanMessage } from '../src/clean/index.js';
import { Mailsift } from '../src/engine.js';
import { precomputeKeywordDocument } from '../src/index/index.js';
import { parseMessage } from '../src/parse/index.js';
import { deflateRaw, deflateText } from '../src/pipeline/compress.js';
import { contentHash, sha256 } from '../src/pipeline/prepare.js';
import { openSource } from '../src/source/index.js';
import { benchMaildir, cpuReference, numberArg, percentile, removeArchive } from './measure.js';

const messages = numberArg('messages', 'BENCH_MESSAGES', 10_000);
const root = join(process.cwd(), '.bench');
const ROUNDS = 3;
/** Two cores' CPU a second over 1,500 messages a second. */
const BUDGET_US = (2 * 1e6) / 1500;

type Stage =
  | 'raw sha256'
  | 'parse'
  | 'clean'
  | 'keyword analysis'
  | 'content hash'
  | 'deflate raw'
  | 'deflate body';

interface Raw {
  readonly bytes: Buffer;
  readonly fileTime: Date | null;
}

async function loadMessages(maildir: string): Promise<Raw[]> {
  const source = await openSource(maildir);
  const loaded: Raw[] = [];
  for await (const entry of source.scan())
    loaded.push({ bytes: await entry.read(), fileTime: entry.fileTime });
  return loaded;
}

/**
 * One round over every message: the CPU of each stage, in the order prepareMessage runs them.
 * process.cpuUsage counts the whole process, so V8's collector and compiler threads are
 * charged to the stage whose work they do.
 */
async function timeStages(raws: readonly Raw[]): Promise<Map<Stage, number>> {
  const spent = new Map<Stage, number>();
  let before = process.cpuUsage();
  /** Charges `stage` with the CPU used since the last charge. */
  const charge = (stage: Stage): void => {
    const used = process.cpuUsage(before);
    spent.set(stage, (spent.get(stage) ?? 0) + used.user + used.system);
    before = process.cpuUsage();
  };
  for (const { bytes, fileTime } of raws) {
    before = process.cpuUsage();
    sha256(bytes);
    charge('raw sha256');
    // Async only for mailparser's streams; nothing else is scheduled meanwhile.
    const parsed = await parseMessage(bytes, { fileTime });
    charge('parse');
    const cleaned = cleanMessage({ text: parsed.text, html: parsed.html });
    charge('clean');
    const attachments = parsed.attachments.map(({ content: _content, ...meta }) => ({
      ...meta,
      extraction: null,
    }));
    precomputeKeywordDocument({ ...parsed, cleaned, attachments });
    charge('keyword analysis');
    contentHash(parsed);
    charge('content hash');
    deflateRaw(bytes);
    charge('deflate raw');
    deflateText(JSON.stringify(cleaned));
    charge('deflate body');
  }
  return spent;
}

/** Process CPU microseconds of a cold ingest of `maildir` with preparation inline. */
async function inlineIngestCpu(maildir: string): Promise<{ cpu: number; added: number }> {
  const db = join(root, `stages-${messages}.db`);
  removeArchive(db);
  const engine = Mailsift.open(db);
  try {
    const before = process.cpuUsage();
    const report = await engine.ingest([maildir], { inbox: 'bench', workers: 0, extractAttachments: false });
    const used = process.cpuUsage(before);
    return { cpu: used.user + used.system, added: report.added };
  } finally {
    engine.close();
  }
}

const median = (values: number[]): number =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
const us = (value: number): string => value.toFixed(0).padStart(6);

const maildir = await benchMaildir(root, messages);
const raws = await loadMessages(maildir);
const rounds: Map<Stage, number>[] = [];
for (let round = 0; round < ROUNDS; round++) rounds.push(await timeStages(raws));
const stages = [...(rounds[0]?.keys() ?? [])];
const perMessage = new Map(
  stages.map((stage) => [stage, median(rounds.map((r) => r.get(stage) ?? 0)) / raws.length]),
);
const prepared = [...perMessage.values()].reduce((sum, value) => sum + value, 0);
const ingest = await inlineIngestCpu(maildir);
const total = ingest.cpu / ingest.added;

console.log(`mailsift ingest stages — ${raws.length.toLocaleString('en-US')} messages, CPU µs a message`);
for (const stage of stages) console.log(`${us(perMessage.get(stage) ?? 0)}  ${stage}`);
console.log(`${us(prepared)}  = before SQLite (median of ${ROUNDS} rounds, one thread)`);
console.log(`${us(total - prepared)}  reading, storing, threading, indexing (the rest of the ingest below)`);
console.log(
  `${us(total)}  = a cold ingest, prepared on the ingest thread (${ingest.added.toLocaleString('en-US')} added)`,
);
console.log(
  `budget at 1,500 msg/s on 2 cores: ${us(BUDGET_US).trim()} µs a message; the stages before SQLite alone take ${((100 * prepared) / BUDGET_US).toFixed(0)}% of it, the whole ingest ${((100 * total) / BUDGET_US).toFixed(0)}%`,
);
console.log(`cpu reference: ${cpuReference()}`);

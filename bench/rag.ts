// npm run bench:rag — retrieval quality and cost on a realistic archive (2,000 messages by
// default; --messages N or BENCH_MESSAGES): recall@5/@10 and MRR per question category for
// keyword-only, vector-only and hybrid retrieval with the in-process ONNX embedder, embedding
// throughput, retrieval p50/p95 latency and peak RSS. --model NAME picks the fetched model
// (default the embedder's), --quantized its int8 export; --keyword-only runs without one;
// --misses lists what each setup missed, where each retrieval stage ranked it and (vector and
// hybrid) where the model alone ranks the answer among all the archive's chunks; --fresh
// rebuilds the cached archive; --latency-fill gives an archive too large to embed here real
// vectors for a sample and the questions' threads and stand-ins for the rest (see
// rag-fill.ts), so vector and hybrid latency can be measured;
// --detail-scan archive|threads overrides how the vector leg finds details (default threads);
// --chunk-tokens N [--chunk-overlap N] chunks at another size (embedder.chunkTokens), counted by
// the model's tokenizer as in production (the model then reads up to N tokens of a chunk);
// --refine has an LLM refine each question first (filters and rephrasings, refine.ts): the
// configured one (mailsift.config.json, MAILSIFT_LLM_*), else the local default model.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { Mailsift } from '../src/engine.js';
import { ask } from '../src/rag/answer.js';
import type { ChatModel } from '../src/rag/chat.js';
import { CHUNK_DEFAULTS } from '../src/rag/chunk.js';
import { chunkOptionsFor, recordedChunking, withChunkSize } from '../src/rag/chunking.js';
import { createChatModel, loadProviderConfig } from '../src/rag/config.js';
import { embedPending } from '../src/rag/embed.js';
import type { Embedder } from '../src/rag/embedder.js';
import {
  DEFAULT_MODEL,
  defaultModelDir,
  FETCHABLE_MODELS,
  type FetchableModel,
  onnxEmbedder,
} from '../src/rag/onnx-embedder.js';
import { type RetrievalMode, type RetrievalTrace, retrieve } from '../src/rag/retrieve.js';
import { syncChunks } from '../src/rag/sync.js';
import type { DetailScan } from '../src/rag/vector-leg.js';
import { distances, vectorModel } from '../src/rag/vectors.js';
import type { Db } from '../src/store/index.js';
import { mb, numberArg, percentile, readyIndex, removeArchive } from './measure.js';
import { QUESTION_NOW, storyRecords, storyThreads, writeRagMaildir } from './rag-corpus.js';
import {
  type FillCounts,
  fillEmbedder,
  sampleTexts,
  type Throughput,
  threadTexts,
  throughput,
} from './rag-fill.js';
import {
  type BenchQuestion,
  CATEGORIES,
  loadQuestions,
  type Outcome,
  paraphraseLeaks,
  pct,
  score,
} from './rag-score.js';

const messages = numberArg('messages', 'BENCH_MESSAGES', 2000);
/** Embedding longer than this (estimated from the first batches) is skipped, with the estimate printed. */
const maxEmbedMinutes = numberArg('max-embed-minutes', 'BENCH_MAX_EMBED_MINUTES', 20);
const flag = (name: string): boolean => process.argv.includes(`--${name}`);
const model = ((): FetchableModel => {
  const at = process.argv.indexOf('--model');
  const name = at >= 0 ? process.argv[at + 1] : DEFAULT_MODEL;
  const known = FETCHABLE_MODELS.find((m) => m === name);
  if (!known) throw new Error(`--model must be one of ${FETCHABLE_MODELS.join(', ')}, got ${name}`);
  return known;
})();
const chunkTokens = numberArg('chunk-tokens', 'BENCH_CHUNK_TOKENS', CHUNK_DEFAULTS.targetTokens);
const chunkOverlapTokens = ((): number | undefined => {
  const at = process.argv.indexOf('--chunk-overlap');
  return at < 0 ? undefined : Number(process.argv[at + 1]);
})();
const detailScan = ((): { detailScan?: DetailScan } => {
  const at = process.argv.indexOf('--detail-scan');
  if (at < 0) return {};
  const value = process.argv[at + 1];
  if (value !== 'archive' && value !== 'threads')
    throw new Error(`--detail-scan must be archive or threads, got ${value}`);
  return { detailScan: value };
})();
const INBOX = 'bench';

/**
 * The --refine LLM, its replies kept per prompt: every setup asks the same questions with the
 * same rules' filters, and a model answering at temperature 0 would only repeat itself.
 */
const refiner = ((): ChatModel | undefined => {
  if (!flag('refine')) return undefined;
  const llm = createChatModel(loadProviderConfig().llm ?? { kind: 'local' });
  const replies = new Map<string, Promise<string>>();
  return {
    id: llm.id,
    complete(messages, signal) {
      const key = JSON.stringify(messages);
      const reply = replies.get(key) ?? llm.complete(messages, signal);
      replies.set(key, reply);
      return reply;
    },
    close: async () => {
      await llm.close?.();
    },
  };
})();
const root = join(process.cwd(), '.bench');
const maildir = join(root, `rag-maildir-${messages}`);
const dbPath = join(root, `rag-${messages}.db`);
const infoPath = `${dbPath}.build.json`;
const questionsPath = resolve(import.meta.dirname, '../../bench/rag-questions.yaml');
/** Bump when the archive's generation changes in a way the story text does not show. */
const CORPUS_VERSION = 1;

interface BuildInfo {
  fingerprint: string;
  messages: number;
  stories: number;
  ingestMs: number;
  embed?: { model: string; chunks: number; ms: number };
  /** What --latency-fill stored: real vectors, stand-ins, and the model's rate on its sample. */
  fill?: FillCounts & { model: string; before: number; float: Throughput; int8: Throughput; ms: number };
}

const fingerprint = createHash('sha256')
  .update(JSON.stringify({ v: CORPUS_VERSION, messages, stories: storyThreads() }))
  .digest('hex')
  .slice(0, 16);

const say = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

async function build(): Promise<{ engine: Mailsift; info: BuildInfo }> {
  const cached = existsSync(infoPath) ? (JSON.parse(readFileSync(infoPath, 'utf8')) as BuildInfo) : null;
  if (cached && cached.fingerprint === fingerprint && existsSync(dbPath) && !flag('fresh')) {
    const engine = Mailsift.open(dbPath);
    readyIndex(engine.archive.db);
    return { engine, info: cached };
  }
  mkdirSync(root, { recursive: true });
  removeArchive(dbPath);
  rmSync(maildir, { recursive: true, force: true });
  say(`writing ${messages.toLocaleString('en')} messages into ${maildir} …`);
  const written = await writeRagMaildir(maildir, messages);
  const engine = Mailsift.open(dbPath);
  say('ingesting …');
  const report = await engine.ingest([maildir], { inbox: INBOX });
  const info: BuildInfo = {
    fingerprint,
    messages: written.messages,
    stories: written.stories,
    ingestMs: report.elapsedMs,
  };
  writeFileSync(infoPath, JSON.stringify(info));
  return { engine, info };
}

/**
 * Embeds the backlog, first a sample to estimate the whole: an archive whose embedding
 * would take longer than --max-embed-minutes is left keyword-only, with the estimate.
 */
async function embed(engine: Mailsift, embedder: Embedder, info: BuildInfo): Promise<boolean> {
  // Chunks are synced before this, so the queue is the whole backlog; vectors of another
  // model are all embedded again (embedPending requeues every chunk).
  const stale = vectorModel(engine.archive.db)?.model !== embedder.id;
  const pending = count(engine, stale ? 'rag_chunks' : 'embedding_backlog');
  if (pending === 0) return true;
  const started = performance.now();
  const first = await embedPending(engine, embedder, { max: Math.min(pending, 256) });
  if (first.error) throw new Error(`embedding failed: ${first.error}`);
  const rate = first.embedded / ((performance.now() - started) / 1000);
  const minutes = pending / rate / 60;
  say(
    `embedding ${pending.toLocaleString('en')} chunks at ~${rate.toFixed(0)} chunks/s: ~${minutes.toFixed(1)} min`,
  );
  if (minutes > maxEmbedMinutes) {
    say(`  more than --max-embed-minutes ${maxEmbedMinutes}: vector and hybrid setups skipped`);
    return false;
  }
  const rest = await embedPending(engine, embedder);
  if (rest.error) throw new Error(`embedding failed: ${rest.error}`);
  const ms = performance.now() - started;
  info.embed = { model: embedder.id, chunks: first.embedded + rest.embedded, ms };
  writeFileSync(infoPath, JSON.stringify(info));
  return true;
}

/**
 * --latency-fill: the model's throughput on a sample (float and int8), then the backlog drained
 * with real vectors for the sample and the questions' threads and stand-ins for the rest.
 */
async function fill(
  engine: Mailsift,
  embedder: Embedder,
  info: BuildInfo,
  questions: readonly BenchQuestion[],
): Promise<boolean> {
  const stale = vectorModel(engine.archive.db)?.model !== embedder.id;
  // A recorded model means the table exists: its vectors so far are the real model's.
  const before = stale ? 0 : count(engine, 'rag_vectors');
  if (count(engine, stale ? 'rag_chunks' : 'embedding_backlog') > 0) {
    const texts = sampleTexts(engine);
    const float = await throughput(embedder, texts);
    const int8 = await throughput(
      onnxEmbedder({ modelDir: defaultModelDir(process.env, model), quantized: true }),
      texts,
    );
    const answers = [
      ...storyRecords().map((r) => r.messageId),
      ...questions.flatMap((q) => q.messageIds ?? q.threadIds ?? []),
    ];
    const counts: FillCounts = { real: 0, standIn: 0 };
    const sample = new Map(texts.map((t, i) => [t, float.vectors[i] as Float32Array]));
    const started = performance.now();
    const filled = await embedPending(
      engine,
      fillEmbedder(embedder, threadTexts(engine, answers), sample, counts),
      {
        batch: 2048,
      },
    );
    if (filled.error) throw new Error(`latency fill failed: ${filled.error}`);
    const ms = performance.now() - started;
    info.fill = { model: embedder.id, before, float: float.rate, int8: int8.rate, ...counts, ms };
    writeFileSync(infoPath, JSON.stringify(info));
  }
  const f = info.fill;
  if (!f) return true;
  const rate = (name: string, t: Throughput): string =>
    `${t.chunksPerSecond.toFixed(1)} chunks/s ${name} (${t.chunks} sampled chunks, ${t.avgTokens.toFixed(0)} tokens avg)`;
  say(`embedding throughput, ${f.model}: ${rate('float', f.float)}; ${rate('int8', f.int8)}`);
  say(
    `LATENCY FILL: real ${f.model} vectors for ${(f.real + f.before).toLocaleString('en')} chunks (the sample, ` +
      `every chunk of the questions' threads${f.before ? `, ${f.before} stored before` : ''}); ` +
      `STAND-INS for ${f.standIn.toLocaleString('en')} (a sample vector + seeded noise, cosine ~0.9 to it), ` +
      `stored in ${(f.ms / 1000).toFixed(0)} s. Latency is real; vector and hybrid recall here are not the model's.`,
  );
  return true;
}

const count = (engine: Mailsift, table: string): number =>
  (engine.archive.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

interface StoredAnswer {
  /** The Message-ID as the archive stores it (domains are lowercased). */
  readonly id: string;
  readonly thread: string;
  readonly rowid: number;
  /** Its thread as retrieval keys it (inbox id:thread id). */
  readonly threadKey: string;
}

/** An expected Message-ID as the archive stores it, with its thread. */
function resolver(engine: Mailsift): (messageId: string) => StoredAnswer {
  const get = engine.archive.db.prepare(
    `SELECT message_id AS id, thread_id AS thread, id AS rowid, inbox_id || ':' || thread_id AS threadKey
     FROM messages WHERE message_id = ? COLLATE NOCASE LIMIT 1`,
  );
  return (id) => {
    const row = get.get(id) as StoredAnswer | undefined;
    if (!row) throw new Error(`expected message ${id} is not in the archive`);
    return row;
  };
}

/**
 * Where each stage ranked a question's best-placed answer: the keyword leg's messages and
 * threads, the vector leg's summaries and details, the fused threads and the messages.
 */
function stageRanks(trace: RetrievalTrace, answers: readonly StoredAnswer[]): string {
  const best = (list: ReadonlyArray<number | string>, key: (a: StoredAnswer) => number | string): string => {
    const ranks = answers.map((a) => list.indexOf(key(a))).filter((i) => i >= 0);
    return ranks.length === 0 ? '–' : String(Math.min(...ranks) + 1);
  };
  const rowid = (a: StoredAnswer) => a.rowid;
  const thread = (a: StoredAnswer) => a.threadKey;
  return (
    `keyword ${best(trace.keyword, rowid)} (thread ${best(trace.keywordThreads, thread)}); ` +
    `summary ${best(trace.summaries, thread)}; detail ${best(trace.details, rowid)}; ` +
    `fused thread ${best(trace.threads, thread)}, message ${best(trace.messages, rowid)}`
  );
}

/**
 * How near the vector model itself puts a missed answer: the rank, among every detail and
 * attachment chunk of the archive, of the answer's nearest one to the question, with its
 * similarity and the nearest chunk's. In the hundreds or thousands, the model does not see
 * the answer and no fusion or thread scan could find it; within a few dozen, the pipeline
 * lost it. Scans every vector (~0.3 s a miss at 11k chunks).
 */
function archiveRank(
  db: Db,
  embedding: Float32Array,
  answers: readonly StoredAnswer[],
  chunks: ReadonlyMap<number, ReadonlySet<number>>,
): string {
  const nearest = distances(db, embedding, [...chunks.keys()]).sort((a, b) => a.distance - b.distance);
  const at = nearest.findIndex((d) => answers.some((a) => chunks.get(d.chunkId)?.has(a.rowid)));
  if (at < 0) return 'archive-wide: the answer has no vector';
  const similarity = (i: number): string => (1 - (nearest[i]?.distance ?? 1)).toFixed(3);
  return `archive-wide: answer chunk ${at + 1} of ${nearest.length} (similarity ${similarity(at)}, nearest ${similarity(0)})`;
}

/** Every detail and attachment chunk's messages (rowids) by chunk id, for archiveRank. */
function searchableChunks(db: Db): Map<number, Set<number>> {
  const rows = db
    .prepare(
      `SELECT l.chunk_id AS id, l.message_rowid AS rowid FROM rag_chunk_messages l
       JOIN rag_chunks c ON c.id = l.chunk_id WHERE c.kind <> 'summary'`,
    )
    .all() as Array<{ id: number; rowid: number }>;
  const byChunk = new Map<number, Set<number>>();
  for (const r of rows) byChunk.set(r.id, (byChunk.get(r.id) ?? new Set()).add(r.rowid));
  return byChunk;
}

/** Questions the --refine LLM did not refine, and why. */
const refineFailures: string[] = [];

async function run(
  engine: Mailsift,
  questions: readonly BenchQuestion[],
  mode: RetrievalMode,
  embedder: Embedder | undefined,
): Promise<Outcome[]> {
  const stored = resolver(engine);
  const options = {
    inbox: INBOX,
    limit: 10,
    now: QUESTION_NOW,
    mode,
    ...detailScan,
    ...(embedder ? { embedder } : {}),
    // A local model on this CPU writes for seconds: waited for, as the bench measures its help.
    ...(refiner ? { refiner, refineTimeoutMs: 600_000 } : {}),
  };
  await retrieve(engine, 'warm-up question about the delivery schedule', options);
  const db = engine.archive.db;
  // Where the model alone ranks each missed answer (vector and hybrid setups, --misses).
  const probe =
    flag('misses') && embedder && mode !== 'keyword' ? { embedder, chunks: searchableChunks(db) } : null;
  const outcomes: Outcome[] = [];
  for (const question of questions) {
    let trace: RetrievalTrace | undefined;
    const started = performance.now();
    const result = await retrieve(engine, question.question, {
      ...options,
      ...(flag('misses') ? { trace: (t: RetrievalTrace) => (trace = t) } : {}),
    });
    const ms = performance.now() - started;
    if (result.mode !== mode) throw new Error(`${question.id}: asked for ${mode}, got ${result.mode}`);
    if (refiner && !result.refinement) refineFailures.push(`${question.id}: ${result.degraded}`);
    const ranked = question.messageIds
      ? result.messages.map((m) => m.messageId)
      : result.threads.map((t) => t.threadId);
    const answers = (question.messageIds ?? question.threadIds ?? []).map(stored);
    const wanted = new Set(answers.map((a) => (question.messageIds ? a.id : a.thread)));
    const at = ranked.findIndex((id) => wanted.has(id));
    const top = result.messages.slice(0, 3).map((m) => m.messageId);
    const rank = at < 0 ? null : at + 1;
    let stages = trace && question.messageIds ? stageRanks(trace, answers) : undefined;
    if (stages !== undefined && probe && (rank === null || rank > 5)) {
      const [embedding] = await probe.embedder.embed([question.question], 'query');
      if (embedding) stages += `; ${archiveRank(db, embedding, answers, probe.chunks)}`;
    }
    outcomes.push({ question, rank, ms, top, ...(stages === undefined ? {} : { stages }) });
  }
  return outcomes;
}

function report(mode: RetrievalMode, outcomes: readonly Outcome[]): void {
  const all = score(outcomes);
  const ms = outcomes.map((o) => o.ms).sort((a, b) => a - b);
  say(
    `${mode.padEnd(8)} all          ${pct(all.r5)} ${pct(all.r10)}  ${all.mrr.toFixed(3)}   ` +
      `(p50 ${percentile(ms, 50).toFixed(0)} ms, p95 ${percentile(ms, 95).toFixed(0)} ms)`,
  );
  for (const category of CATEGORIES) {
    const s = score(outcomes.filter((o) => o.question.category === category));
    say(`         ${`${category} (${s.n})`.padEnd(16)} ${pct(s.r5)} ${pct(s.r10)}  ${s.mrr.toFixed(3)}`);
  }
  if (flag('misses'))
    for (const o of outcomes.filter((x) => x.rank === null || x.rank > 5))
      say(
        `    miss ${o.question.id} (rank ${o.rank ?? '-'}): ${o.stages ? `${o.stages}; ` : ''}top ${o.top.join(', ')}`,
      );
}

/** The model with the chunk size asked for; a size beyond what it reads raises its truncation length. */
function benchEmbedder(modelDir: string): Embedder {
  const options = { modelDir, quantized: flag('quantized') };
  const base = onnxEmbedder(options);
  const embedder =
    base.maxTokens !== undefined && chunkTokens > base.maxTokens
      ? onnxEmbedder({ ...options, maxTokens: chunkTokens })
      : base;
  return withChunkSize(embedder, { chunkTokens, chunkOverlapTokens });
}

async function main(): Promise<void> {
  const questions = loadQuestions(questionsPath);
  const leaks = paraphraseLeaks(questions, storyRecords());
  if (leaks.length > 0) {
    process.stderr.write(`paraphrase questions share words with their answers:\n  ${leaks.join('\n  ')}\n`);
    process.exit(1);
  }
  const keywordOnly = flag('keyword-only');
  const modelDir = defaultModelDir(process.env, model);
  if (!keywordOnly && !existsSync(join(modelDir, 'model.onnx'))) {
    process.stderr.write(
      `bench:rag needs the embedding model in ${modelDir}: run scripts/fetch-model.sh --model ${model} first ` +
        '(or pass --keyword-only)\n',
    );
    process.exit(2);
  }
  const [load1, load5] = loadavg();
  say(`mailsift RAG retrieval benchmark — load ${load1?.toFixed(2)} / ${load5?.toFixed(2)} (1/5 min)`);
  const { engine, info } = await build();
  const embedder = keywordOnly ? undefined : benchEmbedder(modelDir);
  // Chunked as `mailsift embed` chunks: the configured size, counted by the model's tokenizer.
  const chunking = performance.now();
  const synced = syncChunks(engine.archive.db, chunkOptionsFor(embedder));
  const chunkMs = performance.now() - chunking;
  const chunks = count(engine, 'rag_chunks');
  const built = recordedChunking(engine.archive.db);
  say(
    `archive: ${info.messages.toLocaleString('en')} messages (${info.stories} in hand-written stories), ` +
      `ingest ${(info.ingestMs / 1000).toFixed(1)} s; ${chunks.toLocaleString('en')} chunks` +
      (built ? ` of ${built.targetTokens}/${built.overlapTokens} ${built.tokenizer} tokens` : '') +
      (synced.threads > 0 ? ` (chunked ${synced.threads} threads in ${(chunkMs / 1000).toFixed(1)} s)` : ''),
  );
  const vectors = !embedder
    ? false
    : flag('latency-fill')
      ? await fill(engine, embedder, info, questions)
      : await embed(engine, embedder, info);
  if (info.embed)
    say(
      `embedding: ${info.embed.chunks.toLocaleString('en')} chunks in ${(info.embed.ms / 1000).toFixed(1)} s = ` +
        `${(info.embed.chunks / (info.embed.ms / 1000)).toFixed(1)} chunks/s (${info.embed.model}, when built)`,
    );
  say(`questions: ${questions.length}, paraphrases checked: no shared content words with their answers`);
  say('setup    category           recall@5 @10   MRR');
  const results = new Map<RetrievalMode, Outcome[]>();
  const setups: RetrievalMode[] = vectors ? ['keyword', 'vector', 'hybrid'] : ['keyword'];
  for (const mode of setups) {
    // The keyword setup gets the embedder too: retrieval chunks its threads with its size and tokenizer.
    const outcomes = await run(engine, questions, mode, embedder);
    results.set(mode, outcomes);
    report(mode, outcomes);
  }
  if (vectors && embedder) await askLatency(engine, questions, embedder);
  if (refiner) {
    const failed = new Set(refineFailures);
    say(
      `refiner: ${refiner.id}, ${failed.size} of ${questions.length * setups.length} retrievals not refined`,
    );
    for (const failure of [...failed].slice(0, 10)) say(`    ${failure}`);
    await refiner.close?.();
  }
  engine.close();
  say(`peak RSS: ${mb(process.resourceUsage().maxRSS * 1024)}`);
  targets(results);
}

/** `ask` without an LLM (hybrid retrieval, then the extractive answer), per question. */
async function askLatency(
  engine: Mailsift,
  questions: readonly BenchQuestion[],
  embedder: Embedder,
): Promise<void> {
  const options = { inbox: INBOX, limit: 10, now: QUESTION_NOW, embedder, ...detailScan };
  const ms: number[] = [];
  for (const question of questions) {
    const started = performance.now();
    await ask(engine, question.question, options);
    ms.push(performance.now() - started);
  }
  ms.sort((a, b) => a - b);
  say(
    `ask      extractive, no LLM   (p50 ${percentile(ms, 50).toFixed(0)} ms, p95 ${percentile(ms, 95).toFixed(0)} ms)`,
  );
}

function targets(results: ReadonlyMap<RetrievalMode, Outcome[]>): void {
  const r5 = (mode: RetrievalMode, category?: string): number =>
    score((results.get(mode) ?? []).filter((o) => category === undefined || o.question.category === category))
      .r5;
  const checks: Array<[string, boolean]> = [['keyword-only recall@5 >= 75%', r5('keyword') >= 0.75]];
  if (results.has('hybrid'))
    checks.push(
      ['hybrid recall@5 >= 90%', r5('hybrid') >= 0.9],
      ['hybrid paraphrase recall@5 >= 80%', r5('hybrid', 'paraphrase') >= 0.8],
      ['hybrid beats keyword-only and vector-only', r5('hybrid') > Math.max(r5('keyword'), r5('vector'))],
    );
  for (const [name, ok] of checks) say(`target ${ok ? 'met    ' : 'MISSED '} ${name}`);
}

await main();

// npm run bench:realmail — retrieval measured on real mail nobody here wrote: every corpus in
// ../shared/realmail/ (a Maildir beside its `<corpus>-questions.json`), or `--corpus DIR
// --questions FILE`. Each is ingested into a fresh archive outside the corpus, then every
// question is retrieved keyword-only, vector-only and hybrid (the in-process ONNX embedder,
// --model NAME, default MiniLM; --keyword-only without one), and scored as the corpus's README
// says: results deduplicated by Message-ID, compared case-insensitively, recall@5, recall@10
// and MRR@10 per question kind and overall. Beside them the bench computes its own BM25
// floor: FTS5 bm25 over each message's subject, from and whole decoded body (quoted history
// included), queried with the question's words minus stopwords, OR-ed. --misses names every
// miss with the filters applied and where each retrieval stage ranked the answer; --ranks
// prints every question's rank under each setup. Questions that carry a `lang` (the translated
// ones in bench/crosslang/) are scored per language too.
// Nothing is ever written into the corpus folder.

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { convert } from 'html-to-text';
import { z } from 'zod';
import { Mailsift } from '../src/engine.js';
import { parseMessage } from '../src/parse/index.js';
import { chunkOptionsFor } from '../src/rag/chunking.js';
import { embedPending } from '../src/rag/embed.js';
import type { Embedder } from '../src/rag/embedder.js';
import {
  DEFAULT_MODEL,
  defaultModelDir,
  FETCHABLE_MODELS,
  type FetchableModel,
  onnxEmbedder,
} from '../src/rag/onnx-embedder.js';
import {
  type RetrievalMode,
  type RetrievalResult,
  type RetrievalTrace,
  retrieve,
} from '../src/rag/retrieve.js';
import { isStopword } from '../src/rag/stopwords.js';
import { syncChunks } from '../src/rag/sync.js';
import { type Db, loadRaw } from '../src/store/index.js';
import { percentile } from './measure.js';
import { type Outcome, pct, type Scores, score } from './rag-score.js';

const flag = (name: string): boolean => process.argv.includes(`--${name}`);
const option = (name: string): string | undefined => {
  const at = process.argv.indexOf(`--${name}`);
  return at < 0 ? undefined : process.argv[at + 1];
};
const say = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

const questionFile = z.object({
  corpus: z.string().min(1),
  questions: z
    .array(
      z.object({
        id: z.string().min(1),
        question: z.string().min(1),
        messageIds: z.array(z.string().min(1)).min(1),
        kind: z.string().min(1),
        /** The question's language, where a file asks in several (bench/crosslang/): scored per language too. */
        lang: z.string().min(2).optional(),
      }),
    )
    .min(1),
});
type RealQuestion = z.output<typeof questionFile>['questions'][number];

interface Corpus {
  readonly name: string;
  readonly maildir: string;
  readonly questions: readonly RealQuestion[];
}

/** Message-IDs compare without brackets and case-insensitively (domains are case-insensitive). */
const normalId = (id: string): string => id.trim().replace(/^<|>$/g, '').toLowerCase();

/** The shared real-mail folder beside the repository (dist/bench/ is two levels below it). */
function realmailRoot(): string {
  const fromEnv = process.env.MAILSIFT_REALMAIL;
  if (fromEnv) return resolve(fromEnv);
  return resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared/realmail');
}

/** A question file and its Maildir: `maildir`, else the folder beside the file its `corpus` names. */
function loadCorpus(questionsPath: string, maildir?: string): Corpus {
  const parsed = questionFile.safeParse(JSON.parse(readFileSync(questionsPath, 'utf8')));
  if (!parsed.success) throw new Error(`${questionsPath}: ${parsed.error.message}`);
  const folder = maildir ?? join(dirname(questionsPath), parsed.data.corpus);
  if (!existsSync(folder)) throw new Error(`${questionsPath}: its corpus ${folder} does not exist`);
  return { name: parsed.data.corpus, maildir: folder, questions: parsed.data.questions };
}

function corpora(): Corpus[] {
  const corpus = option('corpus');
  const questions = option('questions');
  if ((corpus === undefined) !== (questions === undefined))
    throw new Error('--corpus DIR and --questions FILE go together');
  if (corpus !== undefined && questions !== undefined)
    return [loadCorpus(resolve(questions), resolve(corpus))];
  const root = realmailRoot();
  if (!existsSync(root)) throw new Error(`no real-mail folder at ${root} (set MAILSIFT_REALMAIL)`);
  return readdirSync(root)
    .filter((f) => f.endsWith('-questions.json'))
    .sort()
    .map((f) => loadCorpus(join(root, f)));
}

function messageFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return messageFiles(path);
    return entry.isFile() && statSync(path).size > 0 ? [path] : [];
  });
}

/**
 * The floor: a plain FTS5 index of each distinct message's subject, sender and whole decoded
 * body (the text part, else the HTML flattened), nothing cleaned away, default bm25 weights.
 * The messages are the archive's stored originals, parsed again here: a Maildir's files or
 * an mbox's messages alike (a pipermail archive is monthly mbox files).
 */
async function floorIndex(archive: Db): Promise<Database.Database> {
  const db = new Database(':memory:');
  db.exec('CREATE VIRTUAL TABLE docs USING fts5(mid UNINDEXED, subject, sender, body)');
  const insert = db.prepare('INSERT INTO docs (mid, subject, sender, body) VALUES (?, ?, ?, ?)');
  const seen = new Set<string>();
  for (const rowid of archive.prepare('SELECT id FROM messages ORDER BY id').pluck().all() as number[]) {
    const parsed = await parseMessage(loadRaw(archive, rowid));
    const id = normalId(parsed.messageId ?? String(rowid));
    if (seen.has(id)) continue;
    seen.add(id);
    const body = parsed.text ?? (parsed.html === null ? '' : convert(parsed.html, { wordwrap: false }));
    const sender = parsed.from ? `${parsed.from.name} ${parsed.from.address}` : '';
    insert.run(id, parsed.subject, sender, body);
  }
  return db;
}

/** The floor's ranking: the question's words minus stopwords, each quoted, OR-ed. */
function floorRanking(db: Database.Database, question: string): string[] {
  const words = [
    ...new Set((question.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !isStopword(w, 'en'))),
  ];
  if (words.length === 0) return [];
  const match = words.map((w) => `"${w}"`).join(' OR ');
  return (
    db.prepare('SELECT mid FROM docs WHERE docs MATCH ? ORDER BY bm25(docs) LIMIT 10').all(match) as Array<{
      mid: string;
    }>
  ).map((r) => r.mid);
}

/** 1-based rank of the first wanted id in a ranking deduplicated by id, null past 10 or absent. */
function rankOf(ranking: readonly string[], wanted: ReadonlySet<string>): number | null {
  const distinct = [...new Set(ranking.map(normalId))].slice(0, 10);
  const at = distinct.findIndex((id) => wanted.has(id));
  return at < 0 ? null : at + 1;
}

/** Where each stage of one retrieval ranked the answer (its first id found in each list). */
function stageRanks(db: Db, trace: RetrievalTrace, wanted: ReadonlySet<string>): string {
  const idOf = db.prepare('SELECT message_id AS id FROM messages WHERE id = ?');
  const rank = (rowids: readonly number[]): string => {
    const at = rowids.findIndex((r) =>
      wanted.has(normalId((idOf.get(r) as { id: string } | undefined)?.id ?? '')),
    );
    return at < 0 ? '-' : String(at + 1);
  };
  return `keyword ${rank(trace.keyword)}, details ${rank(trace.details)}, fused ${rank(trace.messages)}`;
}

function describeFilters(result: RetrievalResult): string {
  const f = result.filters;
  const parts = [
    f.after !== null ? `after ${new Date(f.after).toISOString().slice(0, 10)}` : '',
    f.before !== null ? `before ${new Date(f.before).toISOString().slice(0, 10)}` : '',
    f.hasAttachment ? `attachment${f.attachmentType ? ` ${f.attachmentType}` : ''}` : '',
    f.people.length > 0 ? `from ${f.people.join(', ')}` : '',
  ].filter((p) => p !== '');
  return parts.length === 0 ? 'no filters' : parts.join('; ');
}

interface KindOutcome extends Outcome {
  readonly kind: string;
  readonly lang?: string | undefined;
  readonly detail?: string;
}

function report(
  label: string,
  outcomes: readonly KindOutcome[],
  kinds: readonly string[],
  langs: readonly string[],
): Scores {
  const all = score(outcomes);
  const ms = outcomes.map((o) => o.ms).sort((a, b) => a - b);
  say(
    `${label.padEnd(9)} all (${String(all.n).padStart(2)})     ${pct(all.r5)} ${pct(all.r10)}  ${all.mrr.toFixed(3)}` +
      `   (p50 ${percentile(ms, 50).toFixed(0)} ms, p95 ${percentile(ms, 95).toFixed(0)} ms)`,
  );
  for (const kind of kinds) {
    const s = score(outcomes.filter((o) => o.kind === kind));
    say(`          ${`${kind} (${s.n})`.padEnd(15)} ${pct(s.r5)} ${pct(s.r10)}  ${s.mrr.toFixed(3)}`);
  }
  for (const lang of langs) {
    const s = score(outcomes.filter((o) => o.lang === lang));
    say(`          ${`lang ${lang} (${s.n})`.padEnd(15)} ${pct(s.r5)} ${pct(s.r10)}  ${s.mrr.toFixed(3)}`);
  }
  if (flag('misses'))
    for (const o of outcomes.filter((x) => x.rank === null || x.rank > 5))
      say(
        `    miss ${o.question.id} ${o.kind} (rank ${o.rank ?? '-'}): ${o.detail ?? ''}; top ${o.top.join(', ')}`,
      );
  return all;
}

/** --ranks: each question's rank under every setup, side by side ('-' past 10). */
function printRanks(corpus: Corpus, bySetup: ReadonlyMap<string, readonly KindOutcome[]>): void {
  say(`\nranks     ${[...bySetup.keys()].map((k) => k.padStart(8)).join('')}`);
  corpus.questions.forEach((q, i) => {
    const ranks = [...bySetup.values()].map((o) => String(o[i]?.rank ?? '-').padStart(8));
    say(`${`${q.id} ${q.kind}`.padEnd(10)}${ranks.join('')}`);
  });
}

/** The scoring helpers take bench:rag's question shape; a real question is mapped onto it. */
const asBenchQuestion = (q: RealQuestion): Outcome['question'] => ({
  id: q.id,
  category: 'paraphrase',
  question: q.question,
  messageIds: q.messageIds,
});

async function measure(corpus: Corpus, embedder: Embedder | null): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), `mailsift-realmail-${corpus.name}-`));
  try {
    const engine = Mailsift.open(join(work, 'archive.db'));
    const ingested = await engine.ingest([corpus.maildir], { inbox: corpus.name });
    const db = engine.archive.db;
    say(
      `\n${corpus.name}: ${corpus.questions.length} questions, ${messageFiles(corpus.maildir).length} files, ` +
        `${ingested.added} messages stored in ${(ingested.elapsedMs / 1000).toFixed(1)} s`,
    );
    const kinds = [...new Set(corpus.questions.map((q) => q.kind))].sort();
    const langs = [...new Set(corpus.questions.flatMap((q) => (q.lang ? [q.lang] : [])))];
    say(`setup     kind            recall@5 @10  MRR@10`);

    const floor = await floorIndex(db);
    const floorOutcomes: KindOutcome[] = corpus.questions.map((q) => {
      const started = performance.now();
      const ranking = floorRanking(floor, q.question);
      const ms = performance.now() - started;
      const rank = rankOf(ranking, new Set(q.messageIds.map(normalId)));
      return { question: asBenchQuestion(q), kind: q.kind, lang: q.lang, rank, ms, top: ranking.slice(0, 3) };
    });
    report('bm25floor', floorOutcomes, kinds, langs);
    const bySetup = new Map<string, readonly KindOutcome[]>([['floor', floorOutcomes]]);

    const modes: RetrievalMode[] = ['keyword'];
    if (embedder) {
      syncChunks(db, chunkOptionsFor(embedder));
      const embedded = await embedPending(engine, embedder);
      if (embedded.error) throw new Error(`embedding failed: ${embedded.error}`);
      modes.push('vector', 'hybrid');
    }
    for (const mode of modes) {
      const options = { inbox: corpus.name, limit: 10, mode, ...(embedder ? { embedder } : {}) };
      await retrieve(engine, 'warm-up question about the build', options);
      const outcomes: KindOutcome[] = [];
      for (const q of corpus.questions) {
        let trace: RetrievalTrace | undefined;
        const started = performance.now();
        const result = await retrieve(engine, q.question, { ...options, trace: (t) => (trace = t) });
        const ms = performance.now() - started;
        if (result.mode !== mode) throw new Error(`${q.id}: asked for ${mode}, got ${result.mode}`);
        const wanted = new Set(q.messageIds.map(normalId));
        const ranking = result.messages.map((m) => m.messageId);
        const detail = `${describeFilters(result)}; ${trace ? stageRanks(db, trace, wanted) : ''}`;
        outcomes.push({
          question: asBenchQuestion(q),
          kind: q.kind,
          lang: q.lang,
          rank: rankOf(ranking, wanted),
          ms,
          top: ranking.slice(0, 3),
          detail,
        });
      }
      report(mode, outcomes, kinds, langs);
      bySetup.set(mode, outcomes);
    }
    if (flag('ranks')) printRanks(corpus, bySetup);
    engine.close();
    floor.close();
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const model = option('model') ?? DEFAULT_MODEL;
  const known = FETCHABLE_MODELS.find((m): m is FetchableModel => m === model);
  if (!known) throw new Error(`--model must be one of ${FETCHABLE_MODELS.join(', ')}, got ${model}`);
  let embedder: Embedder | null = null;
  if (!flag('keyword-only')) {
    const modelDir = defaultModelDir(process.env, known);
    if (!existsSync(join(modelDir, 'model.onnx'))) {
      process.stderr.write(
        `bench:realmail needs the embedding model in ${modelDir}: run scripts/fetch-model.sh --model ${known} first (or pass --keyword-only)\n`,
      );
      process.exit(2);
    }
    embedder = onnxEmbedder({ modelDir });
  }
  const [load1, load5] = loadavg();
  say(`mailsift real-mail retrieval benchmark — load ${load1?.toFixed(2)} / ${load5?.toFixed(2)} (1/5 min)`);
  say(
    `embedder: ${embedder ? `${embedder.id} (${basename(defaultModelDir(process.env, known))})` : 'none (keyword only)'}`,
  );
  for (const corpus of corpora()) await measure(corpus, embedder);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:realmail: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

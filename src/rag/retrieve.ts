// Hybrid retrieval: filters from the question (by rules, refined by the LLM when one is
// given, which also rephrases the question), a keyword leg and (with an embedder) a vector
// leg under the same filters for the question and each rephrasing, fused with reciprocal
// rank fusion (k = 60) first over threads (summaries), then over messages within the top
// threads, expanded into a context pack of passages within a token budget.

import { describeError, MailsiftError } from '../core/errors.js';
import type { Mailsift } from '../engine.js';
import { type Db, inboxByName, sql } from '../store/index.js';
import type { ChatModel } from './chat.js';
import type { ChunkKind, ChunkMeta } from './chunk.js';
import { chunkOptionsFor, recordedChunkOptions } from './chunking.js';
import { type Expansion, planCrossLanguage } from './cross-language.js';
import { DECISION_THREADS, decisionLeg, decisionWeights } from './decision-leg.js';
import { isDecisionQuestion } from './decision-question.js';
import type { Embedder } from './embedder.js';
import { type ExtractedFilters, extractFilters, type QuestionFilters } from './filters.js';
import { fuse, keywordThreads, mergeLeg, splitKey, threadKey } from './fusion.js';
import { type KeywordHit, keywordLeg } from './keyword-leg.js';
import { englishOnlyEmbedderNote, SearchedLanguages } from './languages.js';
import { REFINE_TIMEOUT_MS, type Refinement, refineQuestion } from './refine.js';
import { syncChunks } from './sync.js';
import {
  type DetailScan,
  NO_VECTORS,
  startEmbedding,
  type VectorChunk,
  type VectorLeg,
  vectorLeg,
  withinThreads,
} from './vector-leg.js';
import { archiveVectors, type VectorSearch } from './vector-search.js';
import { vectorModel } from './vectors.js';

/** Longest question accepted: a question, not a document (50 KB pasted mail is refused). */
export const MAX_QUESTION_CHARS = 2000;

export type RetrievalMode = 'hybrid' | 'keyword' | 'vector';

export interface RetrieveOptions {
  readonly inbox?: string;
  /** Threads to return; default 5. */
  readonly limit?: number;
  /** Token budget of the context pack; default 2,000. */
  readonly budget?: number;
  /**
   * 'keyword' skips the vector leg even with an embedder; 'vector' skips the keyword leg (and
   * a decision question's decision leg) while the vector leg can run (for measuring each leg
   * alone). Default 'hybrid'.
   */
  readonly mode?: RetrievalMode;
  readonly embedder?: Embedder;
  /** How the vector leg finds details; default 'threads' (within the threads summaries and keywords found). */
  readonly detailScan?: DetailScan;
  /**
   * An LLM that refines the rules' filters and rephrases the question before retrieval
   * (refine.ts): the rephrasings are searched beside the question. Without an answer within
   * `refineTimeoutMs` (default 20 s), retrieval goes on with the rules' filters, degraded.
   */
  readonly refiner?: ChatModel;
  readonly refineTimeoutMs?: number;
  /** Reference time for relative dates ("last October"). */
  readonly now?: Date;
  /** Receives each stage's ranking once the question is ranked (bench:rag --misses). */
  readonly trace?: (trace: RetrievalTrace) => void;
  /**
   * Where the vector leg searches: the archive's vector index by default; the OpenSearch
   * backend's k-NN index (backend/opensearch/vectors.ts) when the surfaces run on a cluster.
   */
  readonly vectors?: VectorSearch;
  /** The cross-language lexicon folder; default the model cache's `lexicon` (scripts/fetch-lexicon.sh). */
  readonly lexiconDir?: string;
}

/** How each stage ranked one question's candidates, best first: where a missed answer was lost. */
export interface RetrievalTrace {
  /** Keyword leg: message rowids. */
  readonly keyword: readonly number[];
  /** Keyword leg's messages grouped into thread keys (inbox id:thread id). */
  readonly keywordThreads: readonly string[];
  /** Vector leg's summary step: thread keys. */
  readonly summaries: readonly string[];
  /** Vector leg's details and attachments (within the top threads included): message rowids. */
  readonly details: readonly number[];
  /** Every fused thread, not only the `limit` returned. */
  readonly threads: readonly string[];
  /** Messages of the top threads by fused score, before one thread's crowding is capped. */
  readonly messages: readonly number[];
}

export interface Passage {
  readonly kind: ChunkKind;
  readonly chunkId: number;
  readonly inbox: string;
  readonly threadId: string;
  readonly messageIds: readonly string[];
  readonly date: string;
  readonly from: string;
  readonly subject: string;
  readonly text: string;
  readonly tokens: number;
}

export interface RetrievalResult {
  readonly question: string;
  readonly mode: RetrievalMode;
  /**
   * Why a provider given was not used: the vector leg skipped although an embedder was given,
   * the question not refined although a refiner was ('; ' between the two).
   */
  readonly degraded?: string;
  /** The filters read from the question; `applied` names the hard ones, `boosted` the soft ones. */
  readonly filters: QuestionFilters & { readonly applied: readonly string[] };
  /** With an LLM that refined the question: which one, and the rephrasings searched beside it. */
  readonly refinement?: { readonly by: string; readonly rephrasings: readonly string[] };
  readonly threads: ReadonlyArray<{
    readonly inbox: string;
    readonly threadId: string;
    readonly score: number;
  }>;
  /** Message-IDs of the top threads, best first. */
  readonly messages: ReadonlyArray<{
    readonly messageId: string;
    readonly threadId: string;
    readonly score: number;
  }>;
  readonly passages: readonly Passage[];
  readonly tokens: number;
  /**
   * Asked what was decided: the decisions of the best threads whose evidence joined the
   * ranking, best first, each with its evidence messages (src/decisions; rules, on demand).
   */
  readonly decisions?: readonly DecisionHit[];
  /**
   * Asked in another language than (some of) the searched mail's: each question word the
   * keyword leg also searched in the mail's language, with the translations it searched
   * (cross-language.ts); they count for less than the question's own words.
   */
  readonly expansions?: readonly Expansion[];
  readonly notes: readonly string[];
}

export interface DecisionHit {
  readonly inbox: string;
  readonly threadId: string;
  readonly statement: string;
  readonly status: 'standing' | 'superseded';
  readonly decidedAt: string;
  /** Its evidence messages, in the order the record gives them (proposal, objections, agreement). */
  readonly messageIds: readonly string[];
}

interface ChunkRow {
  id: number;
  inboxId: number;
  threadId: string;
  kind: ChunkKind;
  text: string;
  tokens: number;
  meta: string;
}

function validate(question: string): string {
  const trimmed = question.trim();
  if (trimmed === '')
    throw new MailsiftError('invalid_argument', 'the question is empty', { param: 'question' });
  if (trimmed.length > MAX_QUESTION_CHARS)
    throw new MailsiftError(
      'invalid_argument',
      `the question is ${trimmed.length} characters long; at most ${MAX_QUESTION_CHARS} are accepted`,
      { param: 'question' },
    );
  return trimmed;
}

/**
 * The context pack for `question`. A hard filter the question asks for (a sender, a period, an
 * attachment) that leaves fewer messages than the page falls back: the unfiltered ranking
 * follows the filtered one, so a filter read wrongly from the question narrows the answer's
 * place, never removes it.
 */
export async function retrieve(
  engine: Mailsift,
  question: string,
  options: RetrieveOptions = {},
): Promise<RetrievalResult> {
  const filtered = await retrieveWith(engine, question, options, false);
  const limit = Math.max(1, Math.min(50, options.limit ?? 5));
  if (appliedFilters(filtered.filters).length === 0 || filtered.messages.length >= limit) return filtered;
  // The fallback searches the question alone: the LLM's rephrasings already joined the filtered run.
  const { refiner: _refiner, trace: _trace, ...plain } = options;
  const open = await retrieveWith(engine, question, plain, true);
  return belowFiltered(filtered, open, Math.max(100, options.budget ?? 2000));
}

/** The hard filters of a result, in words: "from a@b.example", "after 2019-01-01", "PDF attached". */
export function appliedFilters(filters: QuestionFilters): string[] {
  const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
  return [
    ...filters.people.map((p) => `from ${p}`),
    ...(filters.after === null ? [] : [`after ${day(filters.after)}`]),
    ...(filters.before === null ? [] : [`before ${day(filters.before)}`]),
    ...(filters.hasAttachment ? [filters.attachmentType === 'pdf' ? 'PDF attached' : 'attachment'] : []),
  ];
}

/** The filtered result with the unfiltered one's other threads, messages and passages below it. */
function belowFiltered(filtered: RetrievalResult, open: RetrievalResult, budget: number): RetrievalResult {
  const threadKeys = new Set(filtered.threads.map((t) => `${t.inbox}:${t.threadId}`));
  const messageIds = new Set(filtered.messages.map((m) => m.messageId));
  const chunkIds = new Set(filtered.passages.map((p) => p.chunkId));
  let tokens = filtered.tokens;
  const passages = [...filtered.passages];
  for (const p of open.passages) {
    if (chunkIds.has(p.chunkId) || tokens + p.tokens > budget) continue;
    passages.push(p);
    tokens += p.tokens;
  }
  return {
    ...filtered,
    threads: [
      ...filtered.threads,
      ...open.threads.filter((t) => !threadKeys.has(`${t.inbox}:${t.threadId}`)),
    ],
    messages: [...filtered.messages, ...open.messages.filter((m) => !messageIds.has(m.messageId))],
    passages,
    tokens,
    notes: [
      ...filtered.notes,
      `the filters (${appliedFilters(filtered.filters).join(', ')}) left ${filtered.messages.length} messages; unfiltered results follow them`,
    ],
  };
}

async function retrieveWith(
  engine: Mailsift,
  question: string,
  options: RetrieveOptions,
  /** Ignore the hard filters read from the question (the fallback below a thin filtered result). */
  unfiltered: boolean,
): Promise<RetrievalResult> {
  const db = engine.archive.db;
  const q = validate(question);
  const limit = Math.max(1, Math.min(50, options.limit ?? 5));
  const budget = Math.max(100, options.budget ?? 2000);
  const inboxes =
    options.inbox === undefined
      ? (sql(db, 'SELECT id, name FROM inboxes ORDER BY name').all() as Array<{ id: number; name: string }>)
      : [inboxByName(db, options.inbox)];
  const inboxIds = inboxes.map((i) => i.id);
  const inboxName = new Map(inboxes.map((i) => [i.id, i.name]));
  const now = options.now ?? new Date();
  const rules = extractFilters(db, q, inboxIds, now);
  const degradations: string[] = [];
  const notes: string[] = [];
  let refinement: Refinement | null = null;
  if (options.refiner) {
    try {
      refinement = await refineQuestion(db, options.refiner, q, rules, inboxIds, {
        now,
        timeoutMs: options.refineTimeoutMs ?? REFINE_TIMEOUT_MS,
      });
      if (refinement.unknownPeople.length > 0)
        notes.push(`not a known sender, left out of the filters: ${refinement.unknownPeople.join(', ')}`);
    } catch (error) {
      degradations.push(
        `the llm did not refine the question (${describeError(error)}); the rules' filters only`,
      );
    }
  }
  const read = refinement?.filters ?? rules;
  const filters: ExtractedFilters = unfiltered
    ? { ...read, after: null, before: null, hasAttachment: false, attachmentType: null, people: [] }
    : read;
  const { after, before, hasAttachment, attachmentType, people, boosted, matched } = filters;
  // The question and the LLM's rephrasings of it: each searched by both legs, all fused.
  const texts = [q, ...(refinement?.rephrasings ?? [])];

  let mode: RetrievalMode = 'keyword';
  let embedder: Embedder | undefined;
  if (options.mode !== 'keyword' && options.embedder) {
    const recorded = vectorModel(db);
    if (recorded === null || recorded.model !== options.embedder.id)
      degradations.push(
        `no vectors of ${options.embedder.id} yet (\`mailsift embed\` embeds them; \`serve\`, \`mcp\` and \`watch\` do it in the background); keyword results only`,
      );
    else embedder = options.embedder;
  } else if (options.mode !== 'keyword') notes.push('no embedder configured: keyword retrieval only');
  const searched = new SearchedLanguages(db, inboxIds);
  const languageNote = embedder && englishOnlyEmbedderNote(searched, q, embedder);
  if (languageNote) notes.push(languageNote);
  const crossing = planCrossLanguage(searched, q, options.lexiconDir);
  notes.push(...crossing.notes);
  // The texts are embedded while the keyword leg runs (an in-process model on its own
  // threads); the keyword leg's best threads are searched by the vector leg too.
  const embeddings = embedder && startEmbedding(embedder, texts);
  const keywordOf = (weigh: boolean): KeywordHit[][] =>
    texts.map((text) => keywordLeg(db, text, inboxIds, filters, 200, weigh, crossing.cross));
  let keyword: KeywordHit[][] =
    embedder && options.mode === 'vector' ? texts.map(() => []) : keywordOf(embedder !== undefined);
  let vectors: VectorLeg[] = texts.map(() => NO_VECTORS);
  let questionVectors: Float32Array[] | null = null;
  if (embeddings) {
    try {
      questionVectors = await embeddings;
    } catch (error) {
      degradations.push(`the embedder failed (${describeError(error)}); keyword results only`);
      keyword = keywordOf(false);
    }
  }
  // An index that cannot answer (a cluster's missing shard) fails the question, as a search
  // does: a vector leg left out silently would be a short answer.
  const search = options.vectors ?? archiveVectors(db);
  if (questionVectors) {
    const scan = options.detailScan ?? 'threads';
    vectors = await Promise.all(
      questionVectors.map((embedding, i) =>
        vectorLeg(db, search, embedding, inboxIds, filters, scan, keywordThreads(keyword[i] as KeywordHit[])),
      ),
    );
    mode = options.mode === 'vector' ? 'vector' : 'hybrid';
    if (search.where !== 'archive') notes.push(`vectors searched in ${search.where}`);
  }

  const keywordKeys = keyword.map(keywordThreads);
  // A keyword hit counts by how much of the question it matches (fully for a named
  // identifier): alone, bm25 order is all there is; next to the vector leg, a hit on one
  // common word should not outvote it.
  const keywordWeights = keyword.map((hits) => {
    const threads = new Map<string, number>();
    for (const h of hits) {
      const key = threadKey(h.inboxId, h.threadId);
      threads.set(key, Math.max(threads.get(key) ?? 0, h.weight));
    }
    return { threads, messages: new Map(hits.map((h) => [String(h.rowid), h.weight])) };
  });
  const unweighted = new Map<string, number>();
  const threadScores = fuse(
    texts.flatMap((_, i) => {
      const leg = vectors[i] as VectorLeg;
      return [keywordKeys[i] as string[], mergeLeg([leg.threads, leg.chunks.map((c) => c.threadKey)])];
    }),
    keywordWeights.flatMap((w) => [w.threads, unweighted]),
  );
  const fusedThreads = [...threadScores].sort((a, b) => b[1] - a[1]);
  const topThreads = fusedThreads.slice(0, limit);
  const topKeys = topThreads.map(([key]) => key);
  // The keyword leg's best messages reach the list whatever their thread scored: on real
  // list mail a plain message-level keyword ranking finds answers that a thread-level view
  // (a 40-message patch series, a summary about something else) puts below the page.
  const shownThreads = [
    ...new Set([
      ...topKeys,
      ...keyword.flatMap((hits) => hits.slice(0, limit).map((h) => threadKey(h.inboxId, h.threadId))),
    ]),
  ];
  const shown = new Set(shownThreads);
  const chunks = await Promise.all(
    vectors.map((leg) => withinThreads(db, search, leg, shownThreads, filters)),
  );
  const rowThread = new Map<number, string>();
  for (const h of keyword.flat()) rowThread.set(h.rowid, threadKey(h.inboxId, h.threadId));
  for (const c of chunks.flat()) for (const r of c.rowids) rowThread.set(r, c.threadKey);
  const boost = boostedHits(db, keyword[0] as KeywordHit[], boosted);
  const messageScores = fuse(
    [
      ...texts.flatMap((_, i) => [
        (keyword[i] as KeywordHit[]).map((h) => String(h.rowid)),
        (chunks[i] as VectorChunk[]).flatMap((c) => c.rowids.map(String)),
      ]),
      [...boost.keys()],
    ],
    [...keywordWeights.flatMap((w) => [w.messages, unweighted]), boost],
  );
  const fused = [...messageScores]
    .map(([rowid, score]) => ({
      rowid: Number(rowid),
      score: score + (threadScores.get(rowThread.get(Number(rowid)) ?? '') ?? 0),
    }))
    .filter((m) => shown.has(rowThread.get(m.rowid) ?? ''))
    .sort((a, b) => b.score - a.score);
  // The fused list is fused once more with the question's own message-level keyword ranking,
  // each hit at its fusion weight (a hit on one common word of a paraphrase counts little):
  // the thread scores and the vector leg reorder messages by what their thread or a chunk is
  // about, and on real list mail that buried answers a plain keyword ranking puts first.
  // bench:realmail LKML hybrid recall@5 87.5% -> 91.7%; bench:rag (500, synthetic) 88.1% both
  // ways, its paraphrases 58.8% -> 52.9% (unweighted: 82.1%, paraphrases 29.4%).
  // A question about what was decided also fuses the evidence of the decisions in the best
  // threads: the reply that settled a proposal rarely shares the question's words. Not in
  // 'vector' mode, which measures that leg alone.
  const decided =
    options.mode !== 'vector' && isDecisionQuestion(q)
      ? decisionLeg(
          db,
          shownThreads.slice(0, DECISION_THREADS),
          fused.map((m) => m.rowid),
          inboxName,
        )
      : null;
  for (const [rowid, key] of decided?.rowThread ?? []) rowThread.set(rowid, key);
  if (decided) notes.push(decisionNote(decided.decisions.length, decided.rowids.length));
  const again = fuse(
    [
      fused.map((m) => String(m.rowid)),
      (keyword[0] as KeywordHit[])
        .map((h) => String(h.rowid))
        .filter((r) => shown.has(rowThread.get(Number(r)) ?? '')),
      ...(decided ? [decided.rowids.map(String)] : []),
    ],
    [unweighted, keywordWeights[0]?.messages ?? unweighted, ...(decided ? [decisionWeights(decided)] : [])],
  );
  const ranked = [...new Set([...fused.map((m) => m.rowid), ...(decided?.rowids ?? [])])]
    .map((rowid) => ({ rowid, score: again.get(String(rowid)) ?? 0 }))
    .sort((a, b) => b.score - a.score);
  // The stages as the question itself ranked them (its rephrasings' lists only join the fusion).
  options.trace?.({
    keyword: (keyword[0] as KeywordHit[]).map((h) => h.rowid),
    keywordThreads: keywordKeys[0] as string[],
    summaries: (vectors[0] as VectorLeg).threads,
    details: [...new Set((chunks[0] as VectorChunk[]).flatMap((c) => c.rowids))],
    threads: fusedThreads.map(([key]) => key),
    messages: ranked.map((m) => m.rowid),
  });

  const info = sql(db, 'SELECT message_id AS messageId, thread_id AS threadId FROM messages WHERE id = ?');
  const messages = ranked.flatMap((m) => {
    const row = info.get(m.rowid) as { messageId: string; threadId: string } | undefined;
    return row ? [{ ...row, score: m.score }] : [];
  });
  // The pack reads the decisions' threads first (asked what was decided), then the best
  // threads, then the threads only the keyword leg's best messages brought, in their order.
  const decisionThreads = [...(decided?.rowThread.values() ?? [])];
  const packThreads = [
    ...new Set([...decisionThreads, ...topKeys, ...ranked.map((m) => rowThread.get(m.rowid) ?? '')]),
  ].filter((key) => shown.has(key));
  // Only the threads the pack reads: after a fresh ingest every thread is dirty, and
  // chunking them all would make the first question pay for the whole archive.
  syncChunks(db, {
    ...(options.embedder ? chunkOptionsFor(options.embedder) : recordedChunkOptions(db)),
    threads: packThreads.map((key) => splitKey(key)),
  });
  const vectorRank = new Map<number, number>();
  [...chunks.flat()]
    .sort((a, b) => b.similarity - a.similarity)
    .forEach((c, i) => {
      if (!vectorRank.has(c.id)) vectorRank.set(c.id, i);
    });
  const passages = pack(db, packThreads, ranked, rowThread, vectorRank, budget, inboxName);
  const expansions = crossing.cross?.expansions() ?? [];
  return {
    question: q,
    mode,
    ...(degradations.length === 0 ? {} : { degraded: degradations.join('; ') }),
    filters: {
      after,
      before,
      hasAttachment,
      attachmentType,
      people,
      boosted,
      matched,
      applied: appliedFilters(filters),
    },
    ...(refinement === null || !options.refiner
      ? {}
      : { refinement: { by: options.refiner.id, rephrasings: refinement.rephrasings } }),
    threads: topThreads.map(([key, score]) => {
      const { inboxId, threadId } = splitKey(key);
      return { inbox: inboxName.get(inboxId) ?? '', threadId, score };
    }),
    messages,
    passages,
    tokens: passages.reduce((sum, p) => sum + p.tokens, 0),
    ...(decided
      ? {
          decisions: decided.decisions.map((d) => ({
            inbox: d.inbox,
            threadId: d.threadId,
            statement: d.statement,
            status: d.status,
            decidedAt: d.decidedAt.toISOString(),
            messageIds: d.evidence.map((e) => e.messageId),
          })),
        }
      : {}),
    ...(expansions.length > 0 ? { expansions } : {}),
    notes,
  };
}

function decisionNote(decisions: number, messages: number): string {
  return decisions === 0
    ? `a question about a decision: none found in the ${DECISION_THREADS} best threads`
    : `a question about a decision: ${decisions} decisions found in the ${DECISION_THREADS} best threads; their ${messages} evidence messages joined the ranking`;
}

/**
 * Weight of the list of keyword hits from senders the question only mentions: a soft signal
 * (half a keyword list) that may lift such a message, never a filter.
 */
const BOOST_WEIGHT = 0.5;

/** The keyword hits sent by one of `boosted` (message rowids, in keyword order), each at BOOST_WEIGHT. */
function boostedHits(db: Db, hits: readonly KeywordHit[], boosted: readonly string[]): Map<string, number> {
  if (boosted.length === 0 || hits.length === 0) return new Map();
  const from = sql(db, 'SELECT from_address AS address FROM messages WHERE id = ?');
  const wanted = new Set(boosted);
  return new Map(
    hits
      .filter((h) => wanted.has((from.get(h.rowid) as { address: string } | undefined)?.address ?? ''))
      .map((h) => [String(h.rowid), BOOST_WEIGHT]),
  );
}

/** Per top thread: its summary, then its best messages' chunks, while the budget lasts. */
function pack(
  db: Db,
  threads: readonly string[],
  ranked: ReadonlyArray<{ rowid: number }>,
  rowThread: ReadonlyMap<number, string>,
  vectorRank: ReadonlyMap<number, number>,
  budget: number,
  inboxName: ReadonlyMap<number, string>,
): Passage[] {
  const summaryOf = sql(
    db,
    "SELECT id, inbox_id AS inboxId, thread_id AS threadId, kind, text, tokens, meta FROM rag_chunks WHERE inbox_id = ? AND thread_id = ? AND kind = 'summary'",
  );
  const chunksOf = sql(
    db,
    `SELECT c.id, c.inbox_id AS inboxId, c.thread_id AS threadId, c.kind, c.text, c.tokens, c.meta FROM rag_chunk_messages l
     JOIN rag_chunks c ON c.id = l.chunk_id WHERE l.message_rowid = ? AND c.kind <> 'summary' ORDER BY c.id`,
  );
  const head = sql(
    db,
    // By (inbox, Message-ID), the store's unique key: Message-ID alone would scan every message.
    'SELECT from_name AS name, from_address AS address, subject FROM messages WHERE inbox_id = ? AND message_id = ?',
  );
  const passages: Passage[] = [];
  const seen = new Set<number>();
  let used = 0;
  const add = (c: ChunkRow): void => {
    if (seen.has(c.id) || used + c.tokens > budget) return;
    seen.add(c.id);
    used += c.tokens;
    const meta = JSON.parse(c.meta) as ChunkMeta;
    const first = head.get(c.inboxId, meta.messageIds[0]) as
      | { name: string; address: string; subject: string }
      | undefined;
    passages.push({
      kind: c.kind,
      chunkId: c.id,
      inbox: inboxName.get(c.inboxId) ?? meta.inbox,
      threadId: c.threadId,
      messageIds: meta.messageIds,
      date: new Date(c.kind === 'summary' ? meta.dateTo : meta.dateFrom).toISOString(),
      from:
        c.kind === 'summary'
          ? ''
          : first
            ? first.name
              ? `${first.name} <${first.address}>`
              : first.address
            : '',
      subject: first?.subject ?? '',
      text: c.text,
      tokens: c.tokens,
    });
  };
  for (const key of threads) {
    const { inboxId, threadId } = splitKey(key);
    const summary = summaryOf.get(inboxId, threadId) as ChunkRow | undefined;
    if (summary) add(summary);
    for (const m of ranked.filter((r) => rowThread.get(r.rowid) === key).slice(0, 3)) {
      const chunks = (chunksOf.all(m.rowid) as ChunkRow[]).sort(
        (a, b) => (vectorRank.get(a.id) ?? 1e9) - (vectorRank.get(b.id) ?? 1e9) || a.id - b.id,
      );
      for (const c of chunks.slice(0, 2)) add(c);
    }
  }
  return passages;
}

// Runs a question set against the archive: resolves every expected id, asks the retriever,
// scores hit ranks (recall@1/5/10, MRR), checks mustNotFind, stores the run and lists every
// question that got worse since the previous run of the same set.

import { isMailsiftError } from '../core/errors.js';
import type { Mailsift } from '../engine.js';
import { MAX_LIMIT } from '../search/index.js';
import { normalizeIdArgument } from '../store/index.js';
import { configFingerprint, type EvalConfig, evalConfig, sha256Hex } from './fingerprint.js';
import type { Question, QuestionSet } from './questions.js';
import { keywordRetriever, type Retriever } from './retriever.js';
import { ensureEvalTables, previousRun, type StoredOutcome, saveRun } from './store.js';

/** Ranks scored: a hit below 10 is a miss, as an agent acting on the first page sees it. */
export const SCORED_DEPTH = 10;
/** Depth searched for mustNotFind ids: a forbidden message anywhere on a full page counts. */
export const MUST_NOT_FIND_DEPTH = MAX_LIMIT;

export type QuestionStatus = 'pass' | 'miss' | 'unknown_ids' | 'must_not_find' | 'error';

export interface QuestionResult {
  readonly id: string;
  readonly mode: 'query' | 'question';
  readonly text: string;
  readonly language: string | null;
  /** 1-based rank of the first expected message or thread in the top 10; null: not found. */
  readonly rank: number | null;
  readonly pass: boolean;
  readonly status: QuestionStatus;
  /** false for entries with only mustNotFind: they pass or fail but carry no rank. */
  readonly scored: boolean;
  /** Expected ids the archive does not hold: never a pass. */
  readonly unknownIds: readonly string[];
  readonly forbiddenFound: ReadonlyArray<{
    readonly id: string;
    readonly reason: string;
    readonly rank: number;
  }>;
  /** The top three message ids retrieved, for reading a miss. */
  readonly top: readonly string[];
  readonly error?: string;
}

export interface EvalSummary {
  readonly questions: number;
  readonly scored: number;
  readonly passed: number;
  readonly failed: number;
  readonly recallAt1: number;
  readonly recallAt5: number;
  readonly recallAt10: number;
  readonly mrr: number;
  readonly mustNotFindViolations: number;
  readonly unknownIds: number;
  readonly byLanguage: Readonly<Record<string, { scored: number; recallAt10: number }>>;
}

export interface Regression {
  readonly id: string;
  readonly before: StoredOutcome;
  readonly after: StoredOutcome;
}

export interface EvalReport {
  readonly runId: number | null;
  readonly setPath: string;
  readonly inbox: string | null;
  readonly startedAt: string;
  readonly fingerprint: string;
  readonly config: EvalConfig;
  readonly summary: EvalSummary;
  readonly results: readonly QuestionResult[];
  readonly previous: {
    readonly runId: number;
    readonly startedAt: string;
    readonly fingerprint: string;
  } | null;
  readonly regressions: readonly Regression[];
  /** Set while `question` entries are answered by keyword search instead of the RAG retriever. */
  readonly notes: readonly string[];
}

export interface EvalOptions {
  readonly inbox?: string;
  /** Retrievers per mode; default: keyword search for both. */
  readonly retrievers?: { readonly query?: Retriever; readonly question?: Retriever };
  readonly now?: Date;
  /** false: score without storing the run (still compared with the previous one). */
  readonly store?: boolean;
}

/** Message-IDs compare with the domain part case-folded, as the store addresses them. */
function idKey(id: string): string {
  const wanted = normalizeIdArgument(id);
  const at = wanted.lastIndexOf('@');
  return at < 0 ? wanted : wanted.slice(0, at) + wanted.slice(at).toLowerCase();
}

function firstRank(
  ranked: readonly string[],
  wanted: ReadonlySet<string>,
  key = (s: string) => s,
): number | null {
  const index = ranked.slice(0, SCORED_DEPTH).findIndex((id) => wanted.has(key(id)));
  return index < 0 ? null : index + 1;
}

export async function runEval(
  engine: Mailsift,
  set: QuestionSet,
  options: EvalOptions = {},
): Promise<EvalReport> {
  const retrievers = {
    query: options.retrievers?.query ?? keywordRetriever(engine),
    question: options.retrievers?.question ?? keywordRetriever(engine),
  };
  const inbox = options.inbox ?? null;
  const scope = inbox === null ? {} : { inbox };
  const startedAt = options.now ?? new Date();
  const config = evalConfig({ query: retrievers.query.name, question: retrievers.question.name });

  const resolveMessage = (id: string): string | null => {
    try {
      return engine.getMessage(id, scope).messageId;
    } catch (error) {
      if (isMailsiftError(error) && error.code === 'no_such_item' && error.param === 'messageId') return null;
      throw error;
    }
  };
  const resolveThread = (id: string): string | null => {
    try {
      return engine.getThread(id, scope).threadId;
    } catch (error) {
      if (isMailsiftError(error) && error.code === 'no_such_item' && error.param === 'threadId') return null;
      throw error;
    }
  };

  const evaluate = async (q: Question): Promise<QuestionResult> => {
    const mode = q.query === undefined ? 'question' : 'query';
    const text = q.query ?? q.question ?? '';
    const unknownIds: string[] = [];
    const messages = new Set<string>();
    const threads = new Set<string>();
    for (const id of q.messageIds ?? []) {
      const found = resolveMessage(id);
      if (found === null) unknownIds.push(id);
      else messages.add(idKey(found));
    }
    for (const id of q.threadIds ?? []) {
      const found = resolveThread(id);
      if (found === null) unknownIds.push(id);
      else threads.add(found);
    }
    const scored = q.messageIds !== undefined || q.threadIds !== undefined;
    const base = { id: q.id, mode, text, language: q.language ?? null, scored, unknownIds } as const;
    let retrieved: { messageIds: readonly string[]; threadIds: readonly string[] };
    try {
      retrieved = await retrievers[mode].retrieve(text, { ...scope, limit: MUST_NOT_FIND_DEPTH });
    } catch (error) {
      // An index that cannot answer makes every result meaningless: stop the run.
      if (!isMailsiftError(error) || error.code === 'index_unavailable' || error.code === 'internal')
        throw error;
      return {
        ...base,
        rank: null,
        pass: false,
        status: 'error',
        forbiddenFound: [],
        top: [],
        error: error.message,
      };
    }
    const ranks = [firstRank(retrieved.messageIds, messages, idKey), firstRank(retrieved.threadIds, threads)];
    const found = ranks.filter((r): r is number => r !== null);
    const rank = unknownIds.length > 0 || found.length === 0 ? null : Math.min(...found);
    const messageKeys = retrieved.messageIds.map(idKey);
    const forbiddenFound = (q.mustNotFind ?? []).flatMap(({ id, reason }) => {
      const at = Math.max(messageKeys.indexOf(idKey(id)), retrieved.threadIds.indexOf(id));
      return at < 0 ? [] : [{ id, reason, rank: at + 1 }];
    });
    const status: QuestionStatus =
      forbiddenFound.length > 0
        ? 'must_not_find'
        : unknownIds.length > 0
          ? 'unknown_ids'
          : scored && rank === null
            ? 'miss'
            : 'pass';
    return {
      ...base,
      rank,
      pass: status === 'pass',
      status,
      forbiddenFound,
      top: retrieved.messageIds.slice(0, 3),
    };
  };

  const results: QuestionResult[] = [];
  for (const question of set.questions) results.push(await evaluate(question));

  const db = engine.archive.db;
  ensureEvalTables(db);
  const setKey = sha256Hex(JSON.stringify([set.path, inbox, set.questions.map((q) => q.id).sort()])).slice(
    0,
    32,
  );
  const previous = previousRun(db, setKey);
  const regressions = previous ? compareRuns(previous.outcomes, results) : [];
  const summary = summarize(results);
  const fingerprint = configFingerprint(config);
  const runId =
    options.store === false
      ? null
      : saveRun(db, {
          setKey,
          setPath: set.path,
          inbox,
          startedAt,
          fingerprint,
          config,
          summary,
          outcomes: results.map((r) => ({ id: r.id, rank: r.rank, pass: r.pass, status: r.status })),
        });
  const notes =
    results.some((r) => r.mode === 'question') && retrievers.question.name === 'keyword'
      ? [
          'question entries use keyword search (every word required) until the RAG retriever exists; their misses are real misses',
        ]
      : [];
  return {
    runId,
    setPath: set.path,
    inbox,
    startedAt: startedAt.toISOString(),
    fingerprint,
    config,
    summary,
    results,
    previous: previous && {
      runId: previous.id,
      startedAt: previous.startedAt,
      fingerprint: previous.fingerprint,
    },
    regressions,
    notes,
  };
}

/** Every question that got worse: pass → fail, or a rank that dropped or was lost. */
export function compareRuns(
  before: ReadonlyMap<string, StoredOutcome>,
  results: readonly QuestionResult[],
): Regression[] {
  const regressions: Regression[] = [];
  for (const r of results) {
    const old = before.get(r.id);
    if (!old) continue;
    const lostPass = old.pass && !r.pass;
    const lostRank = old.rank !== null && (r.rank === null || r.rank > old.rank);
    if (lostPass || lostRank)
      regressions.push({ id: r.id, before: old, after: { rank: r.rank, pass: r.pass, status: r.status } });
  }
  return regressions;
}

function summarize(results: readonly QuestionResult[]): EvalSummary {
  const scored = results.filter((r) => r.scored);
  const recall = (list: readonly QuestionResult[], k: number): number =>
    list.length === 0 ? 0 : list.filter((r) => r.rank !== null && r.rank <= k).length / list.length;
  const byLanguage: Record<string, { scored: number; recallAt10: number }> = {};
  for (const language of new Set(scored.map((r) => r.language ?? 'untagged'))) {
    const list = scored.filter((r) => (r.language ?? 'untagged') === language);
    byLanguage[language] = { scored: list.length, recallAt10: recall(list, SCORED_DEPTH) };
  }
  const passed = results.filter((r) => r.pass).length;
  return {
    questions: results.length,
    scored: scored.length,
    passed,
    failed: results.length - passed,
    recallAt1: recall(scored, 1),
    recallAt5: recall(scored, 5),
    recallAt10: recall(scored, SCORED_DEPTH),
    mrr:
      scored.length === 0
        ? 0
        : scored.reduce((sum, r) => sum + (r.rank === null ? 0 : 1 / r.rank), 0) / scored.length,
    mustNotFindViolations: results.reduce((n, r) => n + r.forbiddenFound.length, 0),
    unknownIds: results.reduce((n, r) => n + r.unknownIds.length, 0),
    byLanguage,
  };
}

/** Exit status for CI: 1 when anything regressed, a forbidden id was found, or recall@10 is under the bar. */
export function evalExitCode(report: EvalReport, failUnder?: number): number {
  if (report.regressions.length > 0 || report.summary.mustNotFindViolations > 0) return 1;
  if (failUnder !== undefined && report.summary.recallAt10 < failUnder) return 1;
  return 0;
}

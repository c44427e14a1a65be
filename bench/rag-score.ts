// bench:rag question set and scoring: loads bench/rag-questions.yaml, checks mechanically
// that paraphrase questions share no content word or stem with their answers, and turns
// ranks into recall@5, recall@10 and MRR per category.

import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { z } from 'zod';
import { LANGUAGES, parseQuery } from '../src/analysis/index.js';
import { contentGroups } from '../src/rag/keyword-leg.js';
import type { StoryRecord } from './rag-corpus.js';

export const CATEGORIES = ['paraphrase', 'identifier', 'people-date', 'attachment', 'language'] as const;
export type Category = (typeof CATEGORIES)[number];

const ids = z.array(z.string().min(1)).min(1);
const questionSchema = z
  .strictObject({
    id: z.string().min(1),
    category: z.enum(CATEGORIES),
    question: z.string().min(1),
    language: z.string().min(2).optional(),
    messageIds: ids.optional(),
    threadIds: ids.optional(),
  })
  .refine((q) => (q.messageIds === undefined) !== (q.threadIds === undefined), {
    message: 'exactly one of messageIds or threadIds',
  });
export type BenchQuestion = z.output<typeof questionSchema>;

export function loadQuestions(path: string): BenchQuestion[] {
  const questions = z
    .array(questionSchema)
    .min(60)
    .parse(parse(readFileSync(path, 'utf8')));
  const seen = new Set<string>();
  for (const q of questions) {
    if (seen.has(q.id)) throw new Error(`${path}: question id ${q.id} appears twice`);
    seen.add(q.id);
  }
  return questions;
}

/** Every folded word and stem a text is indexed under, in every language the analyzer knows. */
function terms(text: string): Set<string> {
  const out = new Set<string>();
  for (const g of parseQuery(text, { languages: LANGUAGES }))
    g.parts.forEach((part, i) => {
      out.add(part);
      for (const stem of g.stems[i] ?? []) out.add(stem);
    });
  return out;
}

/**
 * The content words of each paraphrase question found in the text of a message it expects
 * (subject, authored body, attachment text): a paraphrase that shares one is not one.
 */
export function paraphraseLeaks(
  questions: readonly BenchQuestion[],
  records: readonly StoryRecord[],
): string[] {
  const byId = new Map(records.map((r) => [r.messageId, r]));
  const leaks: string[] = [];
  for (const q of questions.filter((x) => x.category === 'paraphrase')) {
    const targets = q.messageIds ?? [];
    for (const id of targets) {
      const record = byId.get(id);
      if (!record) {
        leaks.push(`${q.id}: ${id} is not a story message`);
        continue;
      }
      const answer = terms(`${record.subject}\n${record.body}\n${record.attachmentText}`);
      for (const g of contentGroups(q.question, LANGUAGES)) {
        const forms = [...g.parts, ...g.stems.flat()];
        const shared = forms.filter((f) => answer.has(f));
        if (shared.length > 0) leaks.push(`${q.id}: "${g.raw}" (${shared.join(', ')}) is in ${id}`);
      }
    }
  }
  return leaks;
}

export interface Outcome {
  readonly question: BenchQuestion;
  /** 1-based rank of the first expected message (or thread); null when not retrieved. */
  readonly rank: number | null;
  readonly ms: number;
  readonly top: readonly string[];
  /** --misses: where each retrieval stage ranked the answer. */
  readonly stages?: string;
}

export interface Scores {
  readonly n: number;
  readonly r5: number;
  readonly r10: number;
  readonly mrr: number;
}

export function score(outcomes: readonly Outcome[]): Scores {
  const n = outcomes.length;
  const within = (k: number) => outcomes.filter((o) => o.rank !== null && o.rank <= k).length / (n || 1);
  const mrr = outcomes.reduce((sum, o) => sum + (o.rank === null ? 0 : 1 / o.rank), 0) / (n || 1);
  return { n, r5: within(5), r10: within(10), mrr };
}

export const pct = (x: number): string => `${(x * 100).toFixed(1)}%`.padStart(6);

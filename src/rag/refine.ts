// The question refined by the configured LLM before retrieval: it reads the question with
// the filters the rules found and answers, as JSON, the filters it means (people and
// organisations, resolved against the archive's senders; a date range; an attachment) and a
// few rephrasings in the words a message answering it would use. The rephrasings are
// searched beside the question and fused with it (multi-query retrieval): a question worded
// unlike its answer ("charging us more" for "our list will rise") is what rules, stems and
// synonyms cannot bridge.

import { z } from 'zod';
import type { Db } from '../store/index.js';
import type { ChatMessage, ChatModel } from './chat.js';
import { unlessAborted } from './deadline.js';
import { type ExtractedFilters, resolvePeople } from './filters.js';

/** Rephrasings searched beside the question at most. */
export const MAX_REPHRASINGS = 3;
/** People read from a reply at most: a question names a few. */
const MAX_PEOPLE = 10;
/** Longest rephrasing kept: a question, not a paragraph. */
const MAX_REPHRASING_CHARS = 300;
/** How long retrieval waits for the LLM by default before it goes on with the rules' filters. */
export const REFINE_TIMEOUT_MS = 20_000;

export interface Refinement {
  /** The filters to apply: the LLM's, people resolved to sender addresses. */
  readonly filters: ExtractedFilters;
  readonly rephrasings: readonly string[];
  /** People the LLM named who are no known sender (or too many): left out of the filters. */
  readonly unknownPeople: readonly string[];
}

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD')
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)), 'not a calendar date')
  .nullable()
  .default(null);

const replySchema = z.object({
  people: z.array(z.string()).default([]),
  mentioned: z.array(z.string()).default([]),
  after: day,
  before: day,
  attachment: z.enum(['pdf', 'any']).nullable().default(null),
  rephrasings: z.array(z.string()).default([]),
});

const SYSTEM = `You prepare searches of the user's email archive. Reply with one JSON object and nothing else:
{"people": [...], "mentioned": [...], "after": "YYYY-MM-DD" or null, "before": "YYYY-MM-DD" or null, "attachment": "pdf", "any" or null, "rephrasings": [...]}
- people: only the senders the question asks for as authors of the wanted mail ("from X", "sent by X", "X wrote / said / replied", "X's mail", "according to X"): a name, an email address or a domain, never the user. These filter the search.
- mentioned: people, organisations or products the question names without asking for their mail (the topic: "the proposal about Dana", "the Falcon release"). These never filter, they only favour.
- after: the first day the wanted mail may be from; before: the first day it can no longer be from. Both null unless the question asks for mail sent in a period ("sent last week", "before 5 January"); a year or date that is the topic ("the 2019 audit") is no period.
- attachment: "pdf" when the question asks for a PDF, "any" when it asks for another attachment, else null.
- rephrasings: ${MAX_REPHRASINGS} short rewordings of the question in the words an email answering it would use: other words for the same things and actions; keep names, numbers and identifiers as written.
The filters found by simple rules are given; correct them where they are wrong.`;

const isoDay = (ms: number | null): string | null =>
  ms === null ? null : new Date(ms).toISOString().slice(0, 10);

/** The chat messages that ask the LLM to refine `question`. */
export function refinePrompt(question: string, rules: ExtractedFilters, now: Date): ChatMessage[] {
  const found = {
    people: rules.people,
    mentioned: rules.boosted,
    after: isoDay(rules.after),
    before: isoDay(rules.before),
    attachment: rules.hasAttachment ? (rules.attachmentType ?? 'any') : null,
  };
  return [
    { role: 'system', content: SYSTEM },
    {
      role: 'user',
      content: `Today is ${isoDay(now.getTime())}.\nRules found: ${JSON.stringify(found)}\nQuestion: ${question}`,
    },
  ];
}

/**
 * The first JSON object in a reply, whatever the model wrote around it (a Markdown fence, a
 * note with braces of its own): it ends where its opening brace closes, strings skipped.
 */
function replyObject(reply: string): unknown {
  const start = reply.indexOf('{');
  if (start < 0) throw new Error('the llm answered no JSON object');
  let depth = 0;
  let inString = false;
  for (let i = start; i < reply.length; i++) {
    const c = reply[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) {
      try {
        return JSON.parse(reply.slice(start, i + 1));
      } catch {
        break;
      }
    }
  }
  throw new Error('the llm answered JSON that does not parse');
}

/** Reads the LLM's `reply` into filters and rephrasings; throws on a reply it cannot use. */
export function readRefinement(
  db: Db,
  reply: string,
  question: string,
  rules: ExtractedFilters,
  inboxIds: readonly number[],
): Refinement {
  const parsed = replySchema.safeParse(replyObject(reply));
  if (!parsed.success)
    throw new Error(
      `the llm's filters do not fit: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  const { people: names, attachment, rephrasings } = parsed.data;
  const after = parsed.data.after === null ? null : Date.parse(`${parsed.data.after}T00:00:00Z`);
  const before = parsed.data.before === null ? null : Date.parse(`${parsed.data.before}T00:00:00Z`);
  if (after !== null && before !== null && after >= before)
    throw new Error(
      `the llm's date range is empty (after ${parsed.data.after}, before ${parsed.data.before})`,
    );
  const named = [...new Set(names.map((n) => n.trim()).filter((n) => n !== ''))].slice(0, MAX_PEOPLE);
  const { people, unknown } = resolvePeople(db, named, inboxIds);
  const mentioned = [...new Set(parsed.data.mentioned.map((n) => n.trim()).filter((n) => n !== ''))].slice(
    0,
    MAX_PEOPLE,
  );
  const boosted = resolvePeople(db, mentioned, inboxIds).people.filter((a) => !people.includes(a));
  const asked = question.trim().toLowerCase();
  const kept = [
    ...new Set(rephrasings.map((r) => r.trim()).filter((r) => r !== '' && r.toLowerCase() !== asked)),
  ]
    .filter((r) => r.length <= MAX_REPHRASING_CHARS)
    .slice(0, MAX_REPHRASINGS);
  const matched = [
    ...(after !== null || before !== null
      ? [`${parsed.data.after ?? '…'} – ${parsed.data.before ?? '…'}`]
      : []),
    ...(attachment === null ? [] : [attachment === 'pdf' ? 'PDF' : 'attachment']),
    ...people,
  ];
  return {
    filters: {
      after,
      before,
      hasAttachment: attachment !== null,
      attachmentType: attachment === 'pdf' ? 'pdf' : null,
      people,
      boosted,
      matched,
      // The question's own date words still say when, not what: the keyword leg leaves them out.
      periodWords: rules.periodWords,
    },
    rephrasings: kept,
    unknownPeople: unknown,
  };
}

/**
 * The LLM's refinement of `question`, within `timeoutMs`. Throws (the caller goes on with
 * the rules' filters and says so) when the LLM fails, is late, or answers something unusable.
 * A late call is stopped, not only left: a local model would go on writing, and the answer
 * `ask` wants next would queue behind it.
 */
export async function refineQuestion(
  db: Db,
  llm: ChatModel,
  question: string,
  rules: ExtractedFilters,
  inboxIds: readonly number[],
  { now, timeoutMs }: { now: Date; timeoutMs: number },
): Promise<Refinement> {
  const late = new AbortController();
  const timer = setTimeout(
    () => late.abort(new Error(`the llm gave no answer within ${timeoutMs} ms`)),
    timeoutMs,
  );
  try {
    const reply = await unlessAborted(
      llm.complete(refinePrompt(question, rules, now), late.signal),
      late.signal,
    );
    return readRefinement(db, reply, question, rules, inboxIds);
  } finally {
    clearTimeout(timer);
  }
}

// Question files for `mailsift eval`: YAML or JSON, validated with zod. A malformed file
// is a bad_format error naming the entry (index and id), the field and, for YAML, the line.

import { readFileSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { z } from 'zod';
import { MailsiftError } from '../core/errors.js';

/** Largest question file read: thousands of questions fit in a few hundred KB. */
export const MAX_QUESTION_FILE_BYTES = 8 * 1024 * 1024;

const idList = z.array(z.string().trim().min(1)).min(1);

export const questionSchema = z
  .strictObject({
    id: z.union([z.string().trim().min(1), z.number()]).transform(String),
    query: z.string().trim().min(1).optional().describe('agent search: one query string'),
    question: z.string().trim().min(1).optional().describe('a question in words (retrieve/ask)'),
    messageIds: idList.optional(),
    threadIds: idList.optional().describe('thread ids, or Message-IDs standing for their thread'),
    mustNotFind: z
      .array(z.strictObject({ id: z.string().trim().min(1), reason: z.string().trim().min(1) }))
      .min(1)
      .optional(),
    language: z.string().trim().min(2).max(16).optional(),
  })
  .superRefine((entry, ctx) => {
    if ((entry.query === undefined) === (entry.question === undefined))
      ctx.addIssue({
        code: 'custom',
        path: ['query'],
        message: 'exactly one of query or question is required',
      });
    if (!entry.messageIds && !entry.threadIds && !entry.mustNotFind)
      ctx.addIssue({
        code: 'custom',
        path: ['messageIds'],
        message: 'expected messageIds, threadIds or mustNotFind',
      });
  });

export type Question = z.output<typeof questionSchema>;

export interface QuestionSet {
  /** Absolute path of the file. */
  readonly path: string;
  readonly questions: readonly Question[];
}

/** Reads and validates a question file (`.yaml`/`.yml`, or `.json`). */
export function loadQuestionFile(path: string): QuestionSet {
  const absolute = resolve(path);
  let text: string;
  try {
    text = readFileSync(absolute, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'not_found' : 'unreadable';
    throw new MailsiftError(code, `cannot read question file ${absolute}`, { param: path, cause: error });
  }
  if (text.length > MAX_QUESTION_FILE_BYTES)
    throw new MailsiftError('bad_format', `question file larger than ${MAX_QUESTION_FILE_BYTES} bytes`, {
      param: path,
    });
  const isJson = extname(absolute).toLowerCase() === '.json';
  return { path: absolute, questions: parseQuestions(text, isJson ? 'json' : 'yaml', path) };
}

/** Parses question-file text; `param` names the file in errors. */
export function parseQuestions(text: string, format: 'yaml' | 'json', param: string): Question[] {
  // YAML is a superset of JSON, so one parser gives line numbers for both.
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true });
  const syntax = doc.errors[0];
  if (syntax) {
    const at = syntax.linePos?.[0];
    throw new MailsiftError(
      'bad_format',
      `${param}${at ? `:${at.line}:${at.col}` : ''}: not valid ${format.toUpperCase()}: ${syntax.message.split('\n')[0]}`,
      { param },
    );
  }
  const data = doc.toJS() as unknown;
  const wrapped = data !== null && typeof data === 'object' && !Array.isArray(data);
  const entries = wrapped ? (data as Record<string, unknown>).questions : data;
  const base: Array<string | number> = wrapped ? ['questions'] : [];
  if (!Array.isArray(entries))
    throw new MailsiftError('bad_format', `${param}: expected a list of questions (or {questions: [...]})`, {
      param,
    });

  const lineOf = (path: ReadonlyArray<string | number>): number | undefined => {
    for (let depth = path.length; depth >= 0; depth--) {
      const node = doc.getIn(path.slice(0, depth), true) as { range?: [number, number, number] } | undefined;
      if (node?.range) return lineCounter.linePos(node.range[0]).line;
    }
    return undefined;
  };

  const seen = new Map<string, number>();
  return entries.map((entry, index) => {
    const parsed = questionSchema.safeParse(entry);
    const rawId = (entry as { id?: unknown } | null)?.id;
    const label = `entry ${index + 1}${typeof rawId === 'string' || typeof rawId === 'number' ? ` (id '${rawId}')` : ''}`;
    if (!parsed.success) {
      const issue = parsed.error.issues[0] as z.core.$ZodIssue;
      const field = issue.path.join('.') || '(entry)';
      const line = lineOf([...base, index, ...(issue.path as Array<string | number>)]);
      throw new MailsiftError(
        'bad_format',
        `${param}${line ? `:${line}` : ''}: ${label}, field '${field}': ${issue.message}`,
        { param: `${param}[${index}].${field}` },
      );
    }
    const previous = seen.get(parsed.data.id);
    if (previous !== undefined) {
      const line = lineOf([...base, index, 'id']);
      throw new MailsiftError(
        'bad_format',
        `${param}${line ? `:${line}` : ''}: ${label}, field 'id': duplicate of entry ${previous + 1}`,
        { param: `${param}[${index}].id` },
      );
    }
    seen.set(parsed.data.id, index);
    return parsed.data;
  });
}

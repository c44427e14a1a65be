// Parameter schemas of search and list (exported: they also generate the HTTP API's
// OpenAPI document) and their validation into typed requests with MailsiftError codes.

import { z } from 'zod';
import type { AttachmentFormat } from '../attachments/index.js';
import { MailsiftError } from '../core/errors.js';

/** Longest query accepted: agents paste identifiers and phrases, not documents. */
export const MAX_QUERY_CHARS = 1000;
export const MAX_LIMIT = 100;
export const DEFAULT_LIMIT = 10;

const dateParam = z
  .union([z.string(), z.date()])
  .describe('ISO 8601 date or date-time; an instant, compared with the message date');

// A Record, so the compiler names any format extraction gains that this list misses.
const FORMAT_NAMES: Record<AttachmentFormat, true> = {
  pdf: true,
  docx: true,
  xlsx: true,
  pptx: true,
  odt: true,
  ods: true,
  odp: true,
  rtf: true,
  html: true,
  text: true,
  csv: true,
  markdown: true,
  ics: true,
  vcard: true,
  message: true,
  zip: true,
  tnef: true,
  image: true,
  other: true,
};

/** Extraction formats `attachmentType` accepts by name: every format extraction records. */
export const ATTACHMENT_FORMATS = Object.keys(FORMAT_NAMES) as readonly AttachmentFormat[];

/** A MIME type (`application/pdf`) or a whole top-level type (`image/*`). */
const MIME_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/([a-z0-9][a-z0-9!#$&^_.+-]*|\*)$/;

const limitParam = z.number().int().min(1).max(MAX_LIMIT).describe(`results per page, 1–${MAX_LIMIT}`);

export const recencySchema = z.strictObject({
  maxBoost: z.number().min(1).max(2).describe('recency multiplier of a brand-new message, M in [1, 2]'),
  halfLifeDays: z.number().positive().max(36_500).describe('age at which the boost above 1 halves'),
});

export const searchParamsSchema = z.strictObject({
  q: z.string().max(MAX_QUERY_CHARS).describe('one query string: no operators, every token required'),
  inbox: z.string().min(1).optional().describe('inbox name; omitted: every inbox of the archive'),
  limit: limitParam.optional(),
  pageToken: z.string().min(1).optional().describe('opaque token from the previous page'),
  before: dateParam.optional(),
  after: dateParam.optional(),
  explain: z.boolean().optional().describe('add per-field contributions and the recency factor to each hit'),
  recency: recencySchema.partial().optional(),
});

export const listParamsSchema = z.strictObject({
  inbox: z.string().min(1).optional(),
  from: z
    .string()
    .min(1)
    .max(MAX_QUERY_CHARS)
    .optional()
    .describe('prefix match on sender name and address tokens'),
  to: z
    .string()
    .min(1)
    .max(MAX_QUERY_CHARS)
    .optional()
    .describe('prefix match on recipient tokens (to, cc, bcc)'),
  subject: z.string().min(1).max(MAX_QUERY_CHARS).optional().describe('prefix match on subject tokens'),
  labels: z.array(z.string().min(1)).optional().describe('every label must be present'),
  before: dateParam.optional(),
  after: dateParam.optional(),
  hasAttachment: z.boolean().optional(),
  attachmentType: z
    .string()
    .min(1)
    .max(127)
    .optional()
    .describe(
      `a non-inline attachment of this kind: an extraction format (${ATTACHMENT_FORMATS.join(', ')}) or its detected MIME type (application/pdf, image/*)`,
    ),
  threadId: z.string().min(1).optional(),
  ascending: z.boolean().optional().describe('oldest first'),
  includeSpam: z.boolean().optional(),
  includeTrash: z.boolean().optional(),
  limit: limitParam.optional(),
  pageToken: z.string().min(1).optional(),
});

export type SearchParams = z.input<typeof searchParamsSchema>;
export type ListParams = z.input<typeof listParamsSchema>;

export interface DateRange {
  /** Inclusive lower bound, epoch ms. */
  readonly after: number | null;
  /** Exclusive upper bound, epoch ms. */
  readonly before: number | null;
}

export const DEFAULT_RECENCY = { maxBoost: 1.5, halfLifeDays: 30 } as const;

export interface SearchRequest extends DateRange {
  readonly q: string;
  readonly inbox: string | null;
  readonly limit: number;
  readonly pageToken: string | null;
  readonly explain: boolean;
  readonly recency: { readonly maxBoost: number; readonly halfLifeDays: number };
}

/** `attachmentType` resolved: an extraction format, or a detected MIME type (`image/*` allowed). */
export type AttachmentTypeFilter = { readonly format: AttachmentFormat } | { readonly mimeType: string };

export interface ListRequest extends DateRange {
  readonly inbox: string | null;
  readonly from: string | null;
  readonly to: string | null;
  readonly subject: string | null;
  readonly labels: readonly string[];
  readonly hasAttachment: boolean | null;
  readonly attachmentType: AttachmentTypeFilter | null;
  readonly threadId: string | null;
  readonly ascending: boolean;
  readonly includeSpam: boolean;
  readonly includeTrash: boolean;
  readonly limit: number;
  readonly pageToken: string | null;
}

/**
 * `params` validated by `schema`: an unknown field is `unknown_parameter`, any other problem
 * `invalid_argument`, both naming the field; `whole` names the object itself (a request
 * body, say) when it is not an object at all.
 */
export function parseWith<S extends z.ZodType>(schema: S, params: unknown, whole = 'params'): z.output<S> {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) {
    throw new MailsiftError('invalid_argument', `${whole} must be a JSON object`, { param: whole });
  }
  const result = schema.safeParse(params);
  if (result.success) return result.data;
  const unknown = result.error.issues.find((issue) => issue.code === 'unrecognized_keys');
  if (unknown && unknown.code === 'unrecognized_keys') {
    // Echoed back to the caller: a hostile field name stays short.
    const key = (unknown.keys[0] ?? '').slice(0, 100);
    throw new MailsiftError('unknown_parameter', `unknown parameter '${key}'`, { param: key });
  }
  const issue = result.error.issues[0];
  const param = issue?.path.join('.') || whole;
  throw new MailsiftError('invalid_argument', `${param}: ${issue?.message ?? 'invalid value'}`, { param });
}

function toInstant(value: string | Date | undefined, param: string): number | null {
  if (value === undefined) return null;
  const time = value instanceof Date ? value.getTime() : parseDate(value);
  if (!Number.isFinite(time)) {
    throw new MailsiftError(
      'invalid_argument',
      `${param}: '${String(value)}' is not a date (use ISO 8601, e.g. 2024-05-01)`,
      { param },
    );
  }
  return time;
}

/** ISO 8601 only: Date.parse also accepts locale strings whose meaning varies by host. */
function parseDate(value: string): number {
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(value.trim()))
    return Number.NaN;
  return Date.parse(value.trim());
}

function dateRange(before: string | Date | undefined, after: string | Date | undefined): DateRange {
  const range = { before: toInstant(before, 'before'), after: toInstant(after, 'after') };
  if (range.before !== null && range.after !== null && range.before <= range.after) {
    throw new MailsiftError('invalid_argument', 'before must be later than after', { param: 'before' });
  }
  return range;
}

export function validateSearchParams(params: unknown): SearchRequest {
  const p = parseWith(searchParamsSchema, params);
  return {
    q: p.q,
    inbox: p.inbox ?? null,
    limit: p.limit ?? DEFAULT_LIMIT,
    pageToken: p.pageToken ?? null,
    explain: p.explain ?? false,
    recency: { ...DEFAULT_RECENCY, ...p.recency },
    ...dateRange(p.before, p.after),
  };
}

function attachmentType(value: string | undefined): AttachmentTypeFilter | null {
  if (value === undefined) return null;
  const kind = value.trim().toLowerCase();
  const format = ATTACHMENT_FORMATS.find((f) => f === kind);
  if (format) return { format };
  if (MIME_TYPE.test(kind)) return { mimeType: kind };
  throw new MailsiftError(
    'invalid_argument',
    `attachmentType: '${value.slice(0, 60)}' is neither a format (${ATTACHMENT_FORMATS.join(', ')}) nor a MIME type such as application/pdf`,
    { param: 'attachmentType' },
  );
}

export function validateListParams(params: unknown): ListRequest {
  const p = parseWith(listParamsSchema, params);
  return {
    inbox: p.inbox ?? null,
    from: p.from ?? null,
    to: p.to ?? null,
    subject: p.subject ?? null,
    labels: (p.labels ?? []).map((l) => l.trim().toLowerCase()),
    hasAttachment: p.hasAttachment ?? null,
    attachmentType: attachmentType(p.attachmentType),
    threadId: p.threadId ?? null,
    ascending: p.ascending ?? false,
    includeSpam: p.includeSpam ?? false,
    includeTrash: p.includeTrash ?? false,
    limit: p.limit ?? DEFAULT_LIMIT,
    pageToken: p.pageToken ?? null,
    ...dateRange(p.before, p.after),
  };
}

// Parameters of search and list: what each one takes (exported: the HTTP API's schemas and
// OpenAPI document are built from the same specs) and their validation into typed requests
// with MailsiftError codes. No zod here: every CLI search, list and show loads this module,
// and zod's ~100 modules took longer to load than node itself takes to start.

import type { AttachmentFormat } from '../attachments/index.js';
import { MailsiftError } from '../core/errors.js';

/** Longest query accepted: agents paste identifiers and phrases, not documents. */
export const MAX_QUERY_CHARS = 1000;
export const MAX_LIMIT = 100;
export const DEFAULT_LIMIT = 10;

/** One parameter: its type, bounds (inclusive) and description. */
export type ParamSpec =
  | { readonly type: 'string'; readonly min?: number; readonly max?: number; readonly description?: string }
  | { readonly type: 'integer'; readonly min: number; readonly max: number; readonly description?: string }
  /** `positive`: above 0. */
  | {
      readonly type: 'number';
      readonly min?: number;
      readonly positive?: true;
      readonly max: number;
      readonly description?: string;
    }
  | { readonly type: 'boolean'; readonly description?: string }
  /** A list of non-empty strings. */
  | { readonly type: 'strings'; readonly description?: string }
  /** An ISO 8601 string or a Date. */
  | { readonly type: 'date'; readonly description: string }
  /** An object of these parameters, each optional, no other. */
  | { readonly type: 'object'; readonly fields: ParamSpecs; readonly description?: string };

export type ParamSpecs = Readonly<Record<string, ParamSpec>>;

type ParamValue<S extends ParamSpec> = S extends { type: 'string' }
  ? string
  : S extends { type: 'integer' | 'number' }
    ? number
    : S extends { type: 'boolean' }
      ? boolean
      : S extends { type: 'strings' }
        ? string[]
        : S extends { type: 'date' }
          ? string | Date
          : S extends { type: 'object'; fields: infer F extends ParamSpecs }
            ? { [K in keyof F]?: ParamValue<F[K]> | undefined }
            : never;

/** What `specs` accept: `Required` must be given, the rest may be. */
export type ParamsOf<Specs extends ParamSpecs, Required extends keyof Specs = never> = {
  [K in Required]: ParamValue<Specs[K]>;
} & { [K in Exclude<keyof Specs, Required>]?: ParamValue<Specs[K]> | undefined };

const DATE_PARAM = {
  type: 'date',
  description: 'ISO 8601 date or date-time; an instant, compared with the message date',
} as const;

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

const LIMIT_PARAM = {
  type: 'integer',
  min: 1,
  max: MAX_LIMIT,
  description: `results per page, 1–${MAX_LIMIT}`,
} as const;

const RECENCY_PARAMS = {
  maxBoost: {
    type: 'number',
    min: 1,
    max: 2,
    description: 'recency multiplier of a brand-new message, M in [1, 2]',
  },
  halfLifeDays: {
    type: 'number',
    positive: true,
    max: 36_500,
    description: 'age at which the boost above 1 halves',
  },
} as const satisfies ParamSpecs;

export const SEARCH_PARAMS = {
  q: {
    type: 'string',
    max: MAX_QUERY_CHARS,
    description: 'one query string: no operators, every token required',
  },
  inbox: { type: 'string', min: 1, description: 'inbox name; omitted: every inbox of the archive' },
  limit: LIMIT_PARAM,
  pageToken: { type: 'string', min: 1, description: 'opaque token from the previous page' },
  before: DATE_PARAM,
  after: DATE_PARAM,
  explain: {
    type: 'boolean',
    description: 'add per-field contributions and the recency factor to each hit',
  },
  recency: { type: 'object', fields: RECENCY_PARAMS },
} as const satisfies ParamSpecs;

/** Search's one required parameter. */
export const SEARCH_REQUIRED = ['q'] as const;

export const LIST_PARAMS = {
  inbox: { type: 'string', min: 1 },
  from: {
    type: 'string',
    min: 1,
    max: MAX_QUERY_CHARS,
    description: 'prefix match on sender name and address tokens',
  },
  to: {
    type: 'string',
    min: 1,
    max: MAX_QUERY_CHARS,
    description: 'prefix match on recipient tokens (to, cc, bcc)',
  },
  subject: { type: 'string', min: 1, max: MAX_QUERY_CHARS, description: 'prefix match on subject tokens' },
  labels: { type: 'strings', description: 'every label must be present' },
  before: DATE_PARAM,
  after: DATE_PARAM,
  hasAttachment: { type: 'boolean' },
  attachmentType: {
    type: 'string',
    min: 1,
    max: 127,
    description: `a non-inline attachment of this kind: an extraction format (${ATTACHMENT_FORMATS.join(', ')}) or its detected MIME type (application/pdf, image/*)`,
  },
  threadId: { type: 'string', min: 1 },
  ascending: { type: 'boolean', description: 'oldest first' },
  includeSpam: { type: 'boolean' },
  includeTrash: { type: 'boolean' },
  limit: LIMIT_PARAM,
  pageToken: { type: 'string', min: 1 },
} as const satisfies ParamSpecs;

export type SearchParams = ParamsOf<typeof SEARCH_PARAMS, (typeof SEARCH_REQUIRED)[number]>;
export type ListParams = ParamsOf<typeof LIST_PARAMS>;

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

const invalid = (param: string, expected: string): MailsiftError =>
  new MailsiftError('invalid_argument', `${param}: expected ${expected}`, { param });

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

const bounds = (min: number | undefined, max: number | undefined, unit: string): string =>
  min !== undefined && max !== undefined
    ? ` of ${min} to ${max}${unit}`
    : max !== undefined
      ? ` of at most ${max}${unit}`
      : min !== undefined
        ? ` of at least ${min}${unit}`
        : '';

/** `value` checked against `spec`; `param` names it in the error. */
function checkParam(spec: ParamSpec, value: unknown, param: string): void {
  switch (spec.type) {
    case 'string':
      if (
        typeof value !== 'string' ||
        value.length < (spec.min ?? 0) ||
        value.length > (spec.max ?? Number.POSITIVE_INFINITY)
      )
        throw invalid(param, `a string${bounds(spec.min, spec.max, ' characters')}`);
      return;
    case 'integer':
      if (!Number.isSafeInteger(value) || (value as number) < spec.min || (value as number) > spec.max)
        throw invalid(param, `an integer from ${spec.min} to ${spec.max}`);
      return;
    case 'number':
      if (
        typeof value !== 'number' ||
        !Number.isFinite(value) ||
        value > spec.max ||
        (spec.min !== undefined && value < spec.min) ||
        (spec.positive && value <= 0)
      )
        throw invalid(param, `a number ${spec.positive ? 'above 0' : `from ${spec.min}`} up to ${spec.max}`);
      return;
    case 'boolean':
      if (typeof value !== 'boolean') throw invalid(param, 'true or false');
      return;
    case 'strings':
      if (!Array.isArray(value)) throw invalid(param, 'a list of strings');
      value.forEach((item, i) => {
        if (typeof item !== 'string' || item === '') throw invalid(`${param}.${i}`, 'a non-empty string');
      });
      return;
    case 'date':
      if (typeof value !== 'string' && !(value instanceof Date)) throw invalid(param, 'an ISO 8601 date');
      return;
    case 'object':
      if (!isRecord(value)) throw invalid(param, 'an object');
      checkParams(spec.fields, value, [], param);
  }
}

/** Unknown fields first (`unknown_parameter`), then each field in the specs' order. */
function checkParams(
  specs: ParamSpecs,
  params: Record<string, unknown>,
  required: readonly string[],
  prefix = '',
): void {
  const unknown = Object.keys(params).find((key) => !Object.hasOwn(specs, key));
  if (unknown !== undefined) {
    // Echoed back to the caller: a hostile field name stays short.
    const key = unknown.slice(0, 100);
    throw new MailsiftError('unknown_parameter', `unknown parameter '${key}'`, { param: key });
  }
  for (const [name, spec] of Object.entries(specs)) {
    const param = prefix ? `${prefix}.${name}` : name;
    const value = params[name];
    // A missing required value fails its own check, which names what was expected.
    if (value !== undefined || required.includes(name)) checkParam(spec, value, param);
  }
}

/**
 * `params` validated by `specs`: an unknown field is `unknown_parameter`, any other problem
 * `invalid_argument`, both naming the field.
 */
function parseParams<P>(specs: ParamSpecs, params: unknown, required: readonly string[] = []): P {
  if (!isRecord(params))
    throw new MailsiftError('invalid_argument', 'params must be a JSON object', { param: 'params' });
  checkParams(specs, params, required);
  return params as P;
}

/** An ISO 8601 date (or a Date) as ms since epoch, null when absent; a typed error naming `param` otherwise. */
export function toInstant(value: string | Date | undefined, param: string): number | null {
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
  const p = parseParams<SearchParams>(SEARCH_PARAMS, params, SEARCH_REQUIRED);
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
  const p = parseParams<ListParams>(LIST_PARAMS, params);
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

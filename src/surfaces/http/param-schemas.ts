// The search layer's parameter specs as zod schemas, for what the HTTP API and MCP take in
// (query coercion, request bodies, tool inputs) and describe (the OpenAPI document); and zod
// validation of a request body with the search layer's error codes.

import { z } from 'zod';
import { MailsiftError } from '../../core/errors.js';
import { DECISION_PARAMS } from '../../decisions/index.js';
import {
  LIST_PARAMS,
  type ParamSpec,
  type ParamSpecs,
  SEARCH_PARAMS,
  SEARCH_REQUIRED,
} from '../../search/index.js';

const described = <T extends z.ZodType>(schema: T, description: string | undefined): T =>
  description === undefined ? schema : schema.describe(description);

function zodParam(spec: ParamSpec): z.ZodType {
  switch (spec.type) {
    case 'string': {
      let schema = z.string();
      if (spec.min !== undefined) schema = schema.min(spec.min);
      if (spec.max !== undefined) schema = schema.max(spec.max);
      return described(schema, spec.description);
    }
    case 'integer':
      return described(z.number().int().min(spec.min).max(spec.max), spec.description);
    case 'number': {
      let schema = z.number();
      if (spec.min !== undefined) schema = schema.min(spec.min);
      if (spec.positive) schema = schema.positive();
      return described(schema.max(spec.max), spec.description);
    }
    case 'boolean':
      return described(z.boolean(), spec.description);
    case 'strings':
      return described(z.array(z.string().min(1)), spec.description);
    case 'date':
      return z.union([z.string(), z.date()]).describe(spec.description);
    case 'object':
      return described(zodParams(spec.fields).partial(), spec.description);
  }
}

/** A strict object of `specs`, each optional but those `required`. */
function zodParams<S extends ParamSpecs>(
  specs: S,
  required: readonly string[] = [],
): z.ZodObject<{ [K in keyof S]: z.ZodType }, z.core.$strict> {
  const shape = Object.fromEntries(
    Object.entries(specs).map(([name, spec]) => {
      const schema = zodParam(spec);
      return [name, required.includes(name) ? schema : schema.optional()];
    }),
  );
  return z.strictObject(shape) as z.ZodObject<{ [K in keyof S]: z.ZodType }, z.core.$strict>;
}

export const searchParamsSchema = zodParams(SEARCH_PARAMS, SEARCH_REQUIRED);
export const listParamsSchema = zodParams(LIST_PARAMS);
export const decisionParamsSchema = zodParams(DECISION_PARAMS);

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

// Query strings and JSON bodies to typed parameters. Decoding is strict (a malformed escape
// or bytes that are not UTF-8 are a 400 naming the parameter); types come from the request
// schema's JSON Schema, so the coercion cannot drift from the validation.

import { z } from 'zod';
import { MailsiftError } from '../../core/errors.js';

/** Longest query string accepted: the longest parameter (q) is 1,000 characters, escaped up to 9 bytes each. */
const MAX_QUERY_STRING = 16 * 1024;

type Kind = 'string' | 'integer' | 'number' | 'boolean' | 'array';

function decode(text: string, name: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    throw new MailsiftError('invalid_argument', `${name}: not a valid percent-encoded UTF-8 value`, {
      param: name || 'query',
    });
  }
}

/** The raw query string of a request URL, split into decoded name → values. */
export function parseQueryString(url: string): Map<string, string[]> {
  const start = url.indexOf('?');
  const raw = start < 0 ? '' : (url.slice(start + 1).split('#')[0] ?? '');
  if (raw.length > MAX_QUERY_STRING) {
    throw new MailsiftError('invalid_argument', `query string longer than ${MAX_QUERY_STRING} characters`, {
      param: 'query',
    });
  }
  const params = new Map<string, string[]>();
  for (const pair of raw.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decode(eq < 0 ? pair : pair.slice(0, eq), 'query');
    const value = decode(eq < 0 ? '' : pair.slice(eq + 1), name);
    params.set(name, [...(params.get(name) ?? []), value]);
  }
  return params;
}

const kindsCache = new WeakMap<z.ZodType, Map<string, Kind>>();

function kinds(schema: z.ZodType): Map<string, Kind> {
  let map = kindsCache.get(schema);
  if (!map) {
    const json = z.toJSONSchema(schema, { io: 'input' }) as {
      properties?: Record<string, { type?: string }>;
    };
    map = new Map(
      Object.entries(json.properties ?? {}).map(([name, prop]) => [
        name,
        (prop.type as Kind | undefined) ?? 'string',
      ]),
    );
    kindsCache.set(schema, map);
  }
  return map;
}

function coerce(kind: Kind, name: string, values: string[]): unknown {
  if (kind === 'array')
    return values
      .flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter((v) => v !== '');
  if (values.length > 1) {
    throw new MailsiftError('invalid_argument', `${name}: given ${values.length} times, expected once`, {
      param: name,
    });
  }
  const value = values[0] ?? '';
  if (kind === 'boolean') {
    if (value === 'true' || value === '') return true;
    if (value === 'false') return false;
    throw new MailsiftError(
      'invalid_argument',
      `${name}: expected true or false, got '${value.slice(0, 40)}'`,
      {
        param: name,
      },
    );
  }
  if (kind === 'integer' || kind === 'number') {
    if (!/^-?\d+(\.\d+)?$/.test(value.trim())) {
      throw new MailsiftError('invalid_argument', `${name}: expected a number, got '${value.slice(0, 40)}'`, {
        param: name,
      });
    }
    return Number(value);
  }
  return value;
}

/**
 * Typed parameters for `schema` from a query string. Unknown names are rejected here with
 * the same code the search layer uses; values are validated by the operation itself.
 */
export function queryParams(url: string, schema: z.ZodType): Record<string, unknown> {
  const known = kinds(schema);
  const params: Record<string, unknown> = {};
  for (const [name, values] of parseQueryString(url)) {
    const kind = known.get(name);
    if (!kind)
      throw new MailsiftError('unknown_parameter', `unknown parameter '${name.slice(0, 100)}'`, {
        param: name.slice(0, 100),
      });
    params[name] = coerce(kind, name, values);
  }
  return params;
}

// Test support for the HTTP and MCP surfaces: an archive built by ingesting the fixtures of
// test/fixtures/http (inboxes acme and other), and a JSON Schema check for the subset of
// JSON Schema that the OpenAPI document uses, to hold responses to the document.

import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Mailsift } from '../../engine.js';
import { ensureKeywordIndex, keywordIndexHook } from '../../index/index.js';

export const HTTP_FIXTURES = join(import.meta.dirname, '../../../test/fixtures/http');
/** Invented threads that decide (and one that does not), for the decisions surfaces. */
export const DECISION_FIXTURES = join(import.meta.dirname, '../../../test/fixtures/decisions');

export interface FixtureArchive {
  readonly engine: Mailsift;
  readonly path: string;
  close(): void;
}

/** Builds a fresh archive holding the fixture inboxes (and each `extra` folder as the inbox it is keyed by); close() removes it. */
export async function fixtureArchive(extra: Readonly<Record<string, string>> = {}): Promise<FixtureArchive> {
  const root = mkdtempSync(join(tmpdir(), 'mailsift-http-'));
  cpSync(HTTP_FIXTURES, join(root, 'mail'), { recursive: true });
  const path = join(root, 'archive.db');
  const engine = Mailsift.open(path);
  ensureKeywordIndex(engine.archive.db);
  if (!engine.archive.hooks.includes(keywordIndexHook)) engine.archive.hooks.push(keywordIndexHook);
  for (const inbox of ['acme', 'other'])
    await engine.ingest([join(root, 'mail', inbox)], { inbox, workers: 0 });
  for (const [inbox, folder] of Object.entries(extra)) await engine.ingest([folder], { inbox, workers: 0 });
  return {
    engine,
    path,
    close() {
      engine.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

type Schema = Record<string, unknown>;

/** Problems of `value` against `schema` (empty when it conforms); `$ref`s resolve in `doc`. */
export function schemaErrors(value: unknown, schema: Schema, doc: Schema, at = '$'): string[] {
  if (typeof schema.$ref === 'string') {
    const target = schema.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], doc);
    return schemaErrors(value, target as Schema, doc, at);
  }
  if (Array.isArray(schema.anyOf)) {
    const ok = (schema.anyOf as Schema[]).some((s) => schemaErrors(value, s, doc, at).length === 0);
    return ok ? [] : [`${at}: matches no anyOf branch`];
  }
  if ('const' in schema && value !== schema.const) return [`${at}: expected ${JSON.stringify(schema.const)}`];
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) return [`${at}: not in enum`];
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  const actual =
    value === null
      ? 'null'
      : Array.isArray(value)
        ? 'array'
        : Number.isInteger(value)
          ? 'integer'
          : typeof value;
  if (types.length > 0 && !types.some((t) => t === actual || (t === 'number' && actual === 'integer'))) {
    return [`${at}: expected ${types.join('|')}, got ${actual}`];
  }
  const errors: string[] = [];
  if (actual === 'array' && schema.items) {
    for (const [i, item] of (value as unknown[]).entries()) {
      errors.push(...schemaErrors(item, schema.items as Schema, doc, `${at}[${i}]`));
    }
  }
  if (actual === 'object') {
    const object = value as Record<string, unknown>;
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    for (const key of (schema.required ?? []) as string[])
      if (!(key in object)) errors.push(`${at}.${key}: missing`);
    for (const [key, inner] of Object.entries(object)) {
      const property = properties[key];
      if (property) errors.push(...schemaErrors(inner, property, doc, `${at}.${key}`));
      else if (schema.additionalProperties === false) errors.push(`${at}.${key}: not in the schema`);
      else if (typeof schema.additionalProperties === 'object') {
        errors.push(...schemaErrors(inner, schema.additionalProperties as Schema, doc, `${at}.${key}`));
      }
    }
  }
  return errors;
}

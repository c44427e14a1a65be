// Helpers shared by this module's tests: drain a source, read entries as text.
import type { MailSource, SourceEntry } from '../core/index.js';

export async function collect(source: MailSource): Promise<SourceEntry[]> {
  const entries: SourceEntry[] = [];
  for await (const entry of source.scan()) entries.push(entry);
  return entries;
}

export async function readText(entry: SourceEntry): Promise<string> {
  return (await entry.read()).toString('utf8');
}

export const FIXTURES = new URL('../../test/fixtures/', import.meta.url).pathname;

// Loads the cleaning fixtures (test/fixtures/clean/<client>/<case>.eml + .expected.txt) for
// the fixture test and the benchmark; the client is the folder, the language a header.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseMessage } from '../parse/index.js';

export interface CleanFixture {
  /** Path below the fixture root without extension, e.g. 'gmail/reply-it'. */
  readonly name: string;
  readonly client: string;
  readonly language: string;
  readonly text: string | null;
  readonly html: string | null;
  readonly expected: string;
}

/** Trailing whitespace per line and surrounding blank lines never count as a difference. */
export function normalizeAuthored(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/^\n+|\n+$/g, '');
}

function emlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return emlFiles(path);
    return entry.name.endsWith('.eml') ? [path] : [];
  });
}

export async function loadCleanFixtures(root: string): Promise<CleanFixture[]> {
  const fixtures: CleanFixture[] = [];
  for (const path of emlFiles(root).sort()) {
    const bytes = readFileSync(path);
    const parsed = await parseMessage(bytes);
    const name = relative(root, path).replace(/\.eml$/, '');
    const language = /^X-Fixture-Language:\s*(\S+)/im.exec(bytes.toString('latin1'))?.[1] ?? 'unknown';
    fixtures.push({
      name,
      client: name.split('/')[0] ?? 'unknown',
      language,
      text: parsed.text,
      html: parsed.html,
      expected: normalizeAuthored(readFileSync(path.replace(/\.eml$/, '.expected.txt'), 'utf8')),
    });
  }
  return fixtures;
}

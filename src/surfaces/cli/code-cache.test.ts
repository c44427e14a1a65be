// The bundled bin compiles its chunks from V8's code cache: written by a command's first run,
// used (not written again) by the next, replaced when V8 rejects it, never changing an answer.

import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../test/e2e/cli.js';
import { tempDir } from '../../../test/temp.js';
import { commandOf } from './code-cache.js';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'search');

describe('commandOf', () => {
  it.each([
    [['search', 'INV-4471'], 'search'],
    [['--db', 'search.db', 'search', 'x'], 'search'],
    [['--json', 'list', '--from', 'a'], 'list'],
    [['--help'], 'help'],
    [[], 'help'],
    [['../evil'], 'other'],
  ])('%j -> %s', (args, command) => {
    expect(commandOf(args)).toBe(command);
  });
});

describe('the code cache (built bin)', () => {
  const dir = tempDir('mailsift-code-cache-');
  const db = join(dir, 'a.db');
  const caches = join(dir, 'caches');
  const env = { MAILSIFT_CODE_CACHE_DIR: caches };
  const search = () => runCli(['search', 'march statement', '--db', db, '--json'], env);
  const searchCaches = (): Map<string, number> => {
    const [version] = readdirSync(caches);
    const folder = join(caches, version as string, 'search');
    return new Map(readdirSync(folder).map((f) => [join(folder, f), statSync(join(folder, f)).mtimeMs]));
  };

  beforeAll(() => {
    expect(runCli(['ingest', FIXTURES, '--db', db, '--no-embed'], env).status).toBe(0);
  }, 60_000);

  it('is written by a command’s first run and used, unchanged, by the next', () => {
    const first = search();
    expect(first.status, first.stderr).toBe(0);
    const written = searchCaches();
    expect(written.size).toBeGreaterThan(3);
    const second = search();
    expect(second.stdout).toBe(first.stdout);
    expect(searchCaches()).toEqual(written);
  });

  it('is replaced when V8 rejects it, and the answer stays the same', () => {
    const before = search().stdout;
    const [file] = [...searchCaches().keys()].sort((a, b) => statSync(b).size - statSync(a).size);
    writeFileSync(file as string, 'not a code cache');
    const after = search();
    expect(after.status, after.stderr).toBe(0);
    expect(after.stdout).toBe(before);
    expect(statSync(file as string).size).toBeGreaterThan(100);
  });
});

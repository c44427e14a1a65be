// snowball-stemmers, loaded with V8's code cache of it. The package is one 860 KB CommonJS
// file: compiling it and a language's stemmer took ~50 ms of every CLI search (~100 under
// load) for a query of a word or two; from the cache, ~10. (Node 22's enableCompileCache
// keeps such a cache for every module; Node 20 has no switch for it.) The cache sits in
// node_modules/.cache, written by whoever may write there; anywhere else compiles as before.

import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';

export type Snowball = typeof import('snowball-stemmers').default;

const require = createRequire(import.meta.url);

interface Loaded {
  readonly snowball: Snowball;
  readonly script: Script;
  readonly cacheFile: string;
  /** Whether V8 used the cache file, or this process wrote it: nothing more to write. */
  cached: boolean;
}

let loaded: Loaded | undefined;

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

function load(): Loaded {
  const file = require.resolve('snowball-stemmers');
  const root = dirname(require.resolve('snowball-stemmers/package.json'));
  const { version } = require('snowball-stemmers/package.json') as { version: string };
  // V8 rejects a cache of another V8 or other flags; the name keeps one per Node and version.
  const cacheFile = join(
    root,
    '..',
    '.cache',
    'mailsift',
    `snowball-${version}-${process.version}-${process.arch}-warm.v8`,
  );
  const cachedData = readCache(cacheFile);
  // The wrapper Node gives a CommonJS module, so the file runs as it would when required.
  const script = new Script(
    `(function (exports, require, module, __filename, __dirname) {${readFileSync(file, 'utf8')}\n})`,
    { filename: file, ...(cachedData ? { cachedData } : {}) },
  );
  const module = { exports: {} };
  script.runInThisContext().call(module.exports, module.exports, require, module, file, dirname(file));
  return {
    snowball: module.exports as Snowball,
    script,
    cacheFile,
    cached: cachedData !== undefined && !script.cachedDataRejected,
  };
}

/** The package, loaded on first use. */
export function snowball(): Snowball {
  loaded ??= load();
  return loaded.snowball;
}

/**
 * Writes the code cache when none was used. V8 caches only the functions compiled so far, and
 * compiles a stemmer's rule functions on their first call: `warm` first runs every stemmer the
 * process could need, so that the next process finds them all compiled (a cache written after
 * one English word left a Spanish highlight to compile its stemmer: ~30 ms of a CLI search).
 */
export function keepSnowballCache(warm: (snowball: Snowball) => void): void {
  if (!loaded || loaded.cached) return;
  loaded.cached = true;
  warm(loaded.snowball);
  const temp = `${loaded.cacheFile}.${process.pid}`;
  try {
    mkdirSync(dirname(loaded.cacheFile), { recursive: true });
    writeFileSync(temp, loaded.script.createCachedData());
    // Whole or not at all for a process reading it meanwhile.
    renameSync(temp, loaded.cacheFile);
  } catch {
    // node_modules read-only to this user: each process compiles the package, as without a cache.
  }
}

// V8's code cache for the bundled CLI (dist/cli, CommonJS): each chunk a command loads is
// compiled from the bytecode an earlier run of that command left, not parsed and compiled
// again. Measured on `mailsift search` at 100k messages, ~100 ms of CPU less per process.
// Node 22's module.enableCompileCache does this for every module; Node 20 has no switch, so the
// bundle's chunks are compiled here through vm.Script with `cachedData`, as Node's own CommonJS
// loader would compile them otherwise (same wrapper, same `require`).
//
// V8 keeps in a cache only the functions compiled when it is written, and compiles most
// functions on their first call: a cache written by `--help` would leave a search compiling its
// code. So each command keeps its own caches, written at the exit of its first run (and again
// after a Node upgrade, when V8 rejects them). Where the bundle is not writable (a system-wide
// install), every run compiles as without a cache.

import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

/** Node's CommonJS module as `_compile` sees it (not in @types/node: an internal we wrap). */
interface CompilingModule {
  exports: unknown;
  filename: string;
  require(id: string): unknown;
  _compile(content: string, filename: string): unknown;
}

interface ModuleStatics {
  wrap(script: string): string;
  _resolveFilename(request: string, parent: CompilingModule, isMain: boolean, options?: unknown): string;
  _cache: Record<string, unknown>;
  prototype: CompilingModule;
}

/** Global options of the CLI that take a value, so their value is not read as the command. */
const OPTIONS_WITH_VALUE = new Set(['--db']);

/** The command a CLI argument list runs (`search` in `--db a.db search x`), or `help`. */
export function commandOf(args: readonly string[]): string {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (OPTIONS_WITH_VALUE.has(arg)) i++;
    else if (!arg.startsWith('-')) return /^[a-z][a-z-]{0,30}$/.test(arg) ? arg : 'other';
  }
  return 'help';
}

export interface CodeCacheOptions {
  /** The directory whose CommonJS files are compiled with a cache (the bundle's). */
  readonly dir: string;
  /** Where the caches live: one folder per Node version and command. */
  readonly cacheDir: string;
  readonly command: string;
}

/**
 * Compiles the CommonJS files of `dir` from their cache from now on, and writes the missing
 * caches when the process exits. Files that call `import()` are left to Node: a vm.Script
 * can import only behind an experimental flag.
 */
export function cacheCompiledCode(options: CodeCacheOptions): void {
  const statics = Module as unknown as ModuleStatics;
  const compile = statics.prototype._compile;
  const folder = join(options.cacheDir, `${process.version}-${process.arch}`, options.command);
  const toWrite: Array<{ script: Script; file: string }> = [];
  statics.prototype._compile = function (this: CompilingModule, content: string, filename: string) {
    if (dirname(filename) !== options.dir || content.includes('import('))
      return compile.call(this, content, filename);
    const file = join(folder, `${basename(filename)}.v8`);
    const cachedData = readCache(file);
    // The same wrapper Node gives a CommonJS file; a #! line is commented out, as Node strips it.
    const source = statics.wrap(content.startsWith('#!') ? `//${content}` : content);
    const script = new Script(source, { filename, ...(cachedData ? { cachedData } : {}) });
    if (!cachedData || script.cachedDataRejected) toWrite.push({ script, file });
    const require = Object.assign((id: string) => this.require(id), {
      resolve: (request: string, opts?: unknown) => statics._resolveFilename(request, this, false, opts),
      cache: statics._cache,
    });
    const wrapper = script.runInThisContext() as (...args: unknown[]) => unknown;
    return wrapper.call(this.exports, this.exports, require, this, filename, dirname(filename));
  };
  process.once('exit', () => {
    for (const { script, file } of toWrite) writeCache(file, script);
  });
}

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Whole or not at all for a process reading it meanwhile. */
function writeCache(file: string, script: Script): void {
  const temp = `${file}.${process.pid}`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(temp, script.createCachedData());
    renameSync(temp, file);
  } catch {
    // Not writable here: the next run compiles as this one did.
  }
}

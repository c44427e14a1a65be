// Shared helpers for benchmarks: argument parsing, directory sizes, percentiles and
// running a step in a child process so its peak RSS is its own.

import { fork, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateCorpus, writeMaildir } from '../src/corpus/index.js';
import { assertIndexReady, reindex } from '../src/index/index.js';
import type { Db } from '../src/store/index.js';

/** `--name value` from argv, else the environment variable, else the fallback. */
export function numberArg(name: string, env: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const text = at >= 0 ? process.argv[at + 1] : process.env[env];
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`--${name} must be a positive number, got ${text}`);
  return value;
}

/** Deletes an archive and what SQLite keeps beside it: its WAL and shared memory, its scratch database's. */
export function removeArchive(path: string): void {
  for (const file of [path, `${path}-scratch`])
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
}

/** Where the benches' generated Maildir of `messages` lives under `root`. */
/**
 * The `mailsift` bin as npm installs it: the bundle of dist/cli (scripts/bundle-cli.mjs). The
 * benches run from dist/bench, so both paths are relative to it.
 */
export const CLI_BIN = fileURLToPath(new URL('../cli/mailsift.js', import.meta.url));
/** The same CLI as tsc compiled it, one module per source file: bench:cli times both. */
export const CLI_UNBUNDLED = fileURLToPath(new URL('../src/surfaces/cli/main.js', import.meta.url));

export const benchMaildirPath = (root: string, messages: number): string => join(root, `maildir-${messages}`);

/** The benches' generated Maildir of `messages` under `root`, written once (another seed needs another root). */
export async function benchMaildir(root: string, messages: number, seed = 42): Promise<string> {
  const corpus = benchMaildirPath(root, messages);
  mkdirSync(root, { recursive: true });
  if (!existsSync(join(corpus, 'cur')) && !existsSync(join(corpus, 'new'))) {
    const started = Date.now();
    process.stdout.write(`generating ${messages.toLocaleString('en')} messages into ${corpus} …\n`);
    await writeMaildir(corpus, generateCorpus({ seed, messages }));
    process.stdout.write(`  generated in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }
  return corpus;
}

export function directorySize(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.size;
  let total = 0;
  for (const name of readdirSync(path)) total += directorySize(join(path, name));
  return total;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

export const mb = (bytes: number): string => `${(bytes / 1048576).toFixed(1)} MB`;

/** The machine's load averages (1, 5, 15 min): on a shared machine, what a timing ran under. */
export const loadAverages = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** The fastest of five runs of `run`, in ms. */
function fastest(run: () => number): number {
  let best = Number.POSITIVE_INFINITY;
  let sink = 0;
  for (let round = 0; round < 5; round++) {
    const started = process.hrtime.bigint();
    sink += run();
    best = Math.min(best, Number(process.hrtime.bigint() - started) / 1e6);
  }
  // Used, so the work is not optimised away.
  if (sink === Number.MIN_VALUE) process.stdout.write('');
  return best;
}

/** 16 MB of varints: one byte in eight continues one, as gaps and counts mostly fit a byte. */
function varintBytes(): Uint8Array {
  const bytes = new Uint8Array(16 * 1024 * 1024);
  let seed = 42;
  for (let i = 0; i < bytes.length; i++) {
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
    bytes[i] = (seed >>> 24) & ((seed & 7) === 0 ? 0xff : 0x7f);
  }
  return bytes;
}

function sumVarints(bytes: Uint8Array): number {
  let total = 0;
  for (let at = 0; at < bytes.length; ) {
    let byte = bytes[at++] as number;
    let value = byte & 0x7f;
    for (let scale = 0x80; byte >= 0x80 && at < bytes.length; scale *= 0x80) {
      byte = bytes[at++] as number;
      value += (byte & 0x7f) * scale;
    }
    total += value;
  }
  return total;
}

function sortedWords(): number {
  const words = Array.from({ length: 200_000 }, (_, i) => `w${((i * 2_654_435_761) >>> 0).toString(36)}`);
  words.sort();
  return JSON.stringify(words).length;
}

/**
 * Two fixed workloads, timed (best of five; lower is faster): a varint decode over 16 MB
 * (as postings are read) and sorting and serialising 200k short strings (as messages are
 * parsed and stored). The bench VM's speed varies ~2× between sessions on the same code;
 * figures from different sessions compare through these.
 */
export function cpuReference(): string {
  const bytes = varintBytes();
  const decode = fastest(() => sumVarints(bytes));
  const strings = fastest(sortedWords);
  return `decode ${decode.toFixed(1)} ms, strings ${strings.toFixed(1)} ms`;
}

/**
 * Runs this same script in a child process with `--child <step>` and returns the JSON
 * the child sends back, plus the child's peak RSS (process.resourceUsage().maxRSS).
 */
export function runChild<T>(
  script: string,
  step: string,
  args: string[] = [],
): Promise<T & { maxRssBytes: number }> {
  return new Promise((resolve, reject) => {
    const child = fork(script, ['--child', step, ...args], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let result: (T & { maxRssBytes: number }) | undefined;
    child.on('message', (message) => {
      result = message as T & { maxRssBytes: number };
    });
    child.on('exit', (code) => {
      if (code === 0 && result) resolve(result);
      else reject(new Error(`benchmark step ${step} exited with ${code}`));
    });
  });
}

/** In a child started by runChild: sends the result with this process's peak RSS. */
export function replyToParent(result: object): void {
  process.send?.({ ...result, maxRssBytes: process.resourceUsage().maxRSS * 1024 });
}

/**
 * A cached archive built by an older index version is re-indexed rather than rebuilt:
 * search and question mode refuse a stale index.
 */
export function readyIndex(db: Db): void {
  try {
    assertIndexReady(db);
  } catch {
    const started = Date.now();
    const { indexed } = reindex(db);
    process.stdout.write(
      `re-indexed ${indexed} messages in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
    );
  }
}

/**
 * Whether `command` is on this machine (a peer a bench compares with: wrk, mbsync, notmuch);
 * only a missing one fails to start (wrk answers --version with status 1).
 */
export const installed = (command: string): boolean => !spawnSync(command, ['--version']).error;

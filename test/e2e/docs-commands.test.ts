// Every command the README and docs/ show is run here, so the docs cannot drift from the CLI.
// The `mailsift …` lines of their ```sh blocks run, in the order the pages show them, with the
// built CLI on the PATH, from a scratch directory holding the bundled sample (`sample/`) and a
// fresh archive of it (`./mailsift.db`, inbox `demo`), through bash as a reader would type
// them. A trailing comment says what to expect instead of exit code 0:
//   `# exit code N`         the command must exit N;
//   `# runs until stopped`  serve, mcp and watch: started, checked (an HTTP request, an MCP
//                           initialize, a first watch cycle), then stopped;
//   `# not run: REASON`     not run (it needs something a test cannot have); NOT_RUN names
//                           every such line, so that list stays short and deliberate.
// `curl` lines (docs/http-api.md) run against one `mailsift serve` started for them, its address
// put for the docs' http://127.0.0.1:8080, with a key of inbox demo in $MAILSIFT_KEY. A line
// shown on several pages runs once.
// The other lines of a ```sh block are checked too: set-up commands as the README gives them,
// `npm run` scripts that package.json has, models that scripts/fetch-model.sh knows.

import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../temp.js';
import { CLI, waitForOutput } from './cli.js';

const ROOT = join(import.meta.dirname, '..', '..');
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];

/** The documented lines that are not run, by how they start, and why. */
const NOT_RUN: Record<string, string> = {
  'mailsift ingest ~/Mail': 'a mail tree of your own',
  'mailsift embed': 'an embedder (a model download or a provider)',
  'mailsift keys revoke': 'the id of a key created earlier',
};

interface DocLine {
  readonly page: string;
  readonly line: number;
  readonly command: string;
  readonly comment: string;
}

function shLines(): DocLine[] {
  const lines: DocLine[] = [];
  for (const page of PAGES) {
    let inSh = false;
    readFileSync(join(ROOT, page), 'utf8')
      .split('\n')
      .forEach((text, i) => {
        if (/^```/.test(text)) {
          inSh = !inSh && text.trim() === '```sh';
          return;
        }
        if (!inSh || text.trim() === '' || text.trimStart().startsWith('#')) return;
        const hash = text.search(/\s#\s/);
        lines.push({
          page,
          line: i + 1,
          command: (hash < 0 ? text : text.slice(0, hash)).trim(),
          comment:
            hash < 0
              ? ''
              : text
                  .slice(hash)
                  .replace(/^\s*#\s*/, '')
                  .trim(),
        });
      });
  }
  return lines;
}

const all = shLines();
const runnable = (l: DocLine) => l.command.startsWith('mailsift ') || l.command.startsWith('curl ');
const commands = all.filter(runnable);
const others = all.filter((l) => !runnable(l));
const notRun = commands.filter((l) => l.comment.startsWith('not run:'));
const longRunning = commands.filter((l) => l.comment.startsWith('runs until stopped'));
/** A command shown on several pages runs once, where it first appears. */
const firstOf = (l: DocLine) => commands.find((c) => c.command === l.command) === l;
const run = commands.filter((l) => !notRun.includes(l) && !longRunning.includes(l) && firstOf(l));
const longRun = longRunning.filter(firstOf);
const where = (l: DocLine) => `${l.page}:${l.line}: ${l.command}`;

let dir = '';
let env: NodeJS.ProcessEnv = {};
/** The server the `curl` lines talk to (the docs' http://127.0.0.1:8080), started at the first. */
let server: ChildProcess | undefined;
let serverUrl = '';

async function startServer(): Promise<void> {
  const key = bash('mailsift keys create --inbox demo --name docs-test').stdout.trim();
  expect(key).toMatch(/^msk_/);
  env.MAILSIFT_KEY = key;
  server = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--quiet'], { cwd: dir, env });
  serverUrl = await waitForOutput(server, /serving (http:\/\/\S+)/, 30_000);
}

function bash(command: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync('bash', ['-o', 'pipefail', '-c', command], { cwd: dir, env, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    child.removeAllListeners('exit');
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 0 : null)));
    child.kill('SIGTERM');
  });
}

describe('the commands in README.md and docs/', () => {
  beforeAll(() => {
    dir = tempDir('mailsift-docs-');
    symlinkSync(join(ROOT, 'sample'), join(dir, 'sample'));
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'mailsift'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
    chmodSync(join(bin, 'mailsift'), 0o755);
    env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('MAILSIFT_')));
    env.PATH = `${bin}:${process.env.PATH}`;
    env.HOME = dir; // no ~/.mailsift or config of the machine's user
    // The archive is made by the first documented command (the README's ingest of the sample).
    expect(run[0]?.command).toMatch(/^mailsift ingest sample\/Maildir sample\/archive\.mbox --inbox demo\b/);
  });

  afterAll(async () => {
    if (server) await stop(server);
  });

  it('finds the documented commands, and leaves only a few named ones unrun', () => {
    expect(commands.length).toBeGreaterThan(40);
    // Every command of these two needs what this test has not: a long benchmark run, or an
    // OpenSearch cluster (src/backend/opensearch's own tests start one and run search, list and
    // check through the CLI against it).
    const noSampleCommand = new Set(['docs/benchmarks.md', 'docs/opensearch.md']);
    for (const page of PAGES.filter((p) => !noSampleCommand.has(p)))
      expect(
        all.some((l) => l.page === page),
        `${page} shows no command`,
      ).toBe(true);
    const unrun = new Set(
      notRun.map((l) => Object.keys(NOT_RUN).find((p) => l.command.startsWith(p)) ?? where(l)),
    );
    expect([...unrun].sort()).toEqual(Object.keys(NOT_RUN).sort());
    expect(longRunning.map((l) => l.command.split(' ')[1]).sort()).toEqual(
      expect.arrayContaining(['mcp', 'serve', 'watch']),
    );
  });

  it('knows every other line of a sh block', () => {
    const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as Record<
      string,
      string
    >;
    const fetchModel = readFileSync(join(ROOT, 'scripts', 'fetch-model.sh'), 'utf8');
    for (const l of others) {
      const c = l.command;
      if (c === 'npm ci && npm run demo' || c === 'npm ci && npm test' || c === 'npm run build') continue;
      if (c === 'alias mailsift="node $PWD/dist/cli/mailsift.js"') continue;
      const npm = /^npm run ([\w:-]+)/.exec(c);
      if (npm) {
        expect(scripts, where(l)).toHaveProperty([npm[1] as string]);
        continue;
      }
      if (c === 'scripts/fetch-lexicon.sh') {
        expect(readFileSync(join(ROOT, 'scripts', 'fetch-lexicon.sh'), 'utf8'), where(l)).toContain(
          'fetchVersion',
        );
        continue;
      }
      const model = /^scripts\/fetch-model\.sh(?: --model ([\w.-]+))?$/.exec(c);
      if (model) {
        if (model[1]) expect(fetchModel, where(l)).toContain(model[1]);
        continue;
      }
      throw new Error(`${where(l)}: a shell line this test does not know how to check`);
    }
  });

  it.each(run.map((l) => [where(l), l] as const))('%s', async (_name, l) => {
    const expected = Number(/\bexit code (\d+)\b/.exec(l.comment)?.[1] ?? 0);
    let command = l.command;
    if (command.startsWith('curl ')) {
      if (!server) await startServer();
      expect(command, where(l)).toContain('http://127.0.0.1:8080/');
      command = command.replaceAll('http://127.0.0.1:8080', serverUrl);
    }
    const result = bash(command);
    expect(result.status, `${where(l)}\n${result.stderr}`).toBe(expected);
    if (expected === 0) expect(result.stdout.length, where(l)).toBeGreaterThan(0);
  });

  it.each(longRun.map((l) => [where(l), l] as const))('%s (started, checked, stopped)', async (_name, l) => {
    const sub = l.command.split(' ')[1];
    // serve listens on a free port (a later --port wins), whatever the page shows.
    const command = sub === 'serve' ? `${l.command} --port 0` : l.command;
    const child = spawn('bash', ['-c', `exec ${command}`], {
      cwd: dir,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    try {
      if (sub === 'serve') {
        const url = await waitForOutput(child, /serving (http:\/\/\S+)/, 30_000);
        const openapi = await fetch(`${url}/openapi.json`);
        expect(openapi.status, where(l)).toBe(200);
        const health = await fetch(`${url}/v1/health`);
        expect(health.status, where(l)).toBe(200);
      } else if (sub === 'mcp') {
        const reply = waitForOutput(child, /("serverInfo")/, 30_000);
        child.stdin?.write(
          `${JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: {
              protocolVersion: '2025-06-18',
              capabilities: {},
              clientInfo: { name: 'docs-test', version: '1' },
            },
          })}\n`,
        );
        await reply;
      } else if (sub === 'watch') {
        await waitForOutput(child, /health \w+/, 30_000);
      } else throw new Error(`${where(l)}: no way to check a long-running '${sub}'`);
    } finally {
      expect(await stop(child), where(l)).toBe(0);
    }
  });
});

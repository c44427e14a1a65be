// The `mailsift` bin is a bundle (scripts/bundle-cli.mjs): every worker thread a command
// starts is found beside the chunk that starts it, by the file name its source asks for.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../temp.js';
import { CLI, runCli } from './cli.js';

const SRC = join(import.meta.dirname, '..', '..', 'src');
const MAIL_TREE = join(import.meta.dirname, '..', 'fixtures', 'maildir');

/** `new URL('./x-worker.js', import.meta.url)` in the sources: the scripts workers run. */
function workerScripts(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...workerScripts(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
      for (const match of readFileSync(path, 'utf8').matchAll(
        /new URL\('\.\/([\w-]+\.js)', import\.meta\.url\)/g,
      ))
        found.push(match[1] as string);
  }
  return found;
}

describe('the bundled CLI', () => {
  it('ships every worker script the sources start, beside its chunks', () => {
    const scripts = workerScripts(SRC);
    expect(scripts.length).toBeGreaterThanOrEqual(4);
    for (const script of scripts) expect(existsSync(join(dirname(CLI), script)), script).toBe(true);
  });

  it('ingests a mail tree with two parser workers and counts every message stored', () => {
    const db = join(tempDir('mailsift-bundle-'), 'a.db');
    const ingest = runCli(['ingest', MAIL_TREE, '--workers', '2', '--db', db, '--json']);
    expect(ingest.stderr).toBe('');
    expect(ingest.status).toBe(0);
    const report = JSON.parse(ingest.stdout) as { added: number; failed: number };
    expect(report.failed).toBe(0);
    expect(report.added).toBeGreaterThan(0);
    const status = JSON.parse(runCli(['status', '--db', db, '--json']).stdout) as { messages: number };
    expect(status.messages).toBe(report.added);
  });
});

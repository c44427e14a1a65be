// ingest and watch run at a lower CPU priority (--nice, default 10), which the threads they start
// afterwards share; a bad value is an argument error naming --nice.

import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { runCli, startCli, waitForOutput } from '../../../test/e2e/cli.js';
import { tempDir } from '../../../test/temp.js';
import { niceness, runAtNiceness } from './priority.js';

const MAILDIR = join(import.meta.dirname, '../../../test/fixtures/maildir');

/** The niceness of each thread of process `pid` (field 19 of /proc/<pid>/task/<tid>/stat). */
function threadNiceness(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

describe('--nice', () => {
  it('accepts 0 to 19 and names the option otherwise', () => {
    expect(niceness('0')).toBe(0);
    expect(niceness('19')).toBe(19);
    for (const bad of ['-5', '20', '1.5', 'low'])
      expect(() => niceness(bad)).toThrow(
        expect.objectContaining({ code: 'invalid_argument', param: '--nice' }),
      );
    const refused = runCli([
      '--db',
      join(tempDir('mailsift-nice-'), 'a.db'),
      'ingest',
      MAILDIR,
      '--nice',
      '25',
    ]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('--nice must be an integer from 0 to 19');
  });

  it('watch runs at niceness 10 by default, every thread of it', async () => {
    const db = join(tempDir('mailsift-nice-watch-'), 'archive.db');
    const watch = startCli(['--db', db, 'watch', '--source', MAILDIR, '--interval', '1h']);
    try {
      await waitForOutput(watch, /health \w+/, 60_000);
      const threads = threadNiceness(watch.pid as number);
      expect(threads.length).toBeGreaterThan(1);
      expect(new Set(threads)).toEqual(new Set([10]));
    } finally {
      watch.kill('SIGTERM');
      await new Promise((resolve) => watch.once('exit', resolve));
    }
  });

  it('lowers the priority of this thread and of the threads started after it', async () => {
    // Vitest runs each test file in its own process: lowering it here touches no other test
    // (and it comes last: a process may not raise its priority again).
    runAtNiceness(12);
    expect(getPriority()).toBe(12);
    const worker = new Worker(
      "require('node:worker_threads').parentPort.postMessage(require('node:os').getPriority())",
      { eval: true },
    );
    const inWorker = await new Promise((resolve) => worker.once('message', resolve));
    await worker.terminate();
    expect(inWorker).toBe(12);
  });
});

// The worker pool's kill-and-replace path. Under vitest the real worker script (compiled JS)
// does not exist, so these tests drive WorkerExtractor with an eval'd worker that speaks the
// same protocol and hangs on demand; the compiled worker is exercised when dist/ exists.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { resolveLimits } from './limits.js';
import { WorkerExtractor } from './pool.js';

/** Replies like worker.ts; a file named hang.* spins forever, crash.* exits the thread. */
const FAKE_WORKER = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', (job) => {
  if (job.filename.startsWith('hang')) for (;;) {}
  if (job.filename.startsWith('crash')) process.exit(3);
  const text = Buffer.from(job.content).toString('utf8');
  parentPort.postMessage({ id: job.id, extraction: { status: 'ok', reason: null, detectedType: 'text/plain', format: 'text', text, truncated: false } });
});
parentPort.postMessage({ ready: true });
`;

const spawnFake = (): Worker => new Worker(FAKE_WORKER, { eval: true });
const input = (filename: string, text = 'hello') => ({
  filename,
  contentType: 'text/plain',
  content: Buffer.from(text),
});

describe('WorkerExtractor', () => {
  it('kills a hanging extraction at timeoutMs, fails it, and keeps serving with a fresh worker', async () => {
    const pool = new WorkerExtractor(spawnFake, 1, resolveLimits({ timeoutMs: 300 }));
    try {
      const [hung, queued] = await Promise.all([
        pool.extract(input('hang.pdf')),
        pool.extract(input('after.txt', 'still served')),
      ]);
      expect(hung).toMatchObject({ status: 'failed', reason: 'timeout after 300 ms', format: 'pdf' });
      expect(queued).toMatchObject({ status: 'ok', text: 'still served' });
    } finally {
      await pool.close();
    }
  });

  it('gives the jobs posted ahead to a killed worker back to a fresh one, in order', async () => {
    const pool = new WorkerExtractor(spawnFake, 1, resolveLimits({ timeoutMs: 300 }), 3);
    try {
      const results = await Promise.all([
        pool.extract(input('invoice.txt', 'first')),
        pool.extract(input('hang.pdf')),
        pool.extract(input('crash.txt')),
        pool.extract(input('notes.txt', 'last')),
      ]);
      expect(results.map((r) => r.status)).toEqual(['ok', 'failed', 'failed', 'ok']);
      expect(results[1]?.reason).toBe('timeout after 300 ms');
      expect(results[2]?.reason).toMatch(/^worker crashed/);
      expect(results[3]?.text).toBe('last');
    } finally {
      await pool.close();
    }
  });

  it('takes an answer that came while this thread was blocked past the time limit', async () => {
    const pool = new WorkerExtractor(spawnFake, 1, resolveLimits({ timeoutMs: 200 }));
    try {
      await pool.extract(input('warm-up.txt'));
      const answer = pool.extract(input('quarterly.txt', 'answered in time'));
      // A long synchronous write on this thread (an index merge) outlasts the time limit; run
      // from setImmediate, the expired timer comes before the reply on the next turn.
      await new Promise<void>((done) =>
        setImmediate(() => {
          const until = Date.now() + 600;
          while (Date.now() < until);
          done();
        }),
      );
      expect(await answer).toMatchObject({ status: 'ok', text: 'answered in time' });
    } finally {
      await pool.close();
    }
  });

  it('fails the job of a crashed worker and replaces the worker', async () => {
    const pool = new WorkerExtractor(spawnFake, 2, resolveLimits({ timeoutMs: 5000 }));
    try {
      const crashed = await pool.extract(input('crash.txt'));
      expect(crashed.status).toBe('failed');
      expect(crashed.reason).toMatch(/^worker crashed/);
      expect(await pool.extract(input('next.txt', 'fine'))).toMatchObject({ status: 'ok', text: 'fine' });
    } finally {
      await pool.close();
    }
  });

  it('fails queued work when closed instead of leaving it pending', async () => {
    const pool = new WorkerExtractor(spawnFake, 1, resolveLimits({ timeoutMs: 5000 }));
    const running = pool.extract(input('hang.txt'));
    const waiting = pool.extract(input('queued.txt'));
    await pool.close();
    expect(await running).toMatchObject({ status: 'failed', reason: 'extractor closed' });
    expect(await waiting).toMatchObject({ status: 'failed', reason: 'extractor closed' });
  });

  const compiled = fileURLToPath(new URL('../../dist/src/attachments/worker.js', import.meta.url));
  it.skipIf(!existsSync(compiled))('runs real extractions in the compiled worker', async () => {
    const pool = new WorkerExtractor(() => new Worker(compiled), 1, resolveLimits());
    try {
      const result = await pool.extract({
        filename: 'a.csv',
        contentType: 'text/csv',
        content: Buffer.from('a;b\n1;2\n'),
      });
      expect(result).toMatchObject({ status: 'ok', format: 'csv', text: 'a;b\n1;2\n' });
    } finally {
      await pool.close();
    }
  });
});

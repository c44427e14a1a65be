// The compiled prepare pool: a worker killed by a hostile message fails that message
// alone, and the pool goes on with a fresh worker.

import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type * as PreparePoolModule from '../../src/pipeline/prepare-pool.js';

// The worker script only exists in the build, so the pool is loaded from dist/ (npm test
// builds before it runs the tests; the type check runs before the build).
const built = pathToFileURL(
  join(import.meta.dirname, '..', '..', 'dist', 'src', 'pipeline', 'prepare-pool.js'),
).href;
const { createPreparePool } = (await import(built)) as typeof PreparePoolModule;

const plain = (n: number): Buffer =>
  Buffer.from(
    `Message-ID: <ok-${n}@pool.test>\r\nFrom: a@pool.test\r\nTo: b@pool.test\r\nSubject: fine ${n}\r\n` +
      'Date: Mon, 06 Jan 2025 10:00:00 +0000\r\n\r\nA normal body.\r\n',
  );

/** A 40 MB plain-text body: decoded into one JS string, far more than a 48 MB worker heap holds. */
function heavy(): Buffer {
  const line = 'All work and no play makes a very long message body, line after line after line.\r\n';
  return Buffer.from(
    'Message-ID: <heavy@pool.test>\r\nFrom: a@pool.test\r\nSubject: heavy\r\nMIME-Version: 1.0\r\n' +
      'Content-Type: text/plain; charset=utf-8\r\n\r\n' +
      line.repeat(Math.ceil((40 * 1024 * 1024) / line.length)),
  );
}

const hashOf = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

describe('the worker prepare pool', () => {
  it('fails only the message that killed its worker and keeps preparing the rest', async () => {
    const pool = createPreparePool({ workers: 1, heapMb: 48, keywordDocument: true });
    try {
      const first = plain(1);
      const before = await pool.prepare(first, null, hashOf(first));
      expect(before.subject).toBe('fine 1');
      const hostile = heavy();
      await expect(pool.prepare(hostile, null, hashOf(hostile))).rejects.toThrow(/parser worker/);
      const second = plain(2);
      const after = await pool.prepare(second, null, hashOf(second));
      expect(after.rawSha256).toBe(hashOf(second));
      expect(after.headerMessageId).toBe('ok-2@pool.test');
    } finally {
      await pool.close();
    }
  }, 60_000);
});

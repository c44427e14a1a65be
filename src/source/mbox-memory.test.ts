// A 50 MB mbox generated on the spot: scanning it must not grow the heap with the file.
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MboxSource } from './index.js';

const TARGET_BYTES = 50 * 1024 * 1024;
let dir = '';
let path = '';
let written = 0;

/** A plausible ~10 KB message, distinct per index so every key is new. */
function message(index: number): string {
  const line = `Line ${index}: the quarterly figures for region ${index % 17} are attached as discussed.\n`;
  return (
    `From sender${index % 50}@example.org Mon Jan  1 00:00:00 2024\n` +
    `From: Sender ${index % 50} <sender${index % 50}@example.org>\n` +
    'To: archive@example.com\n' +
    `Subject: Report ${index}\n` +
    `Message-ID: <report-${index}@example.org>\n` +
    `Status: ${index % 2 === 0 ? 'RO' : 'O'}\n\n` +
    line.repeat(120) +
    '>From the archive, quoted.\n\n'
  );
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mailsift-mbox-memory-'));
  path = join(dir, 'big.mbox');
  const out = createWriteStream(path);
  for (let index = 0; written < TARGET_BYTES; index++) {
    const text = message(index);
    written += Buffer.byteLength(text);
    if (!out.write(text)) await new Promise<void>((done) => out.once('drain', () => done()));
  }
  out.end();
  await finished(out);
});

afterAll(async () => rm(dir, { recursive: true, force: true }));

/**
 * Measures after a full collection, so the numbers are what the scan retains, not garbage
 * awaiting collection. Buffers live outside the V8 heap, hence arrayBuffers as well.
 */
const gc = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

function retained(): { heap: number; buffers: number } {
  gc();
  const usage = process.memoryUsage();
  return { heap: usage.heapUsed, buffers: usage.arrayBuffers };
}

describe('MboxSource on a 50 MB mbox', () => {
  it('streams every message while heap growth stays under 40 MB', async () => {
    const before = retained();
    let heapGrowth = 0;
    let bufferGrowth = 0;
    let count = 0;
    let bytes = 0;
    for await (const entry of new MboxSource(path).scan()) {
      bytes += (await entry.read()).length;
      count++;
      if (count % 250 === 0) {
        const now = retained();
        heapGrowth = Math.max(heapGrowth, now.heap - before.heap);
        bufferGrowth = Math.max(bufferGrowth, now.buffers - before.buffers);
      }
    }
    expect(count).toBeGreaterThan(4000);
    // Each message lost its 'From ' line, one blank line and one escaping '>'.
    expect(bytes).toBeLessThan(written);
    expect(bytes).toBeGreaterThan(written * 0.99);
    expect(heapGrowth).toBeLessThan(40 * 1024 * 1024);
    // A few 1 MB read chunks in flight (3–13 MB measured); a scan that kept its messages
    // would hold the whole 50 MB here.
    expect(bufferGrowth).toBeLessThan(24 * 1024 * 1024);
  });
});

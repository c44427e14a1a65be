// Extraction of an attachment given as its raw message: the part is found by ordinal and
// checked by hash, in the calling thread and in the compiled worker alike.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { makeLigaturePdf, makeMessageWith } from './fixtures.js';
import { createExtractor, type Extractor, resolveLimits } from './index.js';
import { WorkerExtractor } from './pool.js';

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');
const plan = makeLigaturePdf();
const access = Buffer.from('name;company\nJana Krüger;Bauplan Nord\n', 'utf8');
const message = makeMessageWith([
  { filename: 'access.csv', contentType: 'text/csv', content: access },
  { filename: 'floor-plan.pdf', contentType: 'application/pdf', content: plan },
]);
const part = (ordinal: number, hash: string) => ({
  filename: 'floor-plan.pdf',
  contentType: 'application/pdf',
  message,
  ordinal,
  sha256: hash,
});

function partContract(name: string, make: () => Extractor, skip = false): void {
  describe.skipIf(skip)(name, () => {
    it('extracts the part at its ordinal', async () => {
      const extractor = make();
      try {
        expect(await extractor.extractFromMessage(part(1, sha256(plan)))).toMatchObject({
          status: 'ok',
          format: 'pdf',
          text: 'The office floor plan',
        });
      } finally {
        await extractor.close();
      }
    });

    it('finds the part by its hash when the ordinal points elsewhere', async () => {
      const extractor = make();
      try {
        const csv = await extractor.extractFromMessage({
          ...part(1, sha256(access)),
          filename: 'access.csv',
        });
        expect(csv).toMatchObject({ status: 'ok', format: 'csv', text: access.toString('utf8') });
      } finally {
        await extractor.close();
      }
    });

    it('fails with the reason when the message carries no such part', async () => {
      const extractor = make();
      try {
        expect(await extractor.extractFromMessage(part(1, sha256(Buffer.from('gone'))))).toMatchObject({
          status: 'failed',
          format: 'pdf',
          reason: expect.stringMatching(/no attachment 1 with that hash/),
        });
      } finally {
        await extractor.close();
      }
    });
  });
}

partContract('extractFromMessage, inline', () => createExtractor({ workers: 0 }));

const compiled = fileURLToPath(new URL('../../dist/src/attachments/worker.js', import.meta.url));
partContract(
  'extractFromMessage, in the compiled worker',
  () => new WorkerExtractor(() => new Worker(compiled), 1, resolveLimits()),
  !existsSync(compiled),
);

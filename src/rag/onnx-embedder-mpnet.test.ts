// The onnx embedder on the real all-mpnet-base-v2 (MPNet: relative-position attention, no
// token types, <s> … </s> and <pad>), as scripts/fetch-model.sh --model all-mpnet-base-v2
// exports it into defaultModelDir() (CI runs that first): shape, semantics, padding, int8.

import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Embedder } from './embedder.js';
import { defaultModelDir, onnxEmbedder } from './onnx-embedder.js';
import { cosine, int8Agreement, PARAPHRASE_PAIRS } from './onnx-embedder-samples.js';

const MODEL_DIR = defaultModelDir(process.env, 'all-mpnet-base-v2');

describe('onnx embedder (all-mpnet-base-v2)', () => {
  let embedder: Embedder;
  beforeAll(() => {
    if (!existsSync(join(MODEL_DIR, 'mailsift-model.json')))
      throw new Error(
        `the mpnet tests need the model in ${MODEL_DIR}: run scripts/fetch-model.sh --model all-mpnet-base-v2 first`,
      );
    embedder = onnxEmbedder({ modelDir: MODEL_DIR });
  });

  it('gives one unit-length 768-dim vector per text under an id naming model and size', async () => {
    expect(embedder.id).toBe('onnx:all-mpnet-base-v2:768');
    const vectors = await embedder.embed(['the invoice is overdue', 'lasagne recipe']);
    expect(vectors).toHaveLength(2);
    for (const v of vectors) {
      expect(v.length).toBe(768);
      expect(Math.sqrt(cosine(v, v))).toBeCloseTo(1, 5);
    }
    // Its own WordPiece vocabulary, special tokens not counted: the in ##vo ##ice is over ##due.
    expect(embedder.tokenizer?.count('the invoice is overdue')).toBe(7);
  });

  it("ranks each paraphrase first among the other pairs' sentences", async () => {
    const pairs = PARAPHRASE_PAIRS;
    const vectors = await embedder.embed(pairs.flat());
    const v = (i: number): Float32Array => vectors[i] as Float32Array;
    // Measured: paraphrases 0.53-0.72, the closest other sentence up to 0.46 (an outage and a
    // password change share IT vocabulary); the weather pair below 0.68, unrelated ones ~0.05.
    for (let i = 0; i < pairs.length; i++) {
      const scores = pairs.map((_, j) => cosine(v(2 * i), v(2 * j + 1)));
      expect(scores[i]).toBeGreaterThan(0.5);
      expect(scores.indexOf(Math.max(...scores))).toBe(i);
    }
  });

  it('gives the same vectors whatever the batch size and padding, past the exact position buckets', async () => {
    // The long text's tokens sit far apart (logarithmic relative-position buckets); 'ok' is
    // padded to its length in the shared batch, and must not feel the padding.
    const texts = [
      'ok',
      'Reminder: quarterly review at 10:00 in room 4.',
      `The shipment from Genoa arrives on Monday; ${'the customs papers are still missing and the broker has not answered. '.repeat(5)}`,
    ];
    const together = await embedder.embed(texts);
    const alone = await onnxEmbedder({ modelDir: MODEL_DIR, batchSize: 1 }).embed(texts);
    texts.forEach((_, i) => {
      const a = together[i] as Float32Array;
      const b = alone[i] as Float32Array;
      expect(Math.max(...a.map((x, d) => Math.abs(x - (b[d] as number))))).toBeLessThan(1e-4);
    });
  });

  it('has an int8 variant: its own id, vectors close to the float ones, paraphrases still ranked', async () => {
    const int8 = await int8Agreement(MODEL_DIR, embedder);
    expect(int8.id).toBe('onnx:all-mpnet-base-v2-int8:768');
    // Its feed-forward down-projections stay float (export-onnx.py): all-int8 measured ~0.91.
    for (const agreement of int8.cosines) expect(agreement).toBeGreaterThan(0.97);
    expect(int8.margin).toBeGreaterThan(0.4);
  });

  it('names the command that fetches it when its folder is missing', () => {
    const missing = join(tmpdir(), 'mailsift-no-models', 'all-mpnet-base-v2');
    expect(() => onnxEmbedder({ modelDir: missing })).toThrow(
      expect.objectContaining({
        code: 'not_found',
        message: expect.stringContaining(`scripts/fetch-model.sh --model all-mpnet-base-v2 ${missing}`),
      }),
    );
  });
});

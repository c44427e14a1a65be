// Sentences the onnx embedder tests share across models: paraphrase pairs that share almost no
// words, and mixed texts to compare a model's int8 export with its float one.

import type { Embedder } from './embedder.js';
import { onnxEmbedder } from './onnx-embedder.js';

/** Each pair says one thing twice in different words; the pairs are about unrelated things. */
export const PARAPHRASE_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ['the invoice is overdue, please pay', 'your bill has not been settled yet'],
  [
    'the server will be down for maintenance on Saturday night',
    'planned outage of the machines this weekend',
  ],
  [
    'can we move our meeting to Thursday afternoon?',
    'is it possible to reschedule the call to Thursday after lunch?',
  ],
  ['your password expires tomorrow', 'the sign-in credentials must be changed by tomorrow'],
];

/** Two related sentences and one unrelated (the sentence-transformers quick start), then mail. */
export const QUANTIZATION_SAMPLES = [
  'The weather is lovely today.',
  "It's so sunny outside!",
  'He drove to the stadium.',
  'Invoice NP-4471 for the catalogue print run is thirty days past its due date.',
  'On Saturday night we replace the core switches; virtual machines lose network for twenty minutes.',
] as const;

/** The dot product: the cosine of two unit-length vectors. */
export const cosine = (a: Float32Array, b: Float32Array): number =>
  a.reduce((sum, x, i) => sum + x * (b[i] as number), 0);

/**
 * How the int8 export in `modelDir` agrees with the float model: its embedder id, the cosine of
 * each QUANTIZATION_SAMPLES vector to the float one, and how much closer its vector of the first
 * sentence is to the related second than to the unrelated third.
 */
export async function int8Agreement(
  modelDir: string,
  float: Embedder,
): Promise<{ id: string; cosines: number[]; margin: number }> {
  const int8 = onnxEmbedder({ modelDir, quantized: true });
  const [exact, quantized] = await Promise.all([
    float.embed(QUANTIZATION_SAMPLES),
    int8.embed(QUANTIZATION_SAMPLES),
  ]);
  const [lovely, sunny, stadium] = quantized as [Float32Array, Float32Array, Float32Array];
  return {
    id: int8.id,
    cosines: exact.map((v, i) => cosine(v, quantized[i] as Float32Array)),
    margin: cosine(lovely, sunny) - cosine(lovely, stadium),
  };
}

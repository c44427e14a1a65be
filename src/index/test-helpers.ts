// Test support: one postings blob decoded as ranking reads a phrase's matches.

import { type ColumnWeights, decodeWeighted, startSums, summedHits, weightedSums } from './postings-codec.js';

/** The documents of `blobs` (one segment of `docs` documents) in the filter, their weighted counts added up. */
export function weightedHits(
  blobs: readonly Uint8Array[],
  columns: ColumnWeights,
  docs = 70_001,
): ReturnType<typeof summedHits> {
  const sums = weightedSums();
  startSums(sums, docs);
  for (const blob of blobs) decodeWeighted(blob, columns, sums);
  return summedHits(sums);
}

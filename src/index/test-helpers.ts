// Test support: one postings blob decoded as ranking reads a phrase's matches.

import type { ColumnWeights } from './postings-codec.js';
import { type PrefixHits, sumExpansions } from './prefix-sums.js';

/** The documents of `blobs` (one segment of `docs` documents) in the filter, their weighted counts added up. */
export function weightedHits(
  blobs: readonly Uint8Array[],
  columns: ColumnWeights,
  docs = 70_001,
): PrefixHits {
  return sumExpansions(blobs, columns, docs);
}

// A prefix's expansions (`kevin*` → kevin, kevin_lewis, kevin_lewis_acme_corp_com …) decoded
// and added up by document in score-kernel.wat's `sum`, in a kernel instance of its own
// (its memory holds the sums, not a search's scoring arrays). It was JavaScript: the
// owner's name and domain are in every message, so `acme-corp` decodes ~2M entries at 1M,
// and the decode was a third of the query.

import { type ColumnWeights, corruptSegment, weightsByBit } from './postings-codec.js';
import { align8, type KernelExports, kernelInstance, PAGE, WEIGHTS_BYTES } from './score-kernel.js';

/** A phrase's weighted counts by document: see PhraseHits (search/phrase-hits.ts). */
export interface PrefixHits {
  /** The documents in the order first seen: each expansion adds an ascending run. */
  readonly ords: Int32Array;
  readonly freqs: Float64Array;
  /** Where each run starts in ords, then its length. */
  readonly runs: Int32Array;
}

/**
 * Memory layout: seen[ord] (this sum's epoch once a document is summed) and place[ord] (its
 * place in the lists), the lists ords and freqs, the column weights, then one blob at a time.
 * Stamps are never cleared between sums: each has a new epoch.
 */
class PrefixSums {
  private readonly kernel: KernelExports = kernelInstance();
  private docs = 0;
  private blobBytes = 0;
  private epoch = 0;

  private get placeAt(): number {
    return this.docs * 4;
  }
  private get ordsAt(): number {
    return this.docs * 8;
  }
  private get freqsAt(): number {
    return align8(this.docs * 12);
  }
  private get weightsAt(): number {
    return this.freqsAt + this.docs * 8;
  }
  private get blobAt(): number {
    return this.weightsAt + WEIGHTS_BYTES;
  }

  /** Makes room for a segment of `docs` documents and blobs of `blobBytes`; stamps start over. */
  private layOut(docs: number, blobBytes: number): void {
    this.docs = Math.max(docs, this.docs);
    this.blobBytes = Math.max(blobBytes * 2, this.blobBytes);
    const { memory } = this.kernel;
    const pages = Math.ceil((this.blobAt + this.blobBytes) / PAGE) - memory.buffer.byteLength / PAGE;
    if (pages > 0) memory.grow(pages);
    new Int32Array(memory.buffer, 0, this.docs).fill(0);
    this.epoch = 0;
  }

  sum(blobs: readonly Uint8Array[], columns: ColumnWeights, docs: number): PrefixHits {
    const largest = blobs.reduce((most, blob) => Math.max(most, blob.length), 0);
    if (docs > this.docs || largest > this.blobBytes) this.layOut(docs, largest);
    if (this.epoch === 0x7fffffff) this.layOut(docs, largest);
    this.epoch += 1;
    const { buffer } = this.kernel.memory;
    const { weightOf, filter } = weightsByBit(columns);
    new Float64Array(buffer, this.weightsAt, weightOf.length).set(weightOf);
    const bytes = new Uint8Array(buffer);
    const starts: number[] = [];
    let summed = 0;
    for (const blob of blobs) {
      const was = summed;
      bytes.set(blob, this.blobAt);
      summed = this.kernel.sum(
        this.blobAt,
        this.weightsAt,
        filter,
        weightOf.length,
        docs,
        0,
        this.epoch,
        this.placeAt,
        this.ordsAt,
        this.freqsAt,
        summed,
      );
      if (summed < 0 || this.kernel.end.value > this.blobAt + blob.length) throw corruptSegment();
      if (summed > was) starts.push(was);
    }
    return {
      ords: new Int32Array(buffer, this.ordsAt, summed).slice(),
      freqs: new Float64Array(buffer, this.freqsAt, summed).slice(),
      runs: Int32Array.from([...starts, summed]),
    };
  }
}

let sums: PrefixSums | null = null;

/**
 * The documents of `blobs` (one segment of `docs` documents) that hold the term in a
 * filtered column, with the weighted count there (Σ weight × count over the filter) added
 * up over the blobs: what bm25 reads of a prefix's phrase. Weights are binary fractions and
 * counts integers, so the sums are exact in any order.
 */
export function sumExpansions(
  blobs: readonly Uint8Array[],
  columns: ColumnWeights,
  docs: number,
): PrefixHits {
  sums ??= new PrefixSums();
  return sums.sum(blobs, columns, docs);
}

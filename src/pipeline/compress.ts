// Raw-message compression. Most mail is text and deflates to about a third with LZ77; a
// message carrying a large attachment is mostly base64 of already-compressed bytes, where
// LZ77 finds nothing and only entropy coding (6 bits per base64 character) gains, so it is
// Huffman-coded alone at a third of the CPU. The output is plain raw deflate either way.
// Stored blocks were measured too (0.03 vs 0.86 ms CPU per 250 KB message, 0.08 vs 0.59 ms
// to read back) and rejected: a third more bytes for the messages that fill an archive.

import { constants, deflateRawSync } from 'node:zlib';

/** zlib level 1: ~3× on mail text at a fraction of the default level's CPU cost. */
const LEVEL = 1;
/** Below this, LZ77 is cheap enough that sampling would cost more than it saves. */
const SAMPLE_FROM_BYTES = 64 * 1024;
/**
 * 4 KB tells the two apart as well as 16 KB did at under half the cost (0.09 vs 0.21 ms): on
 * the attachment bench's large messages, base64 of PDFs 0.76-0.77, base64 of text 0.41 at most.
 */
const SAMPLE_BYTES = 4 * 1024;
/** A sample that LZ77 shrinks less than this is base64 (or otherwise random) content. */
const LZ_USELESS_RATIO = 0.7;

export type RawStrategy = 'lz' | 'huffman';

/**
 * Samples the middle of a large message (past its headers and text part, where a big
 * attachment sits) to see whether LZ77 helps.
 */
export function rawStrategy(bytes: Uint8Array): RawStrategy {
  if (bytes.length < SAMPLE_FROM_BYTES) return 'lz';
  const start = Math.floor((bytes.length - SAMPLE_BYTES) / 2);
  const sample = bytes.subarray(start, start + SAMPLE_BYTES);
  const ratio = deflateRawSync(sample, { level: LEVEL }).length / sample.length;
  return ratio > LZ_USELESS_RATIO ? 'huffman' : 'lz';
}

export function deflateRaw(bytes: Uint8Array): Buffer {
  return rawStrategy(bytes) === 'huffman'
    ? deflateRawSync(bytes, { level: LEVEL, strategy: constants.Z_HUFFMAN_ONLY })
    : deflateRawSync(bytes, { level: LEVEL });
}

/** Text (JSON of a cleaned body): always LZ77. */
export function deflateText(text: string): Buffer {
  return deflateRawSync(Buffer.from(text), { level: LEVEL });
}

// Decoded phrase hits kept for a long-lived process (HTTP, MCP): a segment never changes
// once written, so hits decoded from it stay exact for as long as its doc table is the
// one a search reads — deletions are tombstones applied after, at scoring. Off until such
// a process turns it on: keeping megabytes of hits no later search reads only makes the
// garbage collector work (measured, 100k, each search a new query: p90 CPU of `acme-corp`
// 24 -> 57-70 ms with the cache on).

import type { DocTable } from '../index/index.js';
import type { PhraseHits } from './phrase-hits.js';

/** Bytes of decoded hits kept: about five phrases found in every message of a 1M archive. */
export const HITS_CACHE_BYTES = 64 * 1024 * 1024;

/** Bytes kept now: none until keepDecodedHits. */
let budget = 0;

/** Turns the cache on (`serve`, `mcp`), keeping at most `bytes`. */
export function keepDecodedHits(bytes = HITS_CACHE_BYTES): void {
  budget = bytes;
}

/** The budget keepDecodedHits set (0: off): a rank thread keeps hits alike. */
export function keptHitsBytes(): number {
  return budget;
}

/** Doc tables are numbered as first seen: a reloaded table (another segment under a reused id) is a new key. */
const serials = new WeakMap<DocTable, number>();
let nextSerial = 0;

/** Least recently used first (Map keeps insertion order; a hit re-inserts). */
const entries = new Map<string, PhraseHits>();
let bytes = 0;

const sizeOf = (hits: PhraseHits): number => hits.ords.byteLength + hits.freqs.byteLength;

/** The hits `key()` names in `table`, decoded by `decode` when not kept (the key is built only when the cache is on). */
export function cachedHits(table: DocTable, key: () => string, decode: () => PhraseHits): PhraseHits {
  if (budget === 0) return decode();
  let serial = serials.get(table);
  if (serial === undefined) {
    serial = nextSerial++;
    serials.set(table, serial);
  }
  const full = `${serial}\u0001${key()}`;
  const kept = entries.get(full);
  if (kept) {
    entries.delete(full);
    entries.set(full, kept);
    return kept;
  }
  const hits = decode();
  const size = sizeOf(hits);
  if (size > budget / 4) return hits;
  entries.set(full, hits);
  bytes += size;
  for (const [oldest, old] of entries) {
    if (bytes <= budget) break;
    entries.delete(oldest);
    bytes -= sizeOf(old);
  }
  return hits;
}

/** Forgets every kept hit (benchmarks measure a fresh process's cost with it). */
export function clearHitsCache(): void {
  entries.clear();
  bytes = 0;
}

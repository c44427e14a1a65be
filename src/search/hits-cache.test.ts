import { describe, expect, it } from 'vitest';
import type { DocTable } from '../index/index.js';
import { cachedHits, clearHitsCache, HITS_CACHE_BYTES, keepDecodedHits } from './hits-cache.js';
import type { PhraseHits } from './phrase-hits.js';

const table = (): DocTable => ({
  length: 0,
  rowids: new Float64Array(0),
  dates: new Float64Array(0),
  tokens: new Uint32Array(0),
  inboxes: new Uint32Array(0),
  flags: new Uint8Array(0),
});

const hitsOf = (n: number): PhraseHits => ({
  ords: new Int32Array(n),
  freqs: new Float64Array(n),
  runs: Int32Array.from([0, n]),
});

/** A decoder of `n` hits that counts its calls. */
function counted(n: number): { decode: () => PhraseHits; calls: () => number } {
  let calls = 0;
  return {
    decode: () => {
      calls++;
      return hitsOf(n);
    },
    calls: () => calls,
  };
}

describe('decoded hits cache', () => {
  it('keeps nothing until a long-lived process turns it on', () => {
    clearHitsCache();
    const { decode, calls } = counted(3);
    const t = table();
    cachedHits(t, () => 'budget', decode);
    cachedHits(t, () => 'budget', decode);
    expect(calls()).toBe(2);
    keepDecodedHits();
    cachedHits(t, () => 'budget', decode);
    cachedHits(t, () => 'budget', decode);
    expect(calls()).toBe(3);
  });

  it('decodes a phrase once per doc table, and again for another table or after clearing', () => {
    keepDecodedHits();
    clearHitsCache();
    const first = table();
    const { decode, calls } = counted(3);
    const a = cachedHits(first, () => 'budget', decode);
    expect(cachedHits(first, () => 'budget', decode)).toBe(a);
    expect(calls()).toBe(1);
    // A segment id reused after a rollback comes back as another table: never the old hits.
    cachedHits(table(), () => 'budget', decode);
    cachedHits(first, () => 'review', decode);
    expect(calls()).toBe(3);
    clearHitsCache();
    cachedHits(first, () => 'budget', decode);
    expect(calls()).toBe(4);
  });

  it('keeps at most its byte budget, dropping the least recently used first', () => {
    keepDecodedHits();
    clearHitsCache();
    const t = table();
    // Each entry is a fifth of the budget (12 bytes per hit): the sixth evicts the oldest unused.
    const fifth = Math.floor(HITS_CACHE_BYTES / 5 / 12);
    const { decode, calls } = counted(fifth);
    for (const key of ['a', 'b', 'c', 'd', 'e']) cachedHits(t, () => key, decode);
    cachedHits(t, () => 'a', decode);
    cachedHits(t, () => 'f', decode);
    expect(calls()).toBe(6);
    cachedHits(t, () => 'a', decode);
    expect(calls()).toBe(6);
    cachedHits(t, () => 'b', decode);
    expect(calls()).toBe(7);
  });
});

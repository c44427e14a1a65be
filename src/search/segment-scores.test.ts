import { describe, expect, it } from 'vitest';
import { BM25_K1, FLAG_BULK, FLAG_UNTRUSTED, type Segment, scoreKernel } from '../index/index.js';
import { encodePostings, newDocTable } from '../index/postings-codec.js';
import type { PostingsPhrase } from './match.js';
import type { PhraseSource } from './phrase-hits.js';
import { scoreSegments } from './segment-scores.js';
import { rankContext } from './test-helpers.js';
import { BULK_FACTOR } from './weights.js';

const DAY_MS = 86_400_000;
const DOCS = 20_000;
const ctx = rankContext({});

/**
 * One segment of 20,000 documents (more than two of the scorer's windows), a day apart up
 * to the recency origin, of varied lengths; every 17th is bulk mail, every 101st unauthenticated.
 */
function segment(): Segment {
  const { table } = newDocTable(DOCS);
  for (let ord = 0; ord < DOCS; ord++) {
    table.rowids[ord] = ord + 1;
    table.dates[ord] = ctx.origin - (DOCS - ord) * DAY_MS;
    table.tokens[ord] = 20 + ((ord * 37) % 400);
    table.inboxes[ord] = 1;
    table.flags[ord] = (ord % 17 === 0 ? FLAG_BULK : 0) | (ord % 101 === 0 ? FLAG_UNTRUSTED : 0);
  }
  return { id: 1, table, deadCount: 0, dead: null };
}

/** Every `step`th document from `first`, with a count that varies. */
function every(step: number, first: number): { ords: number[]; counts: number[] } {
  const ords: number[] = [];
  const counts: number[] = [];
  for (let ord = first; ord < DOCS; ord += step) {
    ords.push(ord);
    counts.push(1 + ((ord * 7) % 5));
  }
  return { ords, counts };
}

const ONE_COLUMN = { width: 1, inFilter: new Uint8Array([1]), weights: new Float64Array([1]) };
const blob = (list: { ords: number[]; counts: number[] }): PhraseSource => ({
  postings: encodePostings(list, 1).postings,
  columns: ONE_COLUMN,
  matches: list.ords.length,
});
/** Decoded hits in two runs, as of a prefix with two expansions: every other document in each. */
const hits = (list: { ords: number[]; counts: number[] }): PhraseSource => {
  const order = list.ords.map((_, i) => i).sort((x, y) => (x % 2) - (y % 2) || x - y);
  return {
    hits: {
      ords: Int32Array.from(order, (i) => list.ords[i] as number),
      freqs: Float64Array.from(order, (i) => list.counts[i] as number),
      runs: Int32Array.from([0, Math.ceil(order.length / 2), order.length]),
    },
  };
};

// Two groups: the first matched by a blob's term, the second by a prefix's decoded hits or
// by a blob's term (a later group reads only the documents that reached it, window by window).
const LISTS = [every(3, 0), every(7, 5), every(5, 1)];
const SOURCES = [blob(LISTS[0] as never), hits(LISTS[1] as never), blob(LISTS[2] as never)];
const phrase = (term: string): PostingsPhrase => ({ term, prefix: false, columns: ['text_authored'] });
const GROUPS = [[phrase('a')], [phrase('h'), phrase('b')]];
const IDF = [1.3, 0.7, 2.1];
const AVGDL = 210;

/** bm25 of every document holding both groups, summed phrase by phrase, by a plain loop. */
function expectedBm25(): Map<number, number> {
  const terms = LISTS.map((list, p) => {
    const byOrd = new Map<number, number>();
    list.ords.forEach((ord, i) => {
      const f = list.counts[i] as number;
      const norm = BM25_K1 * (1 - 0.75 + (0.75 * (20 + ((ord * 37) % 400))) / AVGDL);
      byOrd.set(ord, (IDF[p] as number) * ((f * (BM25_K1 + 1)) / (f + norm)));
    });
    return byOrd;
  });
  const [a, h, b] = terms as [Map<number, number>, Map<number, number>, Map<number, number>];
  const sums = new Map<number, number>();
  for (let ord = 0; ord < DOCS; ord++) {
    const [fromA, fromH, fromB] = [a.get(ord), h.get(ord), b.get(ord)];
    if (fromA === undefined || (fromH === undefined && fromB === undefined)) continue;
    let sum = fromA;
    if (fromH !== undefined) sum += fromH;
    if (fromB !== undefined) sum += fromB;
    sums.set(ord + 1, sum);
  }
  return sums;
}

const scored = (keep: number | null, withCtx = true) =>
  scoreSegments([segment()], [SOURCES], {
    groups: GROUPS,
    idf: IDF,
    avgdl: AVGDL,
    ctx: withCtx ? ctx : null,
    keep,
  });

const byRowid = (hits: ReturnType<typeof scored>) =>
  new Map(Array.from(hits.rowids, (rowid, i) => [rowid, hits.scores[i] as number]));

describe('scoring a segment in windows', () => {
  it('sums bm25 over a segment of several windows as a plain loop does, phrase by phrase', () => {
    expect(byRowid(scored(null, false))).toEqual(expectedBm25());
  });

  it('multiplies by recency and bulk, and leaves out unauthenticated mail', () => {
    const expected = new Map<number, number>();
    for (const [rowid, bm25] of expectedBm25()) {
      const ord = rowid - 1;
      if (ord % 101 === 0) continue;
      const age = (DOCS - ord) * DAY_MS;
      const boosted = bm25 * (1 + 0.5 * 2 ** (-age / (30 * DAY_MS)));
      expected.set(rowid, ord % 17 === 0 ? boosted * BULK_FACTOR : boosted);
    }
    expect(byRowid(scored(null))).toEqual(expected);
  });

  it('keeps every match at or above the floor of the best `keep`, and leaves out the rest', () => {
    const all = byRowid(scored(null));
    const kept = scored(60);
    expect(kept.floor).toBeGreaterThan(0);
    // The newest mail is in the last window: old matches kept early are outscored there, and
    // most of the rest are left out on their bm25 alone. A match left out is below the floor.
    expect(kept.length).toBeLessThan(all.size / 4);
    const keptRowids = new Set(kept.rowids);
    for (const [rowid, score] of all) if (!keptRowids.has(rowid)) expect(score).toBeLessThan(kept.floor);
    const best = (scores: Iterable<number>) => [...scores].sort((x, y) => y - x).slice(0, 60);
    expect(best(kept.scores)).toEqual(best(all.values()));
  });

  it('lays its memory out once for a view whose segments it scores a share at a time', () => {
    const a = segment();
    const b = { ...segment(), id: 2 };
    const inputs = { groups: GROUPS, idf: IDF, avgdl: AVGDL, ctx: null, tables: [a.table, b.table] };
    const ofA = scoreSegments([a], [SOURCES], inputs);
    // Stamps count up from one after each layout (score-kernel.ts): a later base below this one is a new layout.
    const base = scoreKernel().arrays(a.table, AVGDL, 0).base;
    const ofB = scoreSegments([b], [SOURCES], inputs);
    scoreSegments([a], [SOURCES], inputs);
    expect(scoreKernel().arrays(a.table, AVGDL, 0).base).toBeGreaterThan(base);
    expect(byRowid(ofB)).toEqual(byRowid(ofA));
  });
});

// Rank fusion rules that need no archive: reciprocal rank fusion and one leg's merged lists.

import { describe, expect, it } from 'vitest';
import { fuse, mergeLeg, RRF_K } from './fusion.js';

describe('rank fusion', () => {
  it('adds weight/(k + rank) per list, an item counted at its first appearance', () => {
    const scores = fuse([
      ['a', 'b', 'a'],
      ['b', 'c'],
    ]);
    expect(scores.get('a')).toBeCloseTo(1 / (RRF_K + 1));
    expect(scores.get('b')).toBeCloseTo(1 / (RRF_K + 2) + 1 / (RRF_K + 1));
    expect(scores.get('c')).toBeCloseTo(1 / (RRF_K + 2));
  });

  it('weighs each item of a list by its weight, 1 when the list gives none', () => {
    const scores = fuse([['a', 'b'], ['b']], [new Map([['a', 0.5]])]);
    expect(scores.get('a')).toBeCloseTo(0.5 / (RRF_K + 1));
    expect(scores.get('b')).toBeCloseTo(1 / (RRF_K + 2) + 1 / (RRF_K + 1));
  });

  it("merges one leg's lists steeply: an item both lists bring goes before one only the first brings", () => {
    expect(
      mergeLeg([
        ['x', 'y', 'z'],
        ['z', 'y'],
      ]),
    ).toEqual(['z', 'y', 'x']);
  });
});

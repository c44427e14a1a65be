import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { StateCache } from './state-cache.js';

describe('state cache', () => {
  it('computes only the keys it does not keep, in one call, and answers in the keys order', () => {
    const db = new Database(':memory:');
    const cache = new StateCache<string>(3, () => 1);
    const calls: string[][] = [];
    const make = (missing: string[]) => {
      calls.push(missing);
      return new Map(missing.map((key) => [key, `${key}!`]));
    };
    expect(cache.getAll(db, 's1', ['a', 'b'], make)).toEqual(['a!', 'b!']);
    expect(cache.getAll(db, 's1', ['c', 'a', 'b'], make)).toEqual(['c!', 'a!', 'b!']);
    expect(calls).toEqual([['a', 'b'], ['c']]);
    // Over budget, the least recently used goes first: `b` (kept ones are read before the
    // missing are made, so `c` came after it).
    expect(cache.getAll(db, 's1', ['d', 'a'], make)).toEqual(['d!', 'a!']);
    expect(calls.at(-1)).toEqual(['d']);
    expect(cache.get(db, 's1', 'b', () => 'again')).toBe('again');
    expect(cache.get(db, 's1', 'a', () => 'again')).toBe('a!');
    // Another archive state keeps nothing of the last.
    expect(cache.getAll(db, 's2', ['a'], make)).toEqual(['a!']);
    expect(calls.at(-1)).toEqual(['a']);
    expect(() => cache.getAll(db, 's2', ['x'], () => new Map())).toThrow(/nothing was made for x/);
    db.close();
  });
});

// Rank fusion rules that need no archive: the per-thread crowding of the message list.

import { describe, expect, it } from 'vitest';
import { crowded, THREAD_CROWDING } from './fusion.js';

describe('thread crowding', () => {
  it('lets a thread show its first few messages, then gives every other thread its best', () => {
    expect(THREAD_CROWDING).toBe(3);
    // Messages 1-5 from one long thread, all scoring above thread B's best (6) and C's (7, 8).
    const thread = new Map([
      [1, 'A'],
      [2, 'A'],
      [3, 'A'],
      [4, 'A'],
      [5, 'A'],
      [6, 'B'],
      [7, 'C'],
      [8, 'C'],
    ]);
    const ranked = [1, 2, 3, 4, 5, 6, 7, 8].map((rowid) => ({ rowid }));
    expect(crowded(ranked, thread).map((m) => m.rowid)).toEqual([1, 2, 3, 6, 7, 8, 4, 5]);
  });

  it('changes nothing when no thread has more than its share', () => {
    const thread = new Map([
      [1, 'A'],
      [2, 'B'],
      [3, 'A'],
      [4, 'C'],
    ]);
    const ranked = [1, 2, 3, 4].map((rowid) => ({ rowid }));
    expect(crowded(ranked, thread)).toEqual(ranked);
  });
});

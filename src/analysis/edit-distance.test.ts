import { describe, expect, it } from 'vitest';
import { editDistanceWithin, maxEditsFor } from './edit-distance.js';

/** Unbanded optimal-string-alignment distance, the reference for the banded version. */
function osa(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => i + j),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i] as number[];
      const up = d[i - 1] as number[];
      let cost = Math.min(
        (up[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (up[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        cost = Math.min(cost, ((d[i - 2] as number[])[j - 2] as number) + 1);
      }
      row[j] = cost;
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

describe('maxEditsFor', () => {
  it('allows none below 4 letters, 1 for 4–7, 2 from 8', () => {
    expect(['inv', 'acme', 'invoice', 'contract', 'счёт', 'überweisung'].map(maxEditsFor)).toEqual([
      0, 1, 1, 2, 1, 2,
    ]);
  });
});

describe('editDistanceWithin', () => {
  it('counts substitutions, insertions, deletions and adjacent swaps', () => {
    expect(editDistanceWithin('invoice', 'invoise', 1)).toBe(true);
    expect(editDistanceWithin('invoice', 'invoce', 1)).toBe(true);
    expect(editDistanceWithin('invoice', 'invoicce', 1)).toBe(true);
    expect(editDistanceWithin('invoice', 'inovice', 1)).toBe(true);
    expect(editDistanceWithin('invoice', 'inovcie', 1)).toBe(false);
    expect(editDistanceWithin('invoice', 'inovcie', 2)).toBe(true);
    expect(editDistanceWithin('contract', 'kontrakt', 2)).toBe(true);
    expect(editDistanceWithin('contract', 'kontrakts', 2)).toBe(false);
    expect(editDistanceWithin('', 'ab', 2)).toBe(true);
    expect(editDistanceWithin('acme', 'acme', 0)).toBe(true);
  });

  it('agrees with the unbanded distance on many pairs', () => {
    const words = [
      'invoice',
      'invoices',
      'voice',
      'inovice',
      'contract',
      'contact',
      'kontrakt',
      'acme',
      'acne',
      'счёт',
      'счет',
      'stripe',
      'strip',
      'tripe',
      '',
    ];
    for (const a of words) {
      for (const b of words) {
        const d = osa(a, b);
        for (const max of [0, 1, 2, 3])
          expect([a, b, max, editDistanceWithin(a, b, max)]).toEqual([a, b, max, d <= max]);
      }
    }
  });

  it('handles a long term after short ones (reused buffers)', () => {
    expect(editDistanceWithin('ab', 'ac', 1)).toBe(true);
    const long = 'x'.repeat(200);
    expect(editDistanceWithin(long, `${long}yz`, 2)).toBe(true);
    expect(editDistanceWithin(long, `y${long}z`, 1)).toBe(false);
  });
});

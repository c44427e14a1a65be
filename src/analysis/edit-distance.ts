// Bounded edit distance for typo tolerance on text fields ("fuzzy fill"): how many edits a
// term may take, and a banded Damerau (optimal string alignment) check with early exit.

/** Edits allowed for a query term: none below 4 letters, 1 for 4–7, 2 from 8 (issue 4). */
export function maxEditsFor(term: string): 0 | 1 | 2 {
  let letters = 0;
  for (let i = 0; i < term.length; i++) {
    const c = term.charCodeAt(i);
    if (c < 0xdc00 || c > 0xdfff) letters++;
  }
  if (letters < 4) return 0;
  return letters < 8 ? 1 : 2;
}

// Three reusable rows: fuzzy fill compares one term with thousands of vocabulary entries.
let rowA = new Int32Array(64);
let rowB = new Int32Array(64);
let rowC = new Int32Array(64);

/**
 * True when a and b are within `max` edits (insert, delete, substitute, swap adjacent),
 * counted in UTF-16 units (folded terms are BMP in practice). Only a band of width
 * 2·max+1 is computed, and it stops as soon as a whole row exceeds max.
 */
export function editDistanceWithin(a: string, b: string, max: number): boolean {
  if (max < 0) return false;
  if (a === b) return true;
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > max) return false;
  if (la === 0 || lb === 0) return Math.max(la, lb) <= max;
  if (rowA.length <= lb) {
    rowA = new Int32Array(lb + 1);
    rowB = new Int32Array(lb + 1);
    rowC = new Int32Array(lb + 1);
  }
  const beyond = max + 1;
  let twoBack = rowA;
  let previous = rowB;
  let current = rowC;
  for (let j = 0; j <= lb; j++) previous[j] = j <= max ? j : beyond;
  for (let i = 1; i <= la; i++) {
    const from = Math.max(1, i - max);
    const to = Math.min(lb, i + max);
    current[0] = i <= max ? i : beyond;
    if (from > 1) current[from - 1] = beyond;
    let rowMin = current[0] as number;
    const ca = a.charCodeAt(i - 1);
    for (let j = from; j <= to; j++) {
      const cb = b.charCodeAt(j - 1);
      let cost = (previous[j - 1] as number) + (ca === cb ? 0 : 1);
      const del = (previous[j] as number) + 1;
      const ins = (current[j - 1] as number) + 1;
      if (del < cost) cost = del;
      if (ins < cost) cost = ins;
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb) {
        const swap = (twoBack[j - 2] as number) + 1;
        if (swap < cost) cost = swap;
      }
      current[j] = Math.min(cost, beyond);
      if (cost < rowMin) rowMin = cost;
    }
    if (to < lb) current[to + 1] = beyond;
    if (rowMin > max) return false;
    const recycled = twoBack;
    twoBack = previous;
    previous = current;
    current = recycled;
  }
  return (previous[lb] as number) <= max;
}

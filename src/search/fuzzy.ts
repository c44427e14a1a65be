// Typo candidates for fuzzy fill: vocabulary words within maxEditsFor edits of a query
// word, read under a time budget. Text words only: identifiers, numbers
// and compounds are never fuzzed.

import { editDistanceWithin, maxEditsFor, type QueryGroup } from '../analysis/index.js';
import { type Db, sql } from '../store/index.js';

/** Most variants kept per word: beyond that the expansion costs more than it finds. */
const MAX_VARIANTS = 16;

export interface FuzzyResult {
  /** Variants by group index (only groups that got some). */
  readonly variants: Map<number, string[]>;
  /** False when the budget ran out before every word was expanded. */
  readonly complete: boolean;
}

/**
 * Scans the range of the text vocabulary (keyword_terms) sharing each word's first letter
 * (a typo there is rarest, and the range is one b-tree slice), keeping terms within the
 * allowed edit distance.
 */
export function typoVariants(db: Db, groups: readonly QueryGroup[], deadline: number): FuzzyResult {
  const variants = new Map<number, string[]>();
  const scan = sql(db, 'SELECT term FROM keyword_terms WHERE term >= ? AND term < ?').pluck();
  for (const [g, group] of groups.entries()) {
    if (group.parts.length !== 1) continue;
    const word = group.parts[0] as string;
    const edits = maxEditsFor(word);
    if (edits === 0 || /\d/.test(word)) continue;
    const first = word.slice(0, 1);
    const next = String.fromCharCode(first.charCodeAt(0) + 1);
    const found: string[] = [];
    let seen = 0;
    for (const term of scan.iterate(first, next) as IterableIterator<string>) {
      if (++seen % 512 === 0 && Date.now() > deadline) return { variants, complete: false };
      if (term === word || Math.abs(term.length - word.length) > edits) continue;
      if (editDistanceWithin(word, term, edits)) {
        found.push(term);
        if (found.length >= MAX_VARIANTS) break;
      }
    }
    if (found.length > 0) variants.set(g, found);
  }
  return { variants, complete: Date.now() <= deadline };
}

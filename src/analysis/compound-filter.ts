// Token filter: adds one 'compound' token for each identifier written as runs tied by
// `.@-_` (`INV-4471` → inv_4471, `a.b@c.com` → a_b_c_com, `v2.3.1` → v2_3_1), so a body
// query for the whole identifier can require it whole. The parts stay as word tokens.

import { capTerm, hasAsciiDigit, MAX_TOKEN_LENGTH } from './fold.js';
import type { StreamToken, TokenFilter } from './types.js';

/** Joins parts with '_', which the FTS5 tokenizer keeps inside a token (`tokenchars '_'`). */
const COMPOUND_SEPARATOR = '_';

/** Splits a word stream into maximal groups of runs tied by a single joiner. */
export function groupWords<T extends Pick<StreamToken, 'start' | 'end' | 'joiner'>>(
  words: readonly T[],
): T[][] {
  const groups: T[][] = [];
  let current: T[] = [];
  for (const word of words) {
    const previous = current[current.length - 1];
    if (previous !== undefined && word.joiner !== '' && previous.end + 1 === word.start) current.push(word);
    else {
      if (current.length > 0) groups.push(current);
      current = [word];
    }
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

/**
 * The compound term of a group, or null when the group is not an identifier. Qualify:
 * anything with a digit (`INV-4471`, `v2.3.1`, `+1-555-0100`) and anything tied by `.`,
 * `@` or `_` (`stripe.com`, `noreply@github`, `snake_case`). Plain hyphenated words
 * (`e-mail`, `well-known`, `Jean-Pierre`) do not: their parts already match as words, and
 * they are common enough in French and German prose to cost real index space.
 */
export function compoundTerm(parts: readonly Pick<StreamToken, 'term' | 'joiner'>[]): string | null {
  if (parts.length < 2) return null;
  let qualifies = false;
  let term = '';
  for (const [i, part] of parts.entries()) {
    if (i > 0 && part.joiner !== '-' && part.joiner !== '\u2010' && part.joiner !== '\u2011')
      qualifies = true;
    if (!qualifies && hasAsciiDigit(part.term)) qualifies = true;
    // Stop growing once past the cap: a 10,000-part dotted run must stay linear.
    if (term.length <= MAX_TOKEN_LENGTH) term = i === 0 ? part.term : term + COMPOUND_SEPARATOR + part.term;
  }
  return qualifies ? capTerm(term) : null;
}

/**
 * Emits each compound right after its last part, so parts stay adjacent for phrases.
 * Expects word tokens only: it runs before the stem filter.
 */
export const compoundFilter: TokenFilter = (tokens) => {
  const out: StreamToken[] = [];
  for (const group of groupWords(tokens)) {
    for (const part of group) out.push(part);
    const term = compoundTerm(group);
    if (term === null) continue;
    const first = group[0] as StreamToken;
    const last = group[group.length - 1] as StreamToken;
    out.push({
      term,
      start: first.start,
      end: last.end,
      kind: 'compound',
      source: term,
      ascii: false,
      joiner: '',
    });
  }
  return out;
};

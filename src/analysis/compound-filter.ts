// Token filters: the text side adds one 'compound' token for each run of words tied by
// `.@-_` (`INV-4471` → inv_4471, `a.b@c.com` → a_b_c_com, `v2.3.1` → v2_3_1, `kick-off` →
// kick_off), and one for each shorter suffix of two or more parts (b_c_com, c_com), so a body
// query for any stretch of a run is one term, whole or as the start of a longer one; the
// identifier side adds every suffix of such a run, so a query for any stretch of an address
// is one prefix lookup. The parts stay as word tokens.

import { capTerm, MAX_TOKEN_LENGTH } from './fold.js';
import type { StreamToken, TokenFilter } from './types.js';

/** Joins parts with '_', which the FTS5 tokenizer keeps inside a token (`tokenchars '_'`). */
export const COMPOUND_SEPARATOR = '_';

/** `word` is tied to the run just before it by a single joiner. */
const tied = (previous: Pick<StreamToken, 'end'>, word: Pick<StreamToken, 'start' | 'joiner'>): boolean =>
  word.joiner !== '' && previous.end + 1 === word.start;

/** Splits a word stream into maximal groups of runs tied by a single joiner. */
export function groupWords<T extends Pick<StreamToken, 'start' | 'end' | 'joiner'>>(
  words: readonly T[],
): T[][] {
  const groups: T[][] = [];
  let current: T[] = [];
  for (const word of words) {
    const previous = current[current.length - 1];
    if (previous !== undefined && tied(previous, word)) current.push(word);
    else {
      if (current.length > 0) groups.push(current);
      current = [word];
    }
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

/**
 * The compound term of a group of two or more parts, or null for a single word. Plain
 * hyphenated words (`kick-off`, `acme-corp`) have one as identifiers do: a query for them
 * is one term, which the postings (they keep no positions) answer, where a walk over the
 * positions of two words that prose and signatures repeat cost 130-330 ms at 1M messages
 * (`acme-corp` over "Acme Corp" in every signature of an inbox).
 */
export function compoundTerm(parts: readonly Pick<StreamToken, 'term'>[]): string | null {
  if (parts.length < 2) return null;
  let term = '';
  for (const [i, part] of parts.entries()) {
    // Stop growing once past the cap: a 10,000-part dotted run must stay linear.
    if (term.length <= MAX_TOKEN_LENGTH) term = i === 0 ? part.term : term + COMPOUND_SEPARATOR + part.term;
  }
  return capTerm(term);
}

/**
 * Suffix compounds one run adds at most, besides its whole compound: real identifiers have
 * a few parts (a host name ~8), and a 10,000-part dotted run must stay linear.
 */
export const MAX_SUFFIX_COMPOUNDS = 16;

/**
 * Pushes the compounds of the run tokens[first..last] (two or more parts): the whole run's,
 * then each shorter suffix of two or more parts, longest first (`noreply@github.com` →
 * noreply_github_com, github_com), at most MAX_SUFFIX_COMPOUNDS of them. Built from the end,
 * each suffix from the (cut) next one; cutting from the end keeps the start, so the whole
 * run's term is compoundTerm's.
 */
function pushCompounds(
  out: StreamToken[],
  tokens: readonly StreamToken[],
  first: number,
  last: number,
): void {
  const end = (tokens[last] as StreamToken).end;
  let term = (tokens[last] as StreamToken).term;
  const found: StreamToken[] = [];
  for (let i = last - 1; i >= first; i--) {
    const part = tokens[i] as StreamToken;
    term = capTerm(part.term + COMPOUND_SEPARATOR + term);
    if (i === first || i - first <= MAX_SUFFIX_COMPOUNDS)
      found.push({ term, start: part.start, end, kind: 'compound', source: term, ascii: false, joiner: '' });
  }
  for (let i = found.length - 1; i >= 0; i--) out.push(found[i] as StreamToken);
}

/**
 * Emits a run's compounds right after its last part, so parts stay adjacent for FTS5's
 * phrases (question mode matches an identifier's parts spaced too).
 * Expects word tokens only: it runs before the stem filter. Groups are found in place, not
 * gathered as groupWords does: nearly every word is a group of one, an array per token.
 */
export const compoundFilter: TokenFilter = (tokens) => {
  const out: StreamToken[] = [];
  let first = 0;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as StreamToken;
    out.push(token);
    const next = tokens[i + 1];
    if (next !== undefined && tied(token, next)) continue;
    if (i > first) pushCompounds(out, tokens, first, i);
    first = i + 1;
  }
  return out;
};

/**
 * Leads every identifier compound, so a word's prefix never expands into compounds that
 * start with it (`kevin*` would also read kevin_lewis_acme_corp_com, in every message of
 * its owner's inbox: the same documents again, at twice the cost).
 */
const IDENTIFIER_COMPOUND_MARK = COMPOUND_SEPARATOR;

/** The compound a query group matches on identifier fields: its parts, tied, cut as documents cut them. */
export const identifierCompound = (parts: readonly string[]): string =>
  capTerm(IDENTIFIER_COMPOUND_MARK + parts.join(COMPOUND_SEPARATOR));

/**
 * Identifier fields: after each run of two or more parts, the compound of every suffix of
 * two or more parts (`kevin.lewis@acme-corp.com` → _kevin_lewis_acme_corp_com,
 * _lewis_acme_corp_com, _acme_corp_com, _corp_com), longest first. A query group then
 * matches as one prefix of one term (`lewis@acme` → _lewis_acme*), within one address or
 * word: what a phrase over four parts present in every message of an inbox cost a full
 * decode of each.
 */
export const identifierCompoundFilter: TokenFilter = (tokens) => {
  const out: StreamToken[] = [];
  for (const group of groupWords(tokens)) {
    for (const part of group) out.push(part);
    if (group.length < 2) continue;
    const last = group[group.length - 1] as StreamToken;
    // Built from the end, each suffix from the (cut) next one: linear in the run's length.
    const suffixes: StreamToken[] = [];
    let term = last.term;
    for (let i = group.length - 2; i >= 0; i--) {
      const part = group[i] as StreamToken;
      term = capTerm(part.term + COMPOUND_SEPARATOR + term);
      const marked = capTerm(IDENTIFIER_COMPOUND_MARK + term);
      suffixes.push({
        term: marked,
        start: part.start,
        end: last.end,
        kind: 'compound',
        source: marked,
        ascii: false,
        joiner: '',
      });
    }
    for (let i = suffixes.length - 1; i >= 0; i--) out.push(suffixes[i] as StreamToken);
  }
  return out;
};

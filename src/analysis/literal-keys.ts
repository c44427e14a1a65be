// What a text must literally contain to yield a given term, so that a caller looking for a
// few terms in a long text (highlights) can skip the stretches that cannot hold them
// instead of analysing every word.

import { COMPOUND_SEPARATOR } from './compound-filter.js';
import { JOINER_CHARS } from './tokenizer.js';

/** Anything but printable ASCII and whitespace: the characters worth a closer look. */
const UNUSUAL = /[^ -~\s]/gu;

/**
 * Letters, digits and marks (folded, not merely lowercased, past ASCII), the ignorable
 * characters the char filter removes (char-filters.ts: a soft hyphen inside a word), and the
 * non-ASCII joiners (tokenizer.ts): what changes the analyzers' terms beyond lowercase.
 */
const NOT_LOWERCASED =
  /[\p{L}\p{N}\p{M}\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff\u2010\u2011]/u;

/**
 * Whether every term the text analyzers make of `text` is in `text` lowercased: true when
 * its words are ASCII, whatever else breaks them (no-break spaces, typographic quotes and
 * dashes), as the fold of an ASCII run is its lowercase (fold-filter.ts). Other characters
 * are looked at one by one: mail text holds few, or a letter among its first.
 */
export function foldsByLowercase(text: string): boolean {
  for (const [unusual] of text.matchAll(UNUSUAL)) if (NOT_LOWERCASED.test(unusual)) return false;
  return true;
}

/**
 * A string every word stemmed to `stem` starts with, folded: the stem less its last two
 * characters. Snowball's stemmers strip and rewrite suffixes only, and rewrite at most the
 * stem's last two characters (`dying` → `die`, `abdication` → `abdiqu`, Dutch
 * `aalbesseboom` → `aalbessebom`); checked against 430,000 dictionary words of the eight
 * languages (literal-keys.test.ts). At least one character.
 */
export function stemKey(stem: string): string {
  return stem.slice(0, Math.max(1, stem.length - 2));
}

/** A regular expression's source and the length of the shortest text it matches. */
export interface LiteralPattern {
  readonly source: string;
  readonly length: number;
}

/** The ASCII joiners (tokenizer.ts): what ties the runs of a compound in a text that folds by lowercasing. */
const ASCII_JOINERS = `[${[...JOINER_CHARS]
  .filter((c) => c.charCodeAt(0) < 0x80)
  .map((c) => (c === '-' ? '\\-' : c))
  .join('')}]`;

/**
 * What a text folding by lowercase holds, lowercased, wherever it has a token whose term is
 * `term`, or one starting with it (a word, or a compound of tied runs): the term itself, or
 * the compound's runs tied by any joiner. A term's runs are letters, digits and marks
 * (tokenizer.ts): nothing in them needs escaping.
 */
export function termPattern(term: string): LiteralPattern {
  return { source: term.split(COMPOUND_SEPARATOR).join(ASCII_JOINERS), length: term.length };
}

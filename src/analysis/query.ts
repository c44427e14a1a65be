// Query analysis: turns one raw query string into groups of folded parts, the compound
// they form and their stems, with the same chain as the document side so the
// two always agree.

import { applyCharFilters, ignorableCharFilter } from './char-filters.js';
import { compoundTerm, groupWords } from './compound-filter.js';
import { foldFilter } from './fold-filter.js';
import type { Language } from './language.js';
import { stemWord } from './stemmer.js';
import { tokenize } from './tokenizer.js';
import type { StreamToken } from './types.js';

/**
 * One chunk of the query: runs tied by `.@-_`, cut off by whitespace or other punctuation.
 * `INV-4471` → { raw: 'INV-4471', parts: ['inv', '4471'], compound: 'inv_4471' }.
 */
export interface QueryGroup {
  /** The chunk as typed (offsets `start`..`end` into the query). */
  readonly raw: string;
  readonly start: number;
  readonly end: number;
  /** Folded runs, each cut to MAX_TOKEN_LENGTH exactly as documents are. */
  readonly parts: readonly string[];
  /** The compound term documents index for this chunk's parts tied, or null for a single word. */
  readonly compound: string | null;
  /**
   * stems[i]: the distinct stems of parts[i] in the requested languages, including a stem
   * equal to the part itself (documents omit those, so match stems against stem tokens OR
   * word tokens). Empty for short parts, numbers, and when no language was requested.
   */
  readonly stems: readonly (readonly string[])[];
}

export interface ParseQueryOptions {
  /** Languages whose stems to compute, e.g. the languages present in the archive. */
  readonly languages?: readonly Language[];
}

/**
 * Splits a raw query into groups. Quotes, operators and other syntax characters are plain
 * text that breaks runs, never an error; a query of only punctuation gives [].
 * The caller bounds the query length.
 */
export function parseQuery(q: string, options: ParseQueryOptions = {}): QueryGroup[] {
  const languages = options.languages ?? [];
  const filtered = applyCharFilters([ignorableCharFilter], q);
  const words = foldFilter(tokenize(filtered.text), 'query');
  return groupWords(words).map((group) => {
    const first = group[0] as StreamToken;
    const last = group[group.length - 1] as StreamToken;
    const start = filtered.toOriginal(first.start);
    const end = filtered.toOriginal(last.end - 1) + 1;
    return {
      raw: q.slice(start, end),
      start,
      end,
      parts: group.map((word) => word.term),
      compound: compoundTerm(group),
      stems: group.map((word) => stemsOf(word.source, languages)),
    };
  });
}

function stemsOf(source: string, languages: readonly Language[]): string[] {
  const stems: string[] = [];
  for (const language of languages) {
    const stem = stemWord(language, source);
    if (stem !== '' && !stems.includes(stem)) stems.push(stem);
  }
  return stems;
}

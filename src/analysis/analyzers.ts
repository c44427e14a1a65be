// The analyzers: factories for analysis chains (char filters → tokenizer → token filters)
// that return tokens with offsets into the original text.

import {
  applyCharFilters,
  type CharFilter,
  type FilteredText,
  identity,
  ignorableCharFilter,
} from './char-filters.js';
import { compoundFilter, identifierCompoundFilter } from './compound-filter.js';
import { foldFilter } from './fold-filter.js';
import type { Language } from './language.js';
import { stemFilter } from './stem-filter.js';
import { tokenize } from './tokenizer.js';
import type { AnalysisReason, Analyzer, StreamToken, TermToken, Token, TokenFilter } from './types.js';

/** Runs the chain and maps offsets back to the original text. */
export function createAnalyzer(
  name: string,
  charFilters: readonly CharFilter[],
  tokenFilters: readonly TokenFilter[],
): Analyzer {
  const run = (
    text: string,
    reason: AnalysisReason,
  ): Pick<FilteredText, 'toOriginal'> & { tokens: StreamToken[] } => {
    const filtered = applyCharFilters(charFilters, text);
    let tokens = tokenize(filtered.text);
    for (const filter of tokenFilters) tokens = filter(tokens, reason);
    return { tokens, toOriginal: filtered.toOriginal };
  };
  return {
    name,
    analyze(text: string, reason: AnalysisReason): Token[] {
      const { tokens, toOriginal } = run(text, reason);
      // Most text has nothing to filter: its offsets need no mapping.
      if (toOriginal === identity)
        return tokens.map(({ term, start, end, kind }) => ({ term, start, end, kind }));
      return tokens.map(({ term, start, end, kind }) => ({
        term,
        // end - 1 is the token's last kept unit; mapping it (not `end`) keeps removed
        // characters after the token out of its span.
        start: toOriginal(start),
        end: toOriginal(end - 1) + 1,
        kind,
      }));
    },
    // A stream token is a TermToken already: the chain's own tokens are handed out.
    terms: (text: string, reason: AnalysisReason): readonly TermToken[] => run(text, reason).tokens,
  };
}

const CHAR_FILTERS: readonly CharFilter[] = [ignorableCharFilter];

/**
 * Identifier fields (from, recipients, subject): every alphanumeric run, folded, and the
 * suffixes of runs tied by joiners (`acme-corp.com` → acme_corp_com, corp_com). No stems or
 * stopwords: the search layer matches each query group as a prefix of one of these.
 */
export function identifierAnalyzer(): Analyzer {
  return IDENTIFIER;
}

const IDENTIFIER = createAnalyzer('identifier', CHAR_FILTERS, [foldFilter, identifierCompoundFilter]);

/**
 * The identifier analyzer's words alone, for locating matches in a field's text (highlights
 * walk the runs themselves; building every suffix compound only to drop it cost each hit).
 */
export function identifierWordsAnalyzer(): Analyzer {
  return IDENTIFIER_WORDS;
}

const IDENTIFIER_WORDS = createAnalyzer('identifier-words', CHAR_FILTERS, [foldFilter]);

/**
 * Text fields (authored body, attachment text, quoted history): folded words, compound
 * identifiers, and stems in `language` (none when null). Tokens come in stream order:
 * each word, then its stem, and a compound right after its last part.
 */
export function textAnalyzer(language: Language | null): Analyzer {
  if (language === null) return TEXT_NO_LANGUAGE;
  let analyzer = textAnalyzers.get(language);
  if (analyzer === undefined) {
    analyzer = createAnalyzer(`text-${language}`, CHAR_FILTERS, [
      foldFilter,
      compoundFilter,
      stemFilter(language),
    ]);
    textAnalyzers.set(language, analyzer);
  }
  return analyzer;
}

const TEXT_NO_LANGUAGE = createAnalyzer('text', CHAR_FILTERS, [foldFilter, compoundFilter]);
const textAnalyzers = new Map<Language, Analyzer>();

/** Same as analyzer.analyze(text, reason). */
export function analyze(analyzer: Analyzer, text: string, reason: AnalysisReason): Token[] {
  return analyzer.analyze(text, reason);
}

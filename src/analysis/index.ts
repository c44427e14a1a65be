// Text analysis for mailsift's keyword search: analyzers that turn field text into folded
// terms with offsets into the original text, and the query side that must agree with them.
//
// Contract with the search layer:
// - Terms are written into FTS5 columns space-separated (tokenizer `unicode61
//   remove_diacritics 0 tokenchars '_'`); every term is one FTS5 token.
// - Route text tokens by kind: 'word' and 'compound' to the exact column (compounds follow
//   their last part, so parts stay adjacent for FTS5's phrases), 'stem' to the stem column.
// - Documents omit stems equal to their word; a query stem therefore matches a document's
//   stem column OR its exact column.
// - Identifier fields hold words and the suffix compounds of runs tied by joiners (led by
//   '_', so a word's prefix never reaches them); a query group matches one of them
//   (identifierCompound), its last part as a prefix from MIN_PREFIX_LENGTH characters.
// - Terms are cut to MAX_TOKEN_LENGTH on both sides, so a longer query run still matches
//   its whole (cut) token; match such a part exactly, not as a prefix of something longer.
// - Highlights come from the original text: Token.start/end and QueryGroup.start/end.

export { analyze, identifierAnalyzer, identifierWordsAnalyzer, textAnalyzer } from './analyzers.js';
export { COMPOUND_SEPARATOR, identifierCompound } from './compound-filter.js';
export { editDistanceWithin, maxEditsFor } from './edit-distance.js';
export { foldTerm, hasAsciiDigit, MAX_TOKEN_LENGTH } from './fold.js';
export {
  DETECT_MAX_CHARS,
  detectLanguage,
  isLanguage,
  LANGUAGES,
  type Language,
  settledLanguageOf,
} from './language.js';
export { type ParseQueryOptions, parseQuery, type QueryGroup } from './query.js';
export { stemWord } from './stemmer.js';
export { JOINER_CHARS } from './tokenizer.js';
export type { AnalysisReason, Analyzer, TermToken, Token, TokenKind } from './types.js';

/** Shortest query part matched as a prefix on identifier fields; shorter parts match exactly. */
export const MIN_PREFIX_LENGTH = 2;

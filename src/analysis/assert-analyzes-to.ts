// The one test helper every analysis test uses (Lucene's assertTokenStreamContents): checks
// the terms an analyzer produces, that each token's offsets point at text in the input, and
// that its terms() (indexing's view) agree.

import { deepStrictEqual, ok } from 'node:assert/strict';
import type { AnalysisReason, Analyzer, Token, TokenKind } from './types.js';

/**
 * Expected terms, in order. A plain string is a term of any kind; `kind:term` (e.g.
 * 'stem:invoic', 'compound:inv_4471') also checks the kind.
 */
export function assertAnalyzesTo(
  analyzer: Analyzer,
  input: string,
  expectedTerms: readonly string[],
  reason: AnalysisReason = 'document',
): Token[] {
  const tokens = analyzer.analyze(input, reason);
  const actual = tokens.map((token, i) => {
    const expected = expectedTerms[i] ?? '';
    const kind = KINDS.find((k) => expected.startsWith(`${k}:`));
    return kind === undefined ? token.term : `${token.kind}:${token.term}`;
  });
  deepStrictEqual(actual, expectedTerms);
  // What indexing reads: the same tokens, offsets aside.
  const kinded = ({ term, kind }: Pick<Token, 'term' | 'kind'>): string => `${kind}:${term}`;
  deepStrictEqual(analyzer.terms(input, reason).map(kinded), tokens.map(kinded));
  for (const token of tokens) {
    ok(
      token.start >= 0 && token.start < token.end && token.end <= input.length,
      `offsets of '${token.term}' out of range: ${token.start}..${token.end}`,
    );
  }
  return tokens;
}

const KINDS: readonly TokenKind[] = ['word', 'compound', 'stem'];

/** The original text behind each token, for offset assertions. */
export function spans(input: string, tokens: readonly Token[]): string[] {
  return tokens.map((token) => input.slice(token.start, token.end));
}

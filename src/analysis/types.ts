// The shapes every analysis piece shares: public tokens and analyzers, and the mutable
// stream token that flows from the tokenizer through the token filters.

/**
 * 'word': a folded alphanumeric run, the exact term. 'compound': runs joined by `.@-_`
 * (`inv_4471`). 'stem': the language stem of the word just before it.
 */
export type TokenKind = 'word' | 'compound' | 'stem';

/** Why text is analysed (as FTS5 tells its tokenizers): indexing a document or a query. */
export type AnalysisReason = 'document' | 'query';

export interface Token {
  /** The indexed form: folded, at most MAX_TOKEN_LENGTH units, a single FTS5 token. */
  readonly term: string;
  /** Offsets into the ORIGINAL input: input.slice(start, end) is the text that produced it. */
  readonly start: number;
  readonly end: number;
  readonly kind: TokenKind;
}

/** What indexing reads of a token: its indexed form and its kind. */
export type TermToken = Pick<Token, 'term' | 'kind'>;

export interface Analyzer {
  readonly name: string;
  analyze(text: string, reason: AnalysisReason): Token[];
  /**
   * The same tokens, in the same order, for indexing: terms and kinds only, so no token's
   * offsets are mapped back nor copied into a Token of its own (~900 tokens per message).
   */
  terms(text: string, reason: AnalysisReason): readonly TermToken[];
}

/** A token inside the chain; filters may rewrite `term` in place (Lucene's attributes). */
export interface StreamToken {
  term: string;
  /** Offsets into the char-filtered text until the analyzer maps them back. */
  readonly start: number;
  readonly end: number;
  readonly kind: TokenKind;
  /** The run as written, before folding (stemmers read accents). */
  readonly source: string;
  /** Every unit of `source` is ASCII. */
  readonly ascii: boolean;
  /** The single joiner (`.@-_`) tying this run to the previous one, or ''. */
  readonly joiner: string;
}

export type TokenFilter = (tokens: StreamToken[], reason: AnalysisReason) => StreamToken[];

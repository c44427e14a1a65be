// Token filter: folds every token's term (lowercase + accents, see foldTerm) and caps its
// length; drops runs that fold to nothing (a stray combining mark).

import { capTerm, foldTerm } from './fold.js';
import type { TokenFilter } from './types.js';

export const foldFilter: TokenFilter = (tokens) => {
  // Compacted in place: the stream is the chain's own, and a second array per text was garbage.
  let kept = 0;
  for (const token of tokens) {
    // A run is only letters and digits, so an ASCII run folds by lowercasing.
    const folded = capTerm(token.ascii ? token.source.toLowerCase() : foldTerm(token.source));
    if (folded.length === 0) continue;
    token.term = folded;
    tokens[kept++] = token;
  }
  tokens.length = kept;
  return tokens;
};

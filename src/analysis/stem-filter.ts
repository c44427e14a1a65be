// Token filter: after each word, its stem in the message's language as a 'stem' token,
// a weaker match the search layer keeps apart from exact terms (route by kind).

import type { Language } from './language.js';
import { wordStemmer } from './stemmer.js';
import type { StreamToken, TokenFilter } from './types.js';

/**
 * For 'document' a stem is emitted only when it differs from the word: the word itself is
 * already indexed, and half of all words are their own stem. For 'query' it is always
 * emitted, because the stem must also be looked up where other words stemmed to it.
 * So a query stem matches a document's stem tokens OR its word tokens.
 */
export function stemFilter(language: Language): TokenFilter {
  const stemWord = wordStemmer(language);
  return (tokens, reason) => {
    const out: StreamToken[] = [];
    for (const token of tokens) {
      out.push(token);
      if (token.kind !== 'word') continue;
      const stem = stemWord(token.source);
      if (stem === '' || (reason === 'document' && stem === token.term)) continue;
      // Spelled out rather than spread: the same shape as the tokenizer's tokens.
      out.push({
        term: stem,
        start: token.start,
        end: token.end,
        kind: 'stem',
        source: token.source,
        ascii: token.ascii,
        joiner: token.joiner,
      });
    }
    return out;
  };
}

// The lines a reply answers, for its chunk's context header: the opening of the message it
// replies to, and the sentence of it the reply answers ("yes please, send the 10,000 from
// Ohio" answers "I can get 10,000 out of our Ohio stock next week", not the opening "Bad news
// on PO-8812"). A reply seldom repeats what it is about, so both give its chunk the context.

import { foldTerm, hasAsciiDigit, type Language, stemWord } from '../analysis/index.js';
import { isStopword } from './stopwords.js';
import { contentSentences } from './tokens.js';

/** Words, numbers with their separators ("10,000", "4.5") and codes, as written. */
const WORD = /[\p{L}\p{N}]+(?:[.,'’][\p{L}\p{N}]+)*/gu;

/**
 * Fewest words a sentence must share with the reply to be the one it answers: one shared word
 * ("order", "Friday") is too common a coincidence to beat the parent's own opening.
 */
const MIN_SHARED = 2;

/** The reply's words that can tie it to a sentence: folded, stemmed, no function words. */
function contentWords(text: string, language: Language | null): Set<string> {
  const words = new Set<string>();
  for (const [word] of text.matchAll(WORD)) {
    const folded = foldTerm(word);
    const number = hasAsciiDigit(folded);
    if (folded.length < (number ? 2 : 3) || isStopword(folded, language)) continue;
    words.add((!number && language && stemWord(language, word)) || folded);
  }
  return words;
}

/**
 * What of `parent` (a message's authored text) `reply` answers, both read in the reply's
 * `language`: the parent's first content sentence, which says what the exchange is about, and
 * the sentence the reply answers when that is another one: the one sharing the most words
 * with the reply, else the parent's first question. Empty when the parent has no content.
 */
export function repliedSentences(parent: string, reply: string, language: Language | null): string[] {
  const candidates = contentSentences(parent);
  const opening = candidates[0];
  if (opening === undefined) return [];
  const replyWords = contentWords(reply, language);
  let answered: string | undefined;
  let bestShared = MIN_SHARED - 1;
  for (const sentence of candidates) {
    let shared = 0;
    for (const word of contentWords(sentence, language)) if (replyWords.has(word)) shared++;
    if (shared > bestShared) {
      answered = sentence;
      bestShared = shared;
    }
  }
  answered ??= candidates.find((s) => s.endsWith('?'));
  return answered === undefined || answered === opening ? [opening] : [opening, answered];
}

// Snowball stemming for our languages, behind a bounded cache: uncached stemming runs at
// 30–100k words/s, cached lookups at millions/s (FACTS.md), and mail repeats its words.

import type { Stemmer } from 'snowball-stemmers';
import { foldTerm, hasAsciiDigit, MAX_TOKEN_LENGTH } from './fold.js';
import type { Language } from './language.js';
import { keepSnowballCache, type Snowball, snowball } from './snowball.js';

const ALGORITHMS: Readonly<Record<Language, string>> = {
  en: 'english',
  it: 'italian',
  de: 'german',
  fr: 'french',
  es: 'spanish',
  pt: 'portuguese',
  nl: 'dutch',
  ru: 'russian',
};

/**
 * Distinct words cached per language. Real vocabularies of a mailbox run to ~100k words;
 * 50k entries (a few MB) keep the hit rate high, and eviction is oldest-first.
 */
const CACHE_SIZE = 50_000;

/** Words shorter than this are left alone: no snowball rule shortens them usefully. */
const MIN_STEM_INPUT = 3;

interface CachedStemmer {
  readonly stemmer: Stemmer;
  readonly cache: Map<string, string>;
}

const stemmers = new Map<Language, CachedStemmer>();

function stemmerFor(language: Language): CachedStemmer {
  let entry = stemmers.get(language);
  if (entry === undefined) {
    // Loaded with the first stemmer, not with this module: a process that stems nothing
    // (show, list) never loads it.
    entry = { stemmer: snowball().newStemmer(ALGORITHMS[language]), cache: new Map() };
    keepSnowballCache(warmEveryStemmer);
    stemmers.set(language, entry);
  }
  return entry;
}

/**
 * Words whose stemming walks most of each language's rule steps (plurals, verb endings,
 * derivational suffixes, undoubling), so that the code cache holds every stemmer compiled.
 */
const WARM_WORDS: Readonly<Record<Language, readonly string[]>> = {
  en: ['generously', 'nationalization', 'happiness', 'hopping', 'agreed', 'cried', 'running'],
  it: ['abbandonata', 'abitazione', 'velocemente', 'cercherebbero', 'amicizie', 'parlando'],
  de: ['aufeinanderfolgenden', 'häuser', 'freundlichkeit', 'schönsten', 'gemeinschaften'],
  fr: ['continuellement', 'nationalisation', 'généralement', 'finissaient', 'heureuses'],
  es: ['aceptación', 'rápidamente', 'comiéramos', 'habilidades', 'hablándoles', 'organizaciones'],
  pt: ['nacionalização', 'rapidamente', 'falássemos', 'felicidades', 'organizações'],
  nl: ['lichamelijke', 'ophouden', 'gevaarlijkheid', 'koninklijke', 'boeken'],
  ru: ['вероятнее', 'организациями', 'прекраснейший', 'говорившими', 'быстрость'],
};

function warmEveryStemmer(library: Snowball): void {
  for (const [language, algorithm] of Object.entries(ALGORITHMS) as Array<[Language, string]>) {
    const stemmer = library.newStemmer(algorithm);
    for (const word of WARM_WORDS[language]) stemmer.stem(word);
  }
}

/**
 * The folded stem of a word as written, or '' when it is too short, longer than the token
 * cap, or holds a digit. Snowball rules
 * read accents (`-ación`, `-ção`, `ß`), so the stemmer sees the word lowercased with ё→е
 * (the Russian stemmer does not know ё) but not folded; the stem is folded afterwards so it
 * compares with folded query stems.
 */
export function stemWord(language: Language, word: string): string {
  return wordStemmer(language)(word);
}

/**
 * stemWord for one language, its stemmer and cache looked up once: a document stems each of
 * its ~600 words, and the lookup by language was a Map read per word.
 */
export function wordStemmer(language: Language): (word: string) => string {
  const { stemmer, cache } = stemmerFor(language);
  return (word) => {
    if (word.length < MIN_STEM_INPUT || word.length > MAX_TOKEN_LENGTH) return '';
    let stem = cache.get(word);
    if (stem === undefined) {
      // Codes and numbers (`4471`, `2nd`, `v2`) have no stem.
      stem = hasAsciiDigit(word) ? '' : foldTerm(stemmer.stem(stemmerInput(word)));
      if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      cache.set(word, stem);
    }
    return stem;
  };
}

/** NFKC so ligatures, fullwidth and styled letters (`ﬁ`, `Ｆ`, `𝐈`) reach the stemmer as plain letters. */
function stemmerInput(word: string): string {
  if (isAsciiString(word)) return word.toLowerCase();
  return word.normalize('NFKC').toLowerCase().replaceAll('ё', 'е');
}

function isAsciiString(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0x80) return false;
  return true;
}

// Languages with stemming support, and per-message language detection (tinyld restricted
// to those languages), used to pick the stemmer for a message's text fields.

import { createRequire } from 'node:module';
import { guessByFunctionWords } from './function-words.js';

export const LANGUAGES = ['en', 'it', 'de', 'fr', 'es', 'pt', 'nl', 'ru'] as const;

export type Language = (typeof LANGUAGES)[number];

/**
 * Characters looked at. tinyld costs ~0.5 ms on 2,000 characters and ~0.2 ms on 500
 * (measured here); 1,000 characters of real prose are ample to tell our languages apart and
 * keep detection a small part of the ~1.3 ms per message the ingest target allows.
 */
export const DETECT_MAX_CHARS = 1000;

/** Below this many letters a guess is noise ("Ok, thanks!"): no language, no stems. */
const MIN_LETTERS = 12;

type Tinyld = typeof import('tinyld');

// tinyld's profile tables take ~135 ms to load: load them on the first detection, not when
// any surface merely imports the analysis module.
let tinyld: Tinyld | null = null;
function loadTinyld(): Tinyld {
  tinyld ??= createRequire(import.meta.url)('tinyld') as Tinyld;
  return tinyld;
}

const ONLY = { only: [...LANGUAGES] };
const LANGUAGE_SET: ReadonlySet<string> = new Set(LANGUAGES);

export function isLanguage(value: string): value is Language {
  return LANGUAGE_SET.has(value);
}

/**
 * Detects the language of a message text among LANGUAGES, from its first DETECT_MAX_CHARS
 * characters: function words decide clear cases, tinyld the rest. Returns null for text with too few letters, or mostly in another script.
 * Text mostly in Cyrillic is 'ru' without asking the model (Ukrainian and Bulgarian mail
 * gets the Russian stemmer, which is the closest we have).
 */
export function detectLanguage(text: string): Language | null {
  const sample = sampleOf(text);
  const settled = settledLanguage(sample);
  if (settled !== undefined) return settled;
  const detected = loadTinyld().detect(sample, ONLY);
  return isLanguage(detected) ? detected : null;
}

/**
 * The language of `text` when its script or its function words settle it, as detectLanguage
 * finds it; null when they do not, without asking tinyld's guess.
 */
export function settledLanguageOf(text: string): Language | null {
  return settledLanguage(sampleOf(text)) ?? null;
}

const sampleOf = (text: string): string =>
  text.length > DETECT_MAX_CHARS ? text.slice(0, DETECT_MAX_CHARS) : text;

/** What the script or the function words make of `sample`: undefined when only tinyld can tell. */
function settledLanguage(sample: string): Language | null | undefined {
  let latin = 0;
  let cyrillic = 0;
  let other = 0;
  for (let i = 0; i < sample.length; i++) {
    const c = sample.charCodeAt(i);
    if (
      (c >= 0x41 && c <= 0x5a) ||
      (c >= 0x61 && c <= 0x7a) ||
      (c >= 0xc0 && c <= 0x24f && c !== 0xd7 && c !== 0xf7)
    )
      latin++;
    else if (c >= 0x400 && c <= 0x4ff) cyrillic++;
    else if (c > 0x2ff && isLetter(c)) other++;
  }
  if (latin + cyrillic + other < MIN_LETTERS) return null;
  if (cyrillic > latin && cyrillic > other) return 'ru';
  if (latin <= other) return null;
  return guessByFunctionWords(sample) ?? undefined;
}

const LETTER = /\p{L}/u;
function isLetter(code: number): boolean {
  return LETTER.test(String.fromCharCode(code));
}

// Every language pack by code, compiled once at load.

import { type CompiledPack, compilePack, type LanguageCode } from './language.js';
import { en } from './phrases-en.js';
import { it } from './phrases-it.js';
import { de, ja, nl, ru, zh } from './phrases-other.js';
import { es, fr, pt } from './phrases-romance.js';

export const PACKS: Readonly<Record<LanguageCode, CompiledPack>> = {
  en: compilePack(en),
  it: compilePack(it),
  de: compilePack(de),
  fr: compilePack(fr),
  es: compilePack(es),
  pt: compilePack(pt),
  nl: compilePack(nl),
  ru: compilePack(ru),
  ja: compilePack(ja),
  zh: compilePack(zh),
};

/** Share of conversations per language: English-heavy, like a European business mailbox. */
export const LANGUAGE_WEIGHTS: Readonly<Record<LanguageCode, number>> = {
  en: 58,
  it: 9,
  de: 9,
  fr: 7,
  es: 6,
  pt: 3,
  nl: 3,
  ru: 3.5,
  ja: 1.2,
  zh: 1.2,
};

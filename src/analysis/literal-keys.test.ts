import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { modelCacheDir } from '../rag/model-cache.js';
import { textAnalyzer } from './analyzers.js';
import { foldTerm } from './fold.js';
import { LANGUAGES, type Language } from './language.js';
import { foldsByLowercase, stemKey, termPattern } from './literal-keys.js';
import { stemWord } from './stemmer.js';

/** Words checked per language: every k-th headword, so German's 255,000 take seconds. */
const SAMPLE_WORDS = 30_000;

/**
 * The headwords of the cross-language lexicon's dictionaries (FreeDict and Mueller, fetched by
 * `npm test`'s pretest into the model cache): real words of each language, 430,000 in all,
 * SAMPLE_WORDS of each checked here (all of them once, when stemKey was written). English from
 * the English-German file's headwords, the others from their own to English.
 */
function dictionaryWords(language: Language): string[] {
  const dir = modelCacheDir(process.env, 'lexicon');
  const name = language === 'en' ? 'en-de.tsv' : `${language}-en.tsv`;
  expect(readdirSync(dir), `${dir}: run scripts/fetch-lexicon.sh`).toContain(name);
  const words = new Set<string>();
  for (const line of readFileSync(join(dir, name), 'utf8').split('\n')) {
    if (line.startsWith('#')) continue;
    for (const word of (line.split('\t')[0] ?? '').split(/[^\p{L}]+/u))
      if (word !== '') words.add(word.toLowerCase());
  }
  const step = Math.max(1, Math.floor(words.size / SAMPLE_WORDS));
  return [...words].filter((_, i) => i % step === 0);
}

describe('literal keys', () => {
  it.each([...LANGUAGES])('every %s dictionary word stemmed to S starts with stemKey(S)', (language) => {
    const words = dictionaryWords(language);
    expect(words.length).toBeGreaterThan(3000);
    const broken: string[] = [];
    let stemmed = 0;
    for (const word of words) {
      const stem = stemWord(language, word);
      if (stem === '') continue;
      stemmed++;
      if (!foldTerm(word).startsWith(stemKey(stem))) broken.push(`${word} → ${stem}`);
    }
    expect(stemmed).toBeGreaterThan(words.length / 2);
    expect(broken).toEqual([]);
  });

  it('are rewritten suffixes away from the stem, and a compound’s runs tied by any joiner', () => {
    expect(stemWord('en', 'dying')).toBe('die');
    expect(stemKey('die')).toBe('d');
    expect(stemWord('fr', 'abdication')).toBe('abdiqu');
    expect('abdication'.startsWith(stemKey('abdiqu'))).toBe(true);
    const inv = new RegExp(termPattern('inv_4471').source);
    for (const text of ['inv-4471', 'inv.4471', 'inv_4471-b', 'inv@4471']) expect(text).toMatch(inv);
    for (const text of ['inv 4471', 'inv4471', 'inv+4471']) expect(text).not.toMatch(inv);
    expect(termPattern('invoice')).toEqual({ source: 'invoice', length: 7 });
  });

  it('say when every term of a text is in its lowercase, and when folding goes further', () => {
    const plain = 'Re: INV-4471 — “paid” on 3 March\u00a0(see https://stripe.com/docs).';
    expect(foldsByLowercase(plain)).toBe(true);
    const lower = plain.toLowerCase();
    for (const token of textAnalyzer('en').analyze(plain, 'document'))
      if (token.kind !== 'stem') expect(lower).toMatch(new RegExp(termPattern(token.term).source));
    // Folded letters, a soft hyphen inside a word, a non-ASCII joiner: terms the lowercase lacks.
    for (const text of ['Résumé attached', 'infor\u00admation', 'INV\u20114471', 'ｆｕｌｌ width', 'the 𝐈 key'])
      expect(foldsByLowercase(text), text).toBe(false);
  });
});

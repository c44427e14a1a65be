// A bilingual lexicon for the keyword leg: one TSV file per direction (`it-en.tsv`), built
// from FreeDict's dictionaries (scripts/fetch-lexicon.sh fetches Debian's packages of them
// and runs buildLexicons). A line is `word TAB stem TAB translation…`: the headword folded as
// the keyword leg folds words, its stem in the file's source language (so "importati" finds
// "importare"), then its translations, folded, the dictionary's first senses first. The
// forward dictionary (it→en) gives a word's translations; the reverse one (en→it), read
// backwards, adds the words whose translation it is, after them.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { foldTerm, isLanguage, type Language, stemWord } from '../../analysis/index.js';
import { MailsiftError } from '../../core/errors.js';
import type { DictdEntry } from './dictd.js';

export const LEXICON_HEADER = '#mailsift-lexicon';
export const LEXICON_FORMAT = 1;

/** Translations kept per headword: a word's first senses; later ones are rarer meanings. */
const MAX_STORED = 8;
/** A translation of more words than this is a gloss ("a kind of small boat"), not a term. */
const MAX_TRANSLATION_WORDS = 3;

/** FreeDict's ISO 639-3 codes → ours. */
export const FREEDICT_LANGUAGES: Readonly<Record<string, Language>> = {
  eng: 'en',
  ita: 'it',
  deu: 'de',
  fra: 'fr',
  spa: 'es',
  por: 'pt',
  nld: 'nl',
  rus: 'ru',
};

/** "Bestellung", "importare": one word of letters, the only headwords a question word can meet. */
const isWord = (text: string): boolean => /^\p{L}+$/u.test(text);

/** A translation folded word by word ("Zip code" → "zip code"); null for a gloss or nothing. */
function foldTranslation(text: string): string | null {
  const words = text
    .split(/[\s\-‐]+/)
    .map(foldTerm)
    .filter((w) => w !== '');
  return words.length === 0 || words.length > MAX_TRANSLATION_WORDS ? null : words.join(' ');
}

/**
 * The lexicon file `from`→`to` from the forward dictionary (headwords in `from`) and the
 * reverse one (headwords in `to`), either may be missing. `source` is recorded in the header.
 */
export function buildLexicon(
  from: Language,
  to: Language,
  forward: readonly DictdEntry[],
  reverse: readonly DictdEntry[],
  source: string,
): string {
  const translations = new Map<string, string[]>();
  const add = (word: string, translation: string): void => {
    const list = translations.get(word) ?? [];
    if (list.length < MAX_STORED && !list.includes(translation)) list.push(translation);
    translations.set(word, list);
  };
  for (const { headword, senses } of forward) {
    if (!isWord(headword)) continue;
    const word = foldTerm(headword);
    for (const sense of senses)
      for (const t of sense) {
        const folded = foldTranslation(t);
        if (folded !== null) add(word, folded);
      }
  }
  // Backwards: each `from` word a reverse entry translates to gets that entry's headword, in
  // the order of the sense the word is in there (a first sense first); among entries where it
  // is as early, those of more senses first (a common word has many: "kernel" before
  // "putting stone"), then by its place within the sense.
  const backwards = new Map<
    string,
    Array<{ sense: number; breadth: number; place: number; translation: string }>
  >();
  for (const { headword, senses } of reverse) {
    const folded = foldTranslation(headword);
    if (folded === null) continue;
    senses.forEach((sense, s) => {
      sense.forEach((t, p) => {
        if (!isWord(t)) return;
        const word = foldTerm(t);
        const list = backwards.get(word) ?? [];
        list.push({ sense: s, breadth: senses.length, place: p, translation: folded });
        backwards.set(word, list);
      });
    });
  }
  for (const [word, list] of backwards)
    for (const { translation } of list.sort(
      (a, b) => a.sense - b.sense || b.breadth - a.breadth || a.place - b.place,
    ))
      add(word, translation);
  const lines = [`${LEXICON_HEADER}\t${LEXICON_FORMAT}\t${from}\t${to}\t${source.replace(/\s+/g, ' ')}`];
  for (const [word, list] of [...translations].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const own = list.filter((t) => t !== word);
    if (own.length === 0 || word === '') continue;
    lines.push([word, stemWord(from, word) || word, ...own].join('\t'));
  }
  return `${lines.join('\n')}\n`;
}

/** The translations of words from one language into another, read from a lexicon file. */
export class Lexicon {
  private constructor(
    readonly from: Language,
    readonly to: Language,
    readonly source: string,
    /** Each headword's translations, tab-separated as the file has them: split on lookup. */
    private readonly words: ReadonlyMap<string, string>,
    private readonly stems: ReadonlyMap<string, string>,
  ) {}

  /**
   * Reads a lexicon file. Throws a MailsiftError naming the file: not_found or unreadable when
   * it cannot be read, bad_format (with the line) when it is not a lexicon.
   */
  static read(path: string): Lexicon {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new MailsiftError(
        code === 'ENOENT' ? 'not_found' : 'unreadable',
        `cannot read the lexicon ${path}`,
        {
          param: path,
          cause: error,
        },
      );
    }
    const lines = text.split('\n');
    const [mark, format, from, to, source] = (lines[0] ?? '').split('\t');
    if (
      mark !== LEXICON_HEADER ||
      format !== String(LEXICON_FORMAT) ||
      !from ||
      !to ||
      !isLanguage(from) ||
      !isLanguage(to)
    )
      throw new MailsiftError(
        'bad_format',
        `${path} is not a mailsift lexicon of format ${LEXICON_FORMAT} (its first line must be "${LEXICON_HEADER} TAB ${LEXICON_FORMAT} TAB from TAB to TAB source")`,
        { param: path },
      );
    // German's lexicon holds 255,000 headwords: kept as slices of the file's lines, not arrays
    // of strings (182 MB and 0.64 s to read as arrays).
    const words = new Map<string, string>();
    const stems = new Map<string, string>();
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i] as string;
      if (line === '') continue;
      const tab = line.indexOf('\t');
      const next = line.indexOf('\t', tab + 1);
      const word = line.slice(0, Math.max(tab, 0));
      const stem = line.slice(tab + 1, Math.max(next, tab + 1));
      const translations = next < 0 ? '' : line.slice(next + 1);
      if (
        !word ||
        !stem ||
        translations === '' ||
        translations.endsWith('\t') ||
        translations.includes('\t\t')
      )
        throw new MailsiftError(
          'bad_format',
          `${path} line ${i + 1} is not "word TAB stem TAB translation…"`,
          {
            param: path,
          },
        );
      words.set(word, translations);
      // Of the headwords sharing a stem, the one that is the stem itself or came first speaks for it.
      if (!stems.has(stem) || word === stem) stems.set(stem, translations);
    }
    return new Lexicon(from, to, source ?? '', words, stems);
  }

  /**
   * Up to `limit` translations of a word as the question wrote it: the headword it folds to,
   * else a headword of the same stem ("importati" → importare's).
   */
  translate(word: string, limit: number): readonly string[] {
    const folded = foldTerm(word);
    const found = this.words.get(folded) ?? this.stems.get(stemWord(this.from, word.toLowerCase()) || folded);
    return found === undefined ? [] : found.split('\t', limit);
  }
}

/** The lexicon file of a direction within a lexicon folder. */
export const lexiconFile = (dir: string, from: Language, to: Language): string =>
  join(dir, `${from}-${to}.tsv`);

/** Mueller's English-Russian dictionary (dictd files `mueller7.*`): after FreeDict's eng-rus. */
export const MUELLER = 'mueller7';

/**
 * Builds every lexicon file the FreeDict dictionaries in `dictDir` allow into `outDir`:
 * each direction between English and another language that has a dictionary either way.
 * `read` reads the dictd files of a stem (`freedict-ita-eng`, or MUELLER). Returns the
 * files written.
 */
export function buildLexicons(
  dictDir: string,
  read: (name: string) => DictdEntry[],
  write: (file: string, text: string) => void,
): string[] {
  const pairs = new Set(
    readdirSync(dictDir)
      .map((name) => /^freedict-([a-z]{3})-([a-z]{3})\.index$/.exec(name))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => `${m[1]}-${m[2]}`),
  );
  const mueller = existsSync(join(dictDir, `${MUELLER}.index`));
  if (mueller) pairs.add('eng-rus');
  const entries = new Map<string, DictdEntry[]>();
  const load = (pair: string): DictdEntry[] => {
    if (!pairs.has(pair)) return [];
    let list = entries.get(pair);
    if (!list) {
      const freedict = existsSync(join(dictDir, `freedict-${pair}.index`)) ? read(`freedict-${pair}`) : [];
      list = pair === 'eng-rus' && mueller ? [...freedict, ...read(MUELLER)] : freedict;
      entries.set(pair, list);
    }
    return list;
  };
  const written: string[] = [];
  for (const code of Object.keys(FREEDICT_LANGUAGES)) {
    if (code === 'eng' || !(pairs.has(`${code}-eng`) || pairs.has(`eng-${code}`))) continue;
    // One language's dictionaries at a time: German's two hold a million entries.
    entries.clear();
    for (const [a, b] of [
      [code, 'eng'],
      ['eng', code],
    ] as const) {
      const from = FREEDICT_LANGUAGES[a] as Language;
      const to = FREEDICT_LANGUAGES[b] as Language;
      const used = [`${a}-${b}`, `${b}-${a}`]
        .filter((p) => existsSync(join(dictDir, `freedict-${p}.index`)))
        .map((p) => `freedict-${p}`)
        .concat(code === 'rus' && mueller ? [MUELLER] : []);
      const text = buildLexicon(from, to, load(`${a}-${b}`), load(`${b}-${a}`), used.join(' + '));
      const file = `${from}-${to}.tsv`;
      write(file, text);
      written.push(file);
    }
  }
  return written;
}

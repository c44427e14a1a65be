// Crossing languages in the keyword leg: a question asked in one language over mail written
// (in a meaningful share) in another has its content words looked up in the bilingual
// lexicon (lexicon/lexicon.ts) and their translations searched beside them, as a weaker
// match. Only retrieve and ask cross: agent search stays exact. The lexicon files are read
// on the first question that needs them, never when a surface merely loads this module.

import { detectLanguage, isLanguage, type Language } from '../analysis/index.js';
import { describeError } from '../core/errors.js';
import type { SearchedLanguages } from './languages.js';
import { Lexicon, lexiconFile } from './lexicon/lexicon.js';
import { modelCacheDir } from './model-cache.js';

/** One question word and the translations searched for it. */
export interface Expansion {
  readonly word: string;
  /** The question's language. */
  readonly language: Language;
  /** The mail's language the translations are in. */
  readonly into: Language;
  readonly translations: readonly string[];
}

/** Translations searched per word: a dictionary's first senses; later ones are other meanings. */
export const TRANSLATIONS_PER_WORD = 3;
/** Translations looked up per word, of which the first TRANSLATIONS_PER_WORD the mail holds are searched. */
const CANDIDATES_PER_WORD = 8;
/** Through English, per step: two of the word's English words, two translations of each. */
const PIVOT_PER_STEP = 2;

export const FETCH_LEXICON = 'scripts/fetch-lexicon.sh';

/** Read lexicons by file, or why one could not be: read once per process. */
const cache = new Map<string, Lexicon | Error>();

function lexiconAt(dir: string, from: Language, to: Language): Lexicon | Error {
  const file = lexiconFile(dir, from, to);
  let found = cache.get(file);
  if (found === undefined) {
    try {
      found = Lexicon.read(file);
    } catch (error) {
      found = error instanceof Error ? error : new Error(String(error));
    }
    // A missing file is looked for again: it may be fetched while a server runs.
    if (!(found instanceof Error && (found as { code?: string }).code === 'not_found'))
      cache.set(file, found);
  }
  return found;
}

/** Translating one question's words into the mail's other languages. */
export class CrossLanguage {
  private readonly used = new Map<string, Expansion>();

  constructor(
    readonly from: Language,
    readonly into: readonly Language[],
    private readonly translators: ReadonlyArray<{
      readonly into: Language;
      readonly translate: (word: string, limit: number) => readonly string[];
    }>,
  ) {}

  /** The word's translations in each of the mail's languages (the dictionary's first senses first). */
  translate(word: string): Array<{ into: Language; translations: readonly string[] }> {
    return this.translators
      .map(({ into, translate }) => ({ into, translations: translate(word, CANDIDATES_PER_WORD) }))
      .filter((t) => t.translations.length > 0);
  }

  /** Records a translation the keyword leg searched, for the result's `expansions`. */
  record(word: string, into: Language, translation: string): void {
    const key = `${word}\u0000${into}`;
    const known = this.used.get(key);
    if (known?.translations.includes(translation)) return;
    this.used.set(key, {
      word,
      language: this.from,
      into,
      translations: [...(known?.translations ?? []), translation],
    });
  }

  /** Each word translated so far, in the order first met. */
  expansions(): Expansion[] {
    return [...this.used.values()];
  }
}

export interface CrossLanguagePlan {
  /** Null when the question and the mail share their languages, or no lexicon serves. */
  readonly cross: CrossLanguage | null;
  /** Why a lexicon the question needs could not be used. */
  readonly notes: readonly string[];
}

/**
 * How the keyword leg crosses from the question's language into the other languages the
 * searched inboxes hold in a meaningful share: with the direct lexicon, else through English
 * (it → en → de). A missing or unreadable lexicon is a note, never an error.
 */
export function planCrossLanguage(
  languages: SearchedLanguages,
  question: string,
  dir: string = modelCacheDir(process.env, 'lexicon'),
): CrossLanguagePlan {
  const asked = detectLanguage(question);
  if (asked === null) return { cross: null, notes: [] };
  // An archive that never saw another language than the question's counts no message.
  const mail = [...new Set(languages.meaningful(asked).map((s) => s.language))].filter(
    (l): l is Language => isLanguage(l) && l !== asked,
  );
  if (mail.length === 0) return { cross: null, notes: [] };
  const missing: string[] = [];
  const broken: string[] = [];
  const need = (from: Language, to: Language): Lexicon | null => {
    const found = lexiconAt(dir, from, to);
    if (!(found instanceof Error)) return found;
    if ((found as { code?: string }).code === 'not_found') missing.push(`${from}→${to}`);
    else broken.push(describeError(found));
    return null;
  };
  const translators: Array<{
    into: Language;
    translate: (word: string, limit: number) => readonly string[];
  }> = [];
  for (const into of mail) {
    if (asked === 'en' || into === 'en') {
      const direct = need(asked, into);
      if (direct) translators.push({ into, translate: (word, limit) => direct.translate(word, limit) });
      continue;
    }
    const toEnglish = need(asked, 'en');
    const fromEnglish = need('en', into);
    if (toEnglish && fromEnglish)
      translators.push({
        into,
        translate: (word, limit) =>
          [
            ...new Set(
              toEnglish
                .translate(word, PIVOT_PER_STEP)
                .filter((e) => !e.includes(' '))
                .flatMap((e) => fromEnglish.translate(e, PIVOT_PER_STEP)),
            ),
          ].slice(0, limit),
      });
  }
  const notes: string[] = [];
  if (missing.length > 0)
    notes.push(
      `the question is in ${asked} and the mail also in ${mail.join(', ')}, but the cross-language lexicon (${[...new Set(missing)].join(', ')}) is not installed: the keyword leg searches the question's own words only (${FETCH_LEXICON} fetches it)`,
    );
  for (const reason of new Set(broken))
    notes.push(
      `the cross-language lexicon could not be read (${reason}); the keyword leg searches the question's own words there`,
    );
  return { cross: translators.length > 0 ? new CrossLanguage(asked, mail, translators) : null, notes };
}

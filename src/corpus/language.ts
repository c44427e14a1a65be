// The shape of a per-language phrase bank, and how its templates are compiled and filled.
// Sentences are built as noun phrase + predicate + tail so a few hundred hand-written
// fragments give millions of distinct, readable business sentences.

import type { Charset } from './encode.js';

export type LanguageCode = 'en' | 'it' | 'de' | 'fr' | 'es' | 'pt' | 'nl' | 'ru' | 'ja' | 'zh';

export interface LanguagePack {
  readonly code: LanguageCode;
  /** Charsets a client of this language sends, with weights; utf-8 dominates everywhere. */
  readonly charsets: Readonly<Partial<Record<Charset, number>>>;
  readonly firstNames: readonly string[];
  readonly lastNames: readonly string[];
  /** Second-level domain stems and the TLD companies of this language use. */
  readonly companyStems: readonly string[];
  readonly tlds: readonly string[];
  /** Minutes east of UTC for people of this language. */
  readonly tzOffsets: readonly number[];
  readonly subjects: readonly string[];
  readonly greetings: readonly string[];
  readonly nouns: readonly string[];
  readonly predicates: readonly string[];
  readonly tails: readonly string[];
  /** Whole sentences: requests, thanks, small talk. */
  readonly standalone: readonly string[];
  readonly closings: readonly string[];
  readonly replyPrefix: string;
  readonly forwardPrefix: string;
  readonly mobileFooter: string;
  readonly disclaimer: string;
  readonly months: readonly string[];
  /** Abbreviated weekdays, Sunday first, as attribution lines print them. */
  readonly weekdays: readonly string[];
  /** Full weekday names, Sunday first, for prose ("the meeting on Tuesday"). */
  readonly dayNames: readonly string[];
  /** Gmail-style attribution line above a quote. */
  readonly wrote: (date: string, who: string) => string;
  /** Outlook's labels for the original-message block: marker, From, Sent, To, Subject. */
  readonly outlook: readonly [string, string, string, string, string];
  readonly forwardMarker: string;
  /** Whether sentences are joined with spaces (false for CJK). */
  readonly spaced: boolean;
}

/** A template split at its `{slot}` markers: even indexes are text, odd ones slot names. */
export type Template = readonly string[];

export function compile(template: string): Template {
  return template.split(/\{(\w+)\}/);
}

export type Slots = Readonly<Record<string, string>>;

export function fill(template: Template, slots: Slots): string {
  if (template.length === 1) return template[0] as string;
  let out = '';
  for (let i = 0; i < template.length; i++) {
    out += i % 2 === 0 ? template[i] : (slots[template[i] as string] ?? '');
  }
  return out;
}

/** A pack with every template pre-split, so filling is a loop over array entries. */
export interface CompiledPack {
  readonly pack: LanguagePack;
  readonly subjects: readonly Template[];
  readonly greetings: readonly Template[];
  readonly nouns: readonly Template[];
  readonly predicates: readonly Template[];
  readonly tails: readonly Template[];
  readonly standalone: readonly Template[];
  readonly closings: readonly Template[];
}

export function compilePack(pack: LanguagePack): CompiledPack {
  return {
    pack,
    subjects: pack.subjects.map(compile),
    greetings: pack.greetings.map(compile),
    nouns: pack.nouns.map(compile),
    predicates: pack.predicates.map(compile),
    tails: pack.tails.map(compile),
    standalone: pack.standalone.map(compile),
    closings: pack.closings.map(compile),
  };
}

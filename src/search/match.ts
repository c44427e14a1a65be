// Query planning: turns analysed query groups into FTS5 MATCH expressions (exact and
// fuzzy), the same alternatives as postings phrases, and the term sets highlights use.
// User text never reaches MATCH unquoted.

import {
  COMPOUND_SEPARATOR,
  identifierCompound,
  MAX_TOKEN_LENGTH,
  MIN_PREFIX_LENGTH,
  type QueryGroup,
} from '../analysis/index.js';
import { type Column, EXACT_TEXT_COLUMNS, IDENTIFIER_COLUMNS, isWholeToken } from '../index/index.js';

/** An FTS5 string literal: user text never reaches MATCH unquoted. */
export const quote = (term: string): string => `"${term.replace(/"/g, '""')}"`;
const columns = (list: readonly Column[]): string => `{${list.join(' ')}}`;

/** A part typed as a prefix of an identifier token; cut parts must match their whole token. */
export function isPrefixPart(group: QueryGroup, index: number): boolean {
  const part = group.parts[index] as string;
  return (
    index === group.parts.length - 1 && part.length >= MIN_PREFIX_LENGTH && part.length < MAX_TOKEN_LENGTH
  );
}

/** One FTS5 phrase: adjacent terms, the last one matched as a prefix when `prefix`. */
export interface Phrase {
  readonly terms: readonly string[];
  readonly prefix: boolean;
}

/** Phrases any of which may match, in a set of columns. */
export interface Alternative {
  readonly columns: readonly Column[];
  readonly phrases: readonly Phrase[];
}

export interface GroupMatch {
  /** Agent search matches identifier fields by prefix; question mode (RAG) by whole token. */
  readonly prefix: boolean;
  /** Typo variants accepted in text fields (fuzzy fill). */
  readonly variants?: readonly string[];
  /**
   * Also the other forms of a word that is its own stem (`routers` for `router`), which
   * documents hold as stem tokens only. Question mode asks for them; agent search does not
   * yet: for common words (`been`, `have`) the list is long, and it made 1M two-word
   * searches ~40% slower for matches that rank below the exact ones.
   */
  readonly otherForms?: boolean;
  /**
   * Also an identifier's parts as adjacent words (`CN BF 0412`), as prose writes it. Question
   * mode asks for them: a question is prose, scored disjunctively, and the identifier's two
   * forms both count. Agent search does not: its query is the identifier as written, and the
   * walk over parts that an owner's address puts in every message cost ~200 ms at 1M.
   */
  readonly spacedParts?: boolean;
}

const word = (term: string): Phrase => ({ terms: [term], prefix: false });

/**
 * A compound whole, or as the start of a longer one (`lewis_acme` in lewis_acme_corp_com),
 * as documents index every suffix of a run. A compound cut to the cap matches as a prefix
 * already: longer runs were cut alike.
 */
function compoundPhrases(term: string): Phrase[] {
  if (term.length >= MAX_TOKEN_LENGTH) return [word(term)];
  return [word(term), { terms: [term + COMPOUND_SEPARATOR], prefix: true }];
}

/**
 * A group on identifier fields: one part is a word; several are one of the suffix
 * compounds documents index (`lewis@acme` → _lewis_acme…, within one address or word).
 * The last part matches by prefix when `prefix` allows, else whole: the compound alone or
 * followed by more parts.
 */
export function identifierPhrases(group: QueryGroup, prefix: boolean): Phrase[] {
  const last = group.parts.length - 1;
  const term = last === 0 ? (group.parts[0] as string) : identifierCompound(group.parts);
  if (prefix && isPrefixPart(group, last)) return [{ terms: [term], prefix: true }];
  return last === 0 ? [word(term)] : compoundPhrases(term);
}

/**
 * A group on text fields: a word, or the compound of its parts (`INV-4471`, `lewis@acme-corp`,
 * `kick-off`: within one run of the text, not its parts apart; spaced too when `spacedParts`).
 */
function textPhrases(group: QueryGroup, spacedParts: boolean): Phrase[] {
  const parts: Phrase = { terms: group.parts, prefix: false };
  if (group.compound === null) return [parts];
  return spacedParts ? [...compoundPhrases(group.compound), parts] : compoundPhrases(group.compound);
}

/**
 * The alternatives one group may match: identifier fields (a word or a suffix compound, the
 * last part by prefix: `noreply@github` finds noreply@github.com), exact text forms, stems.
 */
export function alternatives(group: QueryGroup, match: GroupMatch): Alternative[] {
  const found: Alternative[] = [
    { columns: IDENTIFIER_COLUMNS, phrases: identifierPhrases(group, match.prefix) },
  ];
  const text = textPhrases(group, match.spacedParts === true);
  for (const variant of match.variants ?? []) text.push(word(variant));
  found.push({ columns: EXACT_TEXT_COLUMNS, phrases: text });
  if (group.parts.length !== 1) return found;
  const part = group.parts[0] as string;
  const stems = group.stems[0] ?? [];
  const others = stems.filter((s) => s !== part);
  if (others.length > 0) found.push({ columns: STEM_COLUMNS, phrases: others.map(word) });
  // A stem equal to the word: documents with the word itself are the exact alternative's,
  // its other forms (`routers` for `router`) hold it as a stem token only.
  if (match.otherForms && others.length < stems.length)
    found.push({ columns: ['text_stems'], phrases: [word(part)] });
  return found;
}

const STEM_COLUMNS: readonly Column[] = ['text_stems', 'text_authored', 'text_forwarded', 'text_attachments'];

function render(alternative: Alternative): string {
  const phrases = alternative.phrases.map((p) => `${p.terms.map(quote).join(' + ')}${p.prefix ? '*' : ''}`);
  return `${columns(alternative.columns)} : (${phrases.join(' OR ')})`;
}

/** A group on identifier fields, prefix semantics, as an FTS5 expression over `columns`. */
export const identifierExpression = (group: QueryGroup, columns: readonly Column[]): string =>
  render({ columns, phrases: identifierPhrases(group, true) });

/** identifierExpression's phrases as the postings match them; null when FTS5 alone can. */
export const identifierPostings = (
  group: QueryGroup,
  columns: readonly Column[],
): readonly PostingsPhrase[] | null =>
  postingsGroups([[{ columns, phrases: identifierPhrases(group, true) }]])?.[0] ?? null;

/** The alternatives one group may match, as FTS5 expressions. */
export function groupAlternatives(group: QueryGroup, match: GroupMatch): string[] {
  return alternatives(group, match).map(render);
}

/** A phrase as the postings index scores it: one whole token, or with `prefix` every token starting with it. */
export interface PostingsPhrase {
  readonly term: string;
  readonly prefix: boolean;
  readonly columns: readonly Column[];
}

/** A query both as an FTS5 expression and as postings phrases. */
export interface Match {
  readonly expression: string;
  /** Per group, its phrases in FTS5's order; null when FTS5 alone can match it. */
  readonly groups: ReadonlyArray<readonly PostingsPhrase[]> | null;
  /**
   * Fuzzy fill: the exact match, whose messages the expression leaves out (its `NOT`). The
   * postings hold no negation: ranked there, the messages the exact phase showed are left out.
   */
  readonly exact?: Match;
}

function postingsGroups(planned: ReadonlyArray<readonly Alternative[]>): Match['groups'] {
  const groups: PostingsPhrase[][] = [];
  for (const group of planned) {
    const phrases: PostingsPhrase[] = [];
    for (const alternative of group) {
      for (const phrase of alternative.phrases) {
        // The postings hold no positions: words apart (`spacedParts`) are FTS5's alone.
        const [term] = phrase.terms;
        if (phrase.terms.length !== 1 || term === undefined || !isWholeToken(term)) return null;
        phrases.push({ term, prefix: phrase.prefix, columns: alternative.columns });
      }
    }
    groups.push(phrases);
  }
  return groups;
}

/** Every group required; within a group, any field and form. */
export function exactMatch(groups: readonly QueryGroup[]): Match {
  const planned = groups.map((g) => alternatives(g, { prefix: true }));
  return {
    expression: planned.map((alts) => `(${alts.map(render).join(' OR ')})`).join(' AND '),
    groups: postingsGroups(planned),
  };
}

/**
 * The fuzzy-fill match: typo variants on text fields, minus everything the exact match
 * matches (those messages are already on earlier pages).
 */
export function fuzzyMatch(
  groups: readonly QueryGroup[],
  variants: ReadonlyMap<number, readonly string[]>,
): Match {
  const planned = groups.map((g, i) => alternatives(g, { prefix: true, variants: variants.get(i) ?? [] }));
  const fuzzy = planned.map((alts) => `(${alts.map(render).join(' OR ')})`).join(' AND ');
  const exact = exactMatch(groups);
  return { expression: `(${fuzzy}) NOT (${exact.expression})`, groups: postingsGroups(planned), exact };
}

/** What highlights look for in each kind of field. */
export interface HighlightTerms {
  /** Identifier fields: each group's parts, matched on runs tied by joiners (as the index's compounds are). */
  readonly identifierGroups: ReadonlyArray<
    ReadonlyArray<{ readonly term: string; readonly prefix: boolean }>
  >;
  /** Text fields: exact words and typo variants; stems match stem tokens. */
  readonly textExact: ReadonlySet<string>;
  /** Text fields: groups' compounds, matched whole or as the start of a compound token. */
  readonly textCompounds: readonly string[];
  readonly stems: ReadonlySet<string>;
}

export function highlightTerms(
  groups: readonly QueryGroup[],
  variants: ReadonlyMap<number, readonly string[]>,
): HighlightTerms {
  const textExact = new Set<string>();
  const stems = new Set<string>();
  groups.forEach((group, g) => {
    if (group.parts.length === 1) textExact.add(group.parts[0] as string);
    for (const variant of variants.get(g) ?? []) textExact.add(variant);
    if (group.parts.length === 1) for (const stem of group.stems[0] ?? []) stems.add(stem);
  });
  const identifierGroups = groups.map((group) =>
    group.parts.map((term, i) => ({ term, prefix: isPrefixPart(group, i) })),
  );
  const textCompounds = groups.flatMap((g) => (g.compound === null ? [] : [g.compound]));
  return { identifierGroups, textExact, textCompounds, stems };
}

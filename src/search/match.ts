// Query planning: turns analysed query groups into FTS5 MATCH expressions (exact and
// fuzzy) and into the term sets highlights use. User text never reaches MATCH unquoted.

import { MAX_TOKEN_LENGTH, MIN_PREFIX_LENGTH, type QueryGroup } from '../analysis/index.js';
import { type Column, EXACT_TEXT_COLUMNS, IDENTIFIER_COLUMNS } from '../index/index.js';

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

/**
 * Adjacent parts; with `prefix`, the last one as a prefix: `noreply@github` finds
 * noreply@github.com.
 */
function identifierPhrase(group: QueryGroup, prefix: boolean): string {
  return group.parts
    .map((part, i) => (prefix && isPrefixPart(group, i) ? `${quote(part)}*` : quote(part)))
    .join(' + ');
}

export interface GroupMatch {
  /** Agent search matches identifier fields by prefix; question mode (RAG) by whole token. */
  readonly prefix: boolean;
  /** Typo variants accepted in text fields (fuzzy fill). */
  readonly variants?: readonly string[];
}

/** The alternatives one group may match: identifier fields, exact text forms, stems. */
export function groupAlternatives(group: QueryGroup, match: GroupMatch): string[] {
  const alternatives = [`${columns(IDENTIFIER_COLUMNS)} : (${identifierPhrase(group, match.prefix)})`];
  const textTerms: string[] = [];
  if (group.compound !== null) textTerms.push(quote(group.compound));
  textTerms.push(group.parts.map(quote).join(' + '));
  for (const variant of match.variants ?? []) textTerms.push(quote(variant));
  alternatives.push(`${columns(EXACT_TEXT_COLUMNS)} : (${textTerms.join(' OR ')})`);
  // A stem equal to the word is already matched by the exact alternative.
  const stems = group.parts.length === 1 ? (group.stems[0] ?? []).filter((s) => s !== group.parts[0]) : [];
  if (stems.length > 0) {
    alternatives.push(
      `{text_stems text_authored text_forwarded text_attachments} : (${stems.map(quote).join(' OR ')})`,
    );
  }
  return alternatives;
}

/** Every group required; within a group, any field and form. */
export function exactExpression(groups: readonly QueryGroup[]): string {
  return groups.map((g) => `(${groupAlternatives(g, { prefix: true }).join(' OR ')})`).join(' AND ');
}

/**
 * The fuzzy-fill expression: typo variants on text fields, minus everything the exact
 * expression matches (those messages are already on earlier pages).
 */
export function fuzzyExpression(
  groups: readonly QueryGroup[],
  variants: ReadonlyMap<number, readonly string[]>,
): string {
  const fuzzy = groups
    .map(
      (g, i) => `(${groupAlternatives(g, { prefix: true, variants: variants.get(i) ?? [] }).join(' OR ')})`,
    )
    .join(' AND ');
  return `(${fuzzy}) NOT (${exactExpression(groups)})`;
}

/** What highlights look for in each kind of field. */
export interface HighlightTerms {
  /** Identifier fields: each group's parts, matched on adjacent tokens. */
  readonly identifierGroups: ReadonlyArray<
    ReadonlyArray<{ readonly term: string; readonly prefix: boolean }>
  >;
  /** Text fields: exact words, compounds and typo variants; stems match stem tokens. */
  readonly textExact: ReadonlySet<string>;
  /** Text fields: multi-part groups, matched as adjacent words (as the index's phrase does). */
  readonly textPhrases: ReadonlyArray<readonly string[]>;
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
    if (group.compound !== null) textExact.add(group.compound);
    for (const variant of variants.get(g) ?? []) textExact.add(variant);
    if (group.parts.length === 1) for (const stem of group.stems[0] ?? []) stems.add(stem);
  });
  const identifierGroups = groups.map((group) =>
    group.parts.map((term, i) => ({ term, prefix: isPrefixPart(group, i) })),
  );
  const textPhrases = groups.filter((g) => g.parts.length > 1).map((g) => g.parts);
  return { identifierGroups, textExact, textPhrases, stems };
}

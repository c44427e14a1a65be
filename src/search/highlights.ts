// Match attribution: short fragments of each matched field's ORIGINAL text with the
// matched terms wrapped in `**`, located with the analyzers' token offsets.

import {
  COMPOUND_SEPARATOR,
  identifierWordsAnalyzer,
  JOINER_CHARS,
  type Language,
  type Token,
  textAnalyzer,
} from '../analysis/index.js';
import { foldsByLowercase, stemKey, termPattern } from '../analysis/literal-keys.js';
import type { FieldTexts } from '../index/index.js';
import type { HighlightTerms } from './match.js';

export type HighlightField = keyof FieldTexts;
export type Highlights = Partial<Record<HighlightField, string[]>>;

const MAX_FRAGMENTS = 3;
const FRAGMENT_CHARS = 160;
/** Context kept before the first match of a fragment. */
const LEAD_CHARS = 50;

interface Span {
  start: number;
  end: number;
}

/** Characters that tie runs into one identifier: matched runs across them read as one match. */
const JOINERS = new Set(JOINER_CHARS);

/**
 * Runs of words tied by joiners matching a group's parts in order, the last part as a
 * prefix: what the index's suffix compounds matched.
 */
function identifierSpans(text: string, terms: HighlightTerms): Span[] {
  const words = identifierWordsAnalyzer().analyze(text, 'document');
  const tied = (k: number): boolean => {
    const previous = words[k - 1] as Token;
    return (words[k] as Token).start === previous.end + 1 && JOINERS.has(text[previous.end] as string);
  };
  const spans: Span[] = [];
  for (const group of terms.identifierGroups) {
    for (let k = 0; k + group.length <= words.length; k++) {
      const fits = group.every((part, i) => {
        const term = (words[k + i] as Token).term;
        if (i > 0 && !tied(k + i)) return false;
        return part.prefix ? term.startsWith(part.term) : term === part.term;
      });
      if (fits)
        spans.push({ start: (words[k] as Token).start, end: (words[k + group.length - 1] as Token).end });
    }
  }
  return spans;
}

/** The matched spans of a text field: each one token (a word, a stem or a compound). */
function textSpans(text: string, language: Language | null, terms: HighlightTerms): Span[] {
  // Without stems to find (an identifier, a number), the text's stems are not computed: the
  // analyzer without a language gives the same words and compounds. Stemming a result's body
  // was ~50 ms of a CLI search for `INV-4471`.
  return textAnalyzer(terms.stems.size === 0 ? null : language)
    .analyze(text, 'document')
    .filter((t) => {
      if (t.kind === 'compound')
        return terms.textCompounds.some((compound) => startsCompound(t.term, compound));
      if (t.kind === 'stem') return terms.stems.has(t.term);
      return terms.textExact.has(t.term) || terms.stems.has(t.term);
    });
}

/** `term` is `compound` or a longer compound starting with it (as the index matches it). */
const startsCompound = (term: string, compound: string): boolean =>
  term.startsWith(compound) &&
  (term.length === compound.length || term[compound.length] === COMPOUND_SEPARATOR);

/** Characters of a text field analysed first for its fragments: ×4 each time more are needed. */
const FIRST_CHARS = 2048;
/** Keys shorter than this occur nearly everywhere: narrowing by them would not pay. */
const MIN_KEY_LENGTH = 3;
/** Candidate stretches closer than this are analysed as one (an analysis has a fixed cost). */
const STRETCH_GAP = 64;

/**
 * A text field's fragments, analysing only as much of it as they need, a stretch at a time
 * in text order. The fragments are the whole text's once those found end before the next
 * stretch (what lies between stretches holds no match), or the text is analysed to its end.
 * A stretch ends at whitespace, which no token crosses, so each is analysed alone.
 * `narrow` false analyses every stretch of the text, as the reference the narrowing must equal.
 */
export function textFragments(
  text: string,
  language: Language | null,
  terms: HighlightTerms,
  narrow = true,
): string[] {
  const spans: Span[] = [];
  const stretches = (narrow ? candidateStretches(text, terms) : null) ?? growingPrefixes(text);
  for (let k = 0; k < stretches.length; k++) {
    const { start, end: stop } = stretches[k] as Span;
    for (const span of textSpans(text.slice(start, stop), language, terms))
      spans.push({ start: span.start + start, end: span.end + start });
    const next = stretches[k + 1]?.start ?? text.length;
    const { pieces, end } = fragmentWindows(text, spans);
    if (pieces.length === MAX_FRAGMENTS && end + 1 < next) return pieces;
  }
  return fragmentWindows(text, spans).pieces;
}

/**
 * The whole text as prefixes growing ×4 from FIRST_CHARS: a long quoted history usually has
 * its first MAX_FRAGMENTS matches early.
 */
function growingPrefixes(text: string): Span[] {
  const stretches: Span[] = [];
  for (let start = 0, size = FIRST_CHARS; start < text.length; size *= 4) {
    const end = size >= text.length ? text.length : Math.max(start, whitespaceBefore(text, size));
    stretches.push({ start, end });
    start = end;
  }
  return stretches;
}

/**
 * The stretches of `text` that can hold a match, between whitespace around each place its
 * lowercase has one of the terms' literal keys (analysis/literal-keys.ts), merged, in order;
 * the rest is never analysed. Null when the keys cannot narrow it: the text folds beyond
 * lowercasing, or a key is too short to be rare. A quoted history without the query's words
 * was analysed whole for every hit (over half of a served query's first ask).
 */
function candidateStretches(text: string, terms: HighlightTerms): Span[] | null {
  const keys = keysOf(terms);
  if (keys === null || !foldsByLowercase(text)) return null;
  const merged: Span[] = [];
  // Leftmost matches only: a key overlapping another's match lies in the same stretch.
  for (const match of text.toLowerCase().matchAll(keys)) {
    const start = whitespaceBefore(text, match.index);
    const end = whitespaceFrom(text, match.index + match[0].length);
    const last = merged[merged.length - 1];
    if (last !== undefined && start <= last.end + STRETCH_GAP) last.end = Math.max(last.end, end);
    else merged.push({ start, end });
  }
  return merged;
}

/** Each query's literal keys, built once for all its hits' fields. */
const literalKeys = new WeakMap<HighlightTerms, RegExp | null>();

/** One expression matching any of the terms' literal keys; null when one is too short to narrow. */
function keysOf(terms: HighlightTerms): RegExp | null {
  let keys = literalKeys.get(terms);
  if (keys === undefined) {
    const patterns = [
      ...[...terms.textExact, ...terms.textCompounds].map(termPattern),
      ...[...terms.stems].map((stem) => termPattern(stemKey(stem))),
    ];
    keys =
      patterns.length === 0 || patterns.some((p) => p.length < MIN_KEY_LENGTH)
        ? null
        : new RegExp(patterns.map((p) => p.source).join('|'), 'g');
    literalKeys.set(terms, keys);
  }
  return keys;
}

/** The last whitespace at or before `at`, or the text's start (0) when there is none. */
function whitespaceBefore(text: string, at: number): number {
  for (let i = Math.min(at, text.length - 1); i > 0; i--) if (/\s/.test(text[i] as string)) return i;
  return 0;
}

/** The first whitespace at or after `at`, or the text's end when there is none. */
function whitespaceFrom(text: string, at: number): number {
  for (let i = at; i < text.length; i++) if (/\s/.test(text[i] as string)) return i;
  return text.length;
}

function mergeSpans(text: string, spans: Span[]): Span[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Span[] = [];
  for (const span of sorted) {
    const last = merged[merged.length - 1];
    const joined = last !== undefined && span.start === last.end + 1 && JOINERS.has(text[last.end] as string);
    if (last && (span.start <= last.end || joined)) last.end = Math.max(last.end, span.end);
    else merged.push({ start: span.start, end: span.end });
  }
  return merged;
}

const squash = (s: string): string => s.replace(/\s+/g, ' ');

/**
 * Cuts up to MAX_FRAGMENTS windows around the spans and marks every span inside them;
 * `end` is where the last one ends in `text` (0 without any).
 */
function fragmentWindows(text: string, rawSpans: Span[]): { pieces: string[]; end: number } {
  const spans = mergeSpans(text, rawSpans);
  const out: string[] = [];
  let end = 0;
  let i = 0;
  while (i < spans.length && out.length < MAX_FRAGMENTS) {
    const first = spans[i] as Span;
    let from = Math.max(0, first.start - LEAD_CHARS);
    if (from > 0) {
      const space = text.indexOf(' ', from);
      if (space >= 0 && space < first.start) from = space + 1;
    }
    let to = Math.min(text.length, Math.max(from + FRAGMENT_CHARS, first.end));
    if (to < text.length) {
      const space = text.lastIndexOf(' ', to);
      if (space > first.end) to = space;
    }
    let piece = from > 0 ? '…' : '';
    let cursor = from;
    while (i < spans.length && (spans[i] as Span).start < to) {
      const span = spans[i] as Span;
      const end = Math.min(span.end, Math.max(to, span.end));
      piece += `${squash(text.slice(cursor, span.start))}**${squash(text.slice(span.start, end))}**`;
      cursor = end;
      to = Math.max(to, end);
      i++;
    }
    piece += squash(text.slice(cursor, to)) + (to < text.length ? '…' : '');
    out.push(piece.trim());
    end = to;
  }
  return { pieces: out, end };
}

/** Highlights for every field where a query term occurs; fields without one get no key. */
export function buildHighlights(
  texts: FieldTexts,
  language: Language | null,
  terms: HighlightTerms,
): Highlights {
  const result: Highlights = {};
  for (const field of ['from', 'recipients', 'subject', 'text', 'attachments', 'quoted'] as const) {
    const text = texts[field];
    if (text === '') continue;
    const identifier = field === 'from' || field === 'recipients' || field === 'subject';
    const list = identifier
      ? fragmentWindows(text, identifierSpans(text, terms)).pieces
      : textFragments(text, field === 'quoted' ? null : language, terms);
    if (list.length > 0) result[field] = list;
  }
  return result;
}

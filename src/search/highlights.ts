// Match attribution: short fragments of each matched field's ORIGINAL text with the
// matched terms wrapped in `**`, located with the analyzers' token offsets.

import {
  identifierWordsAnalyzer,
  JOINER_CHARS,
  type Language,
  type Token,
  textAnalyzer,
} from '../analysis/index.js';
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

function textSpans(text: string, language: Language | null, terms: HighlightTerms): Span[] {
  const tokens = textAnalyzer(language).analyze(text, 'document');
  const spans: Span[] = tokens.filter((t) =>
    t.kind === 'stem' ? terms.stems.has(t.term) : terms.textExact.has(t.term) || terms.stems.has(t.term),
  );
  const words = tokens.filter((t) => t.kind === 'word');
  for (const phrase of terms.textPhrases) {
    for (let k = 0; k + phrase.length <= words.length; k++) {
      if (phrase.every((part, i) => (words[k + i] as Token).term === part)) {
        spans.push({ start: (words[k] as Token).start, end: (words[k + phrase.length - 1] as Token).end });
      }
    }
  }
  return spans;
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

/** Cuts up to MAX_FRAGMENTS windows around the spans and marks every span inside them. */
export function fragments(text: string, rawSpans: Span[]): string[] {
  const spans = mergeSpans(text, rawSpans);
  const out: string[] = [];
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
  }
  return out;
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
    const spans = identifier
      ? identifierSpans(text, terms)
      : textSpans(text, field === 'quoted' ? null : language, terms);
    const list = fragments(text, spans);
    if (list.length > 0) result[field] = list;
  }
  return result;
}

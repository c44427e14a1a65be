// Quoted history and forwards in a body split into lines: `>` quoting, attribution lines (in
// the lexicon's languages, or any line ending in a colon after an address or a date that
// quoted, indented or header-like text follows), Outlook header blocks, "Original Message"
// separators and forward markers, plus the container hints the HTML flattener found. Authored
// lines between quotes stay authored.
import type { ForwardedBlock, SpanKind } from '../core/types.js';
import type { LineHint } from './html.js';
import {
  ATTRIBUTION_LEAD,
  DATE_KEY,
  FORWARD_MARKERS,
  FORWARD_SUBJECT,
  FROM_KEY,
  FROM_VALUE,
  hasAddress,
  isHeaderKeyLine,
  isIntroLine,
  isLooseAttribution,
  isStrongAttribution,
  MAX_PATTERN_LINE,
  ORIGINAL_MESSAGE,
  RUN_ON_ATTRIBUTION,
  SUBJECT_KEY,
  UNDERSCORE_RULE,
} from './patterns.js';

/** Per-line kinds; null marks a blank line, which takes its neighbours' kind later. */
export type LineKinds = (SpanKind | null)[];

export interface QuoteSplit {
  readonly kinds: LineKinds;
  readonly forwarded: ForwardedBlock[];
}

/** Spaces the patterns read as a plain space. */
const ODD_SPACES = /[\u00a0\u202f\t]/g;
/** Direction marks Gmail wraps Hebrew and Arabic headers (and the addresses inside) in. */
const BIDI_CONTROLS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** Either of the two, tested first: most lines have neither and need no replacing. */
const ODD_CHARS = /[\u00a0\u202f\t\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** A line as the patterns see it: trimmed, spaces normalized, empty when too long to be a marker. */
export function patternLine(line: string): string {
  if (line.length > MAX_PATTERN_LINE) return '';
  if (!ODD_CHARS.test(line)) return line.trim();
  return line.replace(ODD_SPACES, ' ').replace(BIDI_CONTROLS, '').trim();
}

const isQuotePrefixed = (line: string): boolean => /^[ \t]{0,8}>/.test(line);

const isForwardMarker = (t: string): boolean => FORWARD_MARKERS.some((re) => re.test(t));

/** Index of the next non-blank line after `i`, or -1. */
function nextNonBlank(_norm: readonly string[], lines: readonly string[], i: number): number {
  for (let j = i + 1; j < lines.length; j++) if ((lines[j] as string).trim() !== '') return j;
  return -1;
}

/**
 * Whether an Outlook-style header block (From: then at least two other keys within a few
 * lines) starts at `i`. Returns the subject when it does, '' for a block without one.
 */
function headerBlockAt(norm: readonly string[], i: number): string | null {
  if (!FROM_KEY.test(norm[i] as string)) return null;
  let keys = 0;
  let subject = '';
  for (let j = i + 1; j < Math.min(norm.length, i + 10); j++) {
    const t = norm[j] as string;
    if (t === '') {
      if (keys > 0) break;
      continue;
    }
    if (!isHeaderKeyLine(t)) continue;
    keys++;
    const subjectMatch = SUBJECT_KEY.exec(t);
    if (subjectMatch) subject = (subjectMatch[2] ?? '').trim() || (norm[j + 1] ?? '');
  }
  return keys >= 2 ? subject : null;
}

/** Reads the From/Date/Subject lines that open a forwarded block, and the text after them. */
function parseForward(lines: readonly string[], norm: readonly string[], from: number): ForwardedBlock {
  let i = from;
  while (i < lines.length && norm[i] === '') i++;
  const fields: { from: string | null; date: string | null; subject: string | null } = {
    from: null,
    date: null,
    subject: null,
  };
  const isHeader = (t: string): boolean => FROM_KEY.test(t) || isHeaderKeyLine(t) || FROM_VALUE.test(t);
  while (i < lines.length) {
    // Apple Mail leaves a blank line between its header lines.
    const next = norm[i] === '' ? nextNonBlank(norm, lines, i) : i;
    if (next < 0 || !isHeader(norm[next] as string)) break;
    i = next;
    const t = norm[i] as string;
    // A key alone on its line (Thunderbird's header table) has its value on the next one.
    const valueAt = (m: RegExpExecArray): string => {
      const value = (m[2] ?? '').trim();
      if (value || i + 1 >= lines.length) return value;
      i++;
      return norm[i] as string;
    };
    const fromMatch = FROM_VALUE.exec(t);
    const dateMatch = DATE_KEY.exec(t);
    const subjectMatch = SUBJECT_KEY.exec(t);
    if (fromMatch) fields.from ??= valueAt(fromMatch);
    else if (dateMatch) fields.date ??= valueAt(dateMatch);
    else if (subjectMatch) fields.subject ??= valueAt(subjectMatch);
    else if (/:\s*$/.test(t)) i++;
    i++;
  }
  return { ...fields, text: lines.slice(i).join('\n').trim() };
}

const endsWithColon = (t: string): boolean => t.endsWith(':') || t.endsWith('：');

/** Joins a header the client wrapped; an address cut at its bracket is joined without a space. */
const joinWrapped = (first: string, second: string): string =>
  first.endsWith('<') || second.startsWith('>') ? `${first}${second}` : `${first} ${second}`;

/**
 * Shortest first line of a wrapped header that has no verb to recognise it by: clients wrap
 * at 70-80 characters, so a short line before a colon line is the author's own.
 */
const MIN_WRAPPED_LINE = 40;

interface ReplyHeader {
  /** The header as one line. */
  readonly text: string;
  /** Its last line. */
  readonly last: number;
}

/** The reply header that starts at `i`, on one line or wrapped over two, or null. */
function replyHeaderAt(norm: readonly string[], i: number): ReplyHeader | null {
  const t = norm[i] as string;
  if (endsWithColon(t)) return isLooseAttribution(t) || isIntroLine(t) ? { text: t, last: i } : null;
  const next = norm[i + 1];
  if (next === undefined || !endsWithColon(next) || !ATTRIBUTION_LEAD.test(t)) return null;
  const text = joinWrapped(t, next);
  if (isLooseAttribution(text)) return { text, last: i + 1 };
  return t.length >= MIN_WRAPPED_LINE && isIntroLine(text) ? { text, last: i + 1 } : null;
}

/** A list item's bullet or number: indented lists are the author's, not quoted text. */
const LIST_ITEM = /^(?:[-*•·–]|\d{1,3}[.)])\s/;

const isIndented = (line: string): boolean => /^(?:\t| {2,})\S/.test(line) && !LIST_ITEM.test(line.trim());

/**
 * Whether a reply header with nothing `>`-quoted after it still starts the history: a dated
 * attribution always does; a language-independent one when header-like text follows it (a
 * forwarded or Outlook block), or indented text (clients that quote by indenting) and it
 * carries an address: a dated line over an indented block is as often a log and its trace.
 */
function startsHistory(
  header: ReplyHeader,
  lines: readonly string[],
  norm: readonly string[],
  next: number,
): boolean {
  if (isStrongAttribution(header.text)) return true;
  if (next < 0 || !isIntroLine(header.text)) return false;
  const t = norm[next] as string;
  if (FROM_KEY.test(t) || isHeaderKeyLine(t)) return true;
  return isIndented(lines[next] as string) && hasAddress(header.text);
}

/**
 * Assigns quoted / forwarded / signature / authored to every non-blank line. Scanning stops
 * at the first structural boundary (forward marker, Outlook header block, separator, a
 * dated attribution with nothing quoted after it): everything from there on is history.
 */
export function splitQuotes(lines: readonly string[], hints: readonly LineHint[] = []): QuoteSplit {
  const norm = lines.map(patternLine);
  const kinds: LineKinds = lines.map(() => null);
  const forwarded: ForwardedBlock[] = [];
  const restFrom = (i: number, kind: 'quoted' | 'forwarded', bodyFrom = i + 1): QuoteSplit => {
    for (let j = i; j < lines.length; j++) kinds[j] = (lines[j] as string).trim() === '' ? null : kind;
    if (kind === 'forwarded') forwarded.push(parseForward(lines, norm, bodyFrom));
    return { kinds, forwarded };
  };
  const quotedAt = (j: number): boolean =>
    j >= 0 && (isQuotePrefixed(lines[j] as string) || hints[j] === 'quoted');

  for (let i = 0; i < lines.length; i++) {
    const t = norm[i] as string;
    if ((lines[i] as string).trim() === '') continue;
    const hint = hints[i] ?? null;
    const prefixed = isQuotePrefixed(lines[i] as string);
    // Inside a quote container only its first line can turn it into a forward.
    const opensContainer = hint === 'quoted' && !quotedAt(previousNonBlank(lines, i));
    if (!prefixed && (hint !== 'quoted' || opensContainer)) {
      if (isForwardMarker(t)) return restFrom(i, 'forwarded');
      const block = headerBlockAt(norm, i);
      const ruleThenBlock = UNDERSCORE_RULE.test(t) || ORIGINAL_MESSAGE.test(t);
      const afterRule = ruleThenBlock ? nextNonBlank(norm, lines, i) : -1;
      const ruledBlock = afterRule >= 0 ? headerBlockAt(norm, afterRule) : null;
      const subject = block ?? ruledBlock;
      if (subject !== null)
        return restFrom(
          i,
          FORWARD_SUBJECT.test(subject) ? 'forwarded' : 'quoted',
          block !== null ? i : afterRule,
        );
      if (ORIGINAL_MESSAGE.test(t) && hint !== 'quoted') return restFrom(i, 'quoted');
    }
    if (prefixed || hint === 'quoted') {
      kinds[i] = 'quoted';
      continue;
    }
    if (hint === 'signature') {
      kinds[i] = 'signature';
      continue;
    }
    const header = replyHeaderAt(norm, i);
    if (header !== null) {
      const next = nextNonBlank(norm, lines, header.last);
      if (quotedAt(next)) {
        for (let j = i; j <= header.last; j++) kinds[j] = 'quoted';
        i = header.last;
        continue;
      }
      if (startsHistory(header, lines, norm, next)) return restFrom(i, 'quoted');
    }
    if (t.includes('@') && RUN_ON_ATTRIBUTION.test(t)) return restFrom(i, 'quoted');
    kinds[i] = 'authored';
  }
  return { kinds, forwarded };
}

function previousNonBlank(lines: readonly string[], i: number): number {
  for (let j = i - 1; j >= 0; j--) if ((lines[j] as string).trim() !== '') return j;
  return -1;
}

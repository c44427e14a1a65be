// Quoted history and forwards in a body split into lines: `>` quoting, attribution lines,
// Outlook header blocks, "Original Message" separators and forward markers, plus the
// container hints the HTML flattener found. Authored lines between quotes stay authored.
import type { ForwardedBlock, SpanKind } from '../core/types.js';
import type { LineHint } from './html.js';
import {
  ATTRIBUTION_LEAD,
  DATE_KEY,
  FORWARD_MARKERS,
  FORWARD_SUBJECT,
  FROM_KEY,
  FROM_VALUE,
  isHeaderKeyLine,
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

/** A line as the patterns see it: trimmed, spaces normalized, empty when too long to be a marker. */
export function patternLine(line: string): string {
  if (line.length > MAX_PATTERN_LINE) return '';
  return line.replace(/[\u00a0\u202f\t]/g, ' ').trim();
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

/** Length of a two-line attribution starting at `i` (2), a one-line one (1), or 0. */
function attributionLength(norm: readonly string[], i: number, test: (line: string) => boolean): 0 | 1 | 2 {
  const t = norm[i] as string;
  if (t.endsWith(':') && test(t)) return 1;
  const next = norm[i + 1];
  if (next?.endsWith(':') && !t.endsWith(':') && ATTRIBUTION_LEAD.test(t) && test(`${t} ${next}`)) return 2;
  return 0;
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
    const loose = attributionLength(norm, i, isLooseAttribution);
    if (loose > 0) {
      const last = i + loose - 1;
      if (quotedAt(nextNonBlank(norm, lines, last))) {
        for (let j = i; j <= last; j++) kinds[j] = 'quoted';
        i = last;
        continue;
      }
      if (attributionLength(norm, i, isStrongAttribution) > 0) return restFrom(i, 'quoted');
    }
    if (RUN_ON_ATTRIBUTION.test(t)) return restFrom(i, 'quoted');
    kinds[i] = 'authored';
  }
  return { kinds, forwarded };
}

function previousNonBlank(lines: readonly string[], i: number): number {
  for (let j = i - 1; j >= 0; j--) if ((lines[j] as string).trim() !== '') return j;
  return -1;
}

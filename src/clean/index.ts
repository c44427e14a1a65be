// The cleaning stage: splits a parsed message's body into what its author wrote, the history
// it quotes, forwarded blocks, signature, disclaimer and footer (see CleanedBody).
import { LIMITS } from '../core/limits.js';
import type { CleanedBody } from '../core/types.js';
import { assemble } from './assemble.js';
import { flattenHtml, type LineHint } from './html.js';
import { splitQuotes } from './quotes.js';
import { splitTails } from './tail.js';

export { htmlToText } from './html.js';
export { signatureRole } from './signature-role.js';
export { authoredForIndex, CLEANER_VERSION } from './stored.js';

export interface CleanOptions {
  /** HTML beyond this many characters is cut before parsing. */
  readonly maxHtmlChars?: number;
}

const EMPTY: CleanedBody = {
  source: 'none',
  body: '',
  spans: [],
  authored: '',
  quoted: '',
  forwarded: [],
  signature: '',
  disclaimer: '',
  footer: '',
};

/** Cleans lines; text past LIMITS.maxCleanChars is appended unsplit as authored. */
function cleanLines(source: 'text' | 'html', lines: string[], hints: readonly LineHint[]): CleanedBody {
  let kept = lines;
  let tail = '';
  let size = 0;
  for (let i = 0; i < lines.length; i++) {
    size += (lines[i] as string).length + 1;
    if (size > LIMITS.maxCleanChars) {
      kept = lines.slice(0, i);
      tail = `${i > 0 ? '\n' : ''}${lines.slice(i).join('\n')}`;
      break;
    }
  }
  const { kinds, forwarded } = splitQuotes(kept, hints);
  splitTails(kept, kinds);
  return assemble(source, kept, kinds, forwarded, tail);
}

function cleanText(text: string): CleanedBody {
  return cleanLines('text', text.replace(/\r\n?/g, '\n').split('\n'), []);
}

function cleanHtml(html: string, maxHtmlChars: number): CleanedBody {
  const { lines, hints } = flattenHtml(html, maxHtmlChars);
  return cleanLines('html', [...lines], hints);
}

/** Whitespace-separated runs in `text`, counted without splitting it. */
function wordCount(text: string): number {
  let count = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const space = isSpace(text.charCodeAt(i));
    if (!space && !inWord) count++;
    inWord = !space;
  }
  return count;
}

/** Exactly the characters of the regex class `\s`. */
function isSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/**
 * Whether the cleaned HTML loses to the text part of the same message. The HTML wins unless
 * it is a stub: its DOM shows quote containers the text part has lost, and newsletters' text
 * parts are often a stub ("view this email in a browser"). A part is a stub when its body has
 * under half the words of the other's. A cleaned text's body is the text itself (line breaks
 * normalised), so the text part is counted, and cleaned only when it wins.
 */
function htmlIsStub(fromHtml: CleanedBody, text: string): boolean {
  return wordCount(fromHtml.body) * 2 < wordCount(text);
}

/** Splits a message body into its parts; pure, synchronous, and never throws. */
export function cleanMessage(
  input: { readonly text: string | null; readonly html: string | null },
  options: CleanOptions = {},
): CleanedBody {
  const maxHtmlChars = options.maxHtmlChars ?? LIMITS.maxHtmlChars;
  const text = input.text?.trim() ? input.text : null;
  const html = input.html?.trim() ? input.html : null;
  try {
    const fromHtml = html === null ? null : cleanHtml(html, maxHtmlChars);
    if (fromHtml && (text === null || !htmlIsStub(fromHtml, text))) return fromHtml;
    return text === null ? EMPTY : cleanText(text);
  } catch {
    // A defect in a detector must not lose the message: keep everything as authored.
    const body = text ?? '';
    return {
      ...EMPTY,
      source: text === null ? 'none' : 'text',
      body,
      spans: body ? [{ kind: 'authored', start: 0, end: body.length }] : [],
      authored: body.trim(),
    };
  }
}

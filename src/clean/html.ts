// HTML → lines of text. The DOM is pruned of invisible content and the containers that
// mail clients wrap quotes and signatures in are marked with sentinel characters before
// html-to-text flattens it, so quote structure survives flattening as per-line hints.
import { createRequire } from 'node:module';
import { type AnyNode, type Document, type Element, isTag, isText } from 'domhandler';
import type { DomNode, FormatCallback, HtmlToTextOptions } from 'html-to-text';
import { LIMITS } from '../core/limits.js';
import { FROM_KEY_START } from './patterns.js';
import { stripTags } from './strip.js';

/** What the DOM says about a line: inside a quote container, inside a signature container. */
export type LineHint = 'quoted' | 'signature' | null;

export interface HtmlLines {
  readonly lines: readonly string[];
  readonly hints: readonly LineHint[];
}

/**
 * Real mail nests a few dozen elements (Apple Mail adds one blockquote per reply); below
 * this depth a subtree becomes its plain text, which keeps html-to-text's recursive walk and
 * the serializer far from the stack limit on 10,000 unclosed tags.
 */
const MAX_DOM_DEPTH = 120;

/** Largest HTML given the DOM treatment; the reason for the number is in LIMITS. */
export const MAX_DOM_HTML_CHARS = LIMITS.maxDomHtmlChars;

// Private-use characters cannot come from the message: they are stripped from the input.
const OPEN = '\uE000';
const CLOSE = '\uE001';
const REST = '\uE002';
const SENTINELS = /[\uE000-\uE002]/g;

const DROPPED_TAGS = new Set([
  'style',
  'script',
  'head',
  'title',
  'meta',
  'link',
  'img',
  'svg',
  'object',
  'iframe',
  'noscript',
  'template',
]);

/** Preheaders and spacers hide themselves in one of these ways. */
const HIDDEN_STYLE =
  /display\s*:\s*none|visibility\s*:\s*hidden|(^|;|\s)(max-)?height\s*:\s*0(px)?\s*(;|$|!)|(^|;|\s)(max-)?width\s*:\s*0(px)?\s*(;|$|!)|font-size\s*:\s*0(px)?\s*(;|$|!)|opacity\s*:\s*0(\.0)?\s*(;|$|!)/i;

const INVISIBLE_CHARS = /[\u200b-\u200d\u2060\ufeff\u00ad]|\u034f/g;

/**
 * html-to-text only takes markup, which it parses again. It is handed this stub instead,
 * whose formatter walks the DOM already parsed and pruned here (passed as metadata): one
 * parse per message instead of parse, serialize and parse again.
 */
const DOM_STUB = '<mailsift-dom></mailsift-dom>';

// The metadata argument and builder.metadata are html-to-text API its typings leave out.
const walkParsedDom: FormatCallback = (_elem, walk, builder) => {
  const { metadata } = builder as unknown as { metadata: Document };
  walk(bodies(metadata) as unknown as DomNode[], builder);
};

/** What html-to-text converts of a document: its `body` elements, else all of it. */
function bodies(document: Document): AnyNode[] {
  const found: AnyNode[] = [];
  const stack: AnyNode[] = [...document.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop() as AnyNode;
    if (!isTag(node)) continue;
    if (node.name === 'body') found.push(node);
    else for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as AnyNode);
  }
  return found.length > 0 ? found : document.children;
}

const CONVERT_OPTIONS: HtmlToTextOptions = {
  wordwrap: false,
  preserveNewlines: false,
  formatters: { parsedDom: walkParsedDom },
  selectors: [
    { selector: 'mailsift-dom', format: 'parsedDom' },
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
    { selector: 'hr', format: 'skip' },
    // Layout tables and Outlook's margin-less paragraphs read as plain line blocks.
    ...['blockquote', 'table', 'tr', 'td', 'th', 'p.MsoNormal'].map((selector) => ({
      selector,
      format: 'block',
      options: { leadingLineBreaks: 1, trailingLineBreaks: 1 },
    })),
    { selector: 'ul', options: { itemPrefix: '- ' } },
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({
      selector,
      format: 'block',
      options: { leadingLineBreaks: 2, trailingLineBreaks: 2 },
    })),
  ],
};

interface HtmlLibraries {
  readonly parseDocument: typeof import('htmlparser2').parseDocument;
  readonly Text: typeof import('domhandler').Text;
  readonly convert: (html: string, metadata: Document) => string;
}

let libraries: HtmlLibraries | undefined;

/**
 * htmlparser2, its DOM and html-to-text, loaded with the first HTML body flattened: every
 * process that opens an archive loads this module (the cleaner's version, the index's authored
 * text), and one that searches or reads mail flattens nothing (they took ~60 ms of its start).
 * Required, as flattening is synchronous; the DOM's nodes all come from the same build.
 */
function htmlLibraries(): HtmlLibraries {
  if (libraries) return libraries;
  const require = createRequire(import.meta.url);
  const { compile } = require('html-to-text') as typeof import('html-to-text');
  const { parseDocument } = require('htmlparser2') as typeof import('htmlparser2');
  const { Text } = require('domhandler') as typeof import('domhandler');
  libraries = { parseDocument, Text, convert: compile(CONVERT_OPTIONS) as HtmlLibraries['convert'] };
  return libraries;
}

type Mark = { readonly kind: 'q' | 's'; readonly rest: boolean };

const QUOTED: Mark = { kind: 'q', rest: false };
const SIGNATURE: Mark = { kind: 's', rest: false };
const REST_QUOTED: Mark = { kind: 'q', rest: true };

const QUOTE_CLASSES = /\b(gmail_attr|yahoo_quoted|protonmail_quote|moz-cite-prefix)\b/;
const SIGNATURE_CLASSES = /\b(gmail_signature|moz-signature|protonmail_signature_block)\b/;

/** Which client container, if any, this element is. */
function markOf(el: Element): Mark | null {
  const cls = el.attribs.class ?? '';
  const id = el.attribs.id ?? '';
  if (el.name === 'blockquote') {
    const style = el.attribs.style ?? '';
    if (el.attribs.type === 'cite' || /gmail_quote|protonmail_quote/.test(cls) || /border-left/i.test(style))
      return QUOTED;
  }
  if (QUOTE_CLASSES.test(cls) || id.startsWith('yahoo_quoted')) return QUOTED;
  if (el.attribs['data-marker'] === '__QUOTED_TEXT__') return QUOTED;
  if (SIGNATURE_CLASSES.test(cls) || id === 'Signature' || id === 'ms-outlook-mobile-signature')
    return SIGNATURE;
  // Outlook and Zimbra put the quoted message after their header block, not inside it.
  if (id === 'divRplyFwdMsg' || id === 'OutlookMessageHeader' || cls.includes('OutlookMessageHeader'))
    return REST_QUOTED;
  if (el.name === 'hr' && id === 'zwchr') return REST_QUOTED;
  if (el.attribs['data-marker'] === '__HEADERS__') return REST_QUOTED;
  if (el.name === 'div' && /border-top\s*:\s*solid/i.test(el.attribs.style ?? '') && startsWithFromKey(el))
    return REST_QUOTED;
  return null;
}

/** Whether the first text inside `el` is an Outlook "From:" key (looked up over a few nodes). */
function startsWithFromKey(el: Element): boolean {
  const stack: AnyNode[] = [...el.children].reverse();
  for (let steps = 0; stack.length > 0 && steps < 40; steps++) {
    const node = stack.pop() as AnyNode;
    if (isText(node)) {
      const text = node.data.trim();
      if (text) return FROM_KEY_START.test(text);
    } else if (isTag(node)) {
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as AnyNode);
    }
  }
  return false;
}

function isHidden(el: Element): boolean {
  if (el.attribs.hidden !== undefined) return true;
  const style = el.attribs.style;
  return style !== undefined && HIDDEN_STYLE.test(style);
}

/** Concatenated text below `node`, gathered without recursion. */
function flatText(node: Element): string {
  const parts: string[] = [];
  const stack: AnyNode[] = [node];
  while (stack.length > 0) {
    const current = stack.pop() as AnyNode;
    if (isText(current)) parts.push(current.data);
    else if (isTag(current) && !DROPPED_TAGS.has(current.name)) {
      for (let i = current.children.length - 1; i >= 0; i--) stack.push(current.children[i] as AnyNode);
    }
  }
  return parts.join(' ');
}

/** Prunes invisible nodes and inserts sentinels around client containers, in place. */
function prepare(root: Element | { children: AnyNode[] }, withMarks: boolean): void {
  const { Text } = htmlLibraries();
  const stack: { node: { children: AnyNode[] }; depth: number }[] = [{ node: root, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop() as { node: { children: AnyNode[] }; depth: number };
    const kept: AnyNode[] = [];
    for (const child of node.children) {
      if (isText(child)) {
        kept.push(child);
        continue;
      }
      if (!isTag(child) || DROPPED_TAGS.has(child.name) || isHidden(child)) continue;
      if (depth >= MAX_DOM_DEPTH) {
        kept.push(new Text(flatText(child)));
        continue;
      }
      const mark = withMarks ? markOf(child) : null;
      if (mark?.rest) kept.push(new Text(REST + mark.kind));
      else if (mark) child.children = [new Text(OPEN + mark.kind), ...child.children, new Text(CLOSE)];
      kept.push(child);
      stack.push({ node: child, depth: depth + 1 });
    }
    node.children = kept;
  }
}

/** Splits flattened text at the sentinels into clean lines with the hint active on each. */
function toLines(flat: string): HtmlLines {
  const lines: string[] = [];
  const hints: LineHint[] = [];
  const stack: ('q' | 's')[] = [];
  let rest = false;
  let line = '';
  let lineHint: LineHint | undefined;
  const current = (): LineHint =>
    rest || stack.includes('q') ? 'quoted' : stack.length > 0 ? 'signature' : null;
  const flush = (): void => {
    const text = line
      .replace(INVISIBLE_CHARS, '')
      .replace(/[\u00a0\u202f\t]/g, ' ')
      .trimEnd();
    lines.push(text);
    hints.push(text.trim() === '' ? current() : (lineHint ?? current()));
    line = '';
    lineHint = undefined;
  };
  const addText = (text: string): void => {
    const parts = text.split('\n');
    parts.forEach((part, i) => {
      if (i > 0) flush();
      if (lineHint === undefined && part.replace(INVISIBLE_CHARS, '').trim() !== '') lineHint = current();
      line += part;
    });
  };
  let from = 0;
  for (const match of flat.matchAll(SENTINELS)) {
    const at = match.index;
    addText(flat.slice(from, at));
    const code = flat[at + 1] === 's' ? 's' : 'q';
    if (match[0] === OPEN) stack.push(code);
    else if (match[0] === CLOSE) stack.pop();
    else rest = true;
    from = match[0] === CLOSE ? at + 1 : at + 2;
  }
  addText(flat.slice(from));
  flush();
  return collapseBlankRuns(lines, hints);
}

/** Drops leading/trailing blank lines and keeps at most one blank line in a row. */
function collapseBlankRuns(lines: string[], hints: LineHint[]): HtmlLines {
  const outLines: string[] = [];
  const outHints: LineHint[] = [];
  lines.forEach((text, i) => {
    const blank = text.trim() === '';
    if (blank && (outLines.length === 0 || outLines[outLines.length - 1] === '')) return;
    outLines.push(blank ? '' : text);
    outHints.push(hints[i] ?? null);
  });
  while (outLines.length > 0 && outLines[outLines.length - 1] === '') {
    outLines.pop();
    outHints.pop();
  }
  return { lines: outLines, hints: outHints };
}

/** Flattens HTML into lines, with each line's container hint when `withMarks` is set. */
export function flattenHtml(
  html: string,
  maxHtmlChars: number = LIMITS.maxHtmlChars,
  withMarks = true,
): HtmlLines {
  const source = (html.length > maxHtmlChars ? html.slice(0, maxHtmlChars) : html).replace(SENTINELS, '');
  if (source.length > MAX_DOM_HTML_CHARS) return toLines(stripTags(source));
  const { parseDocument, convert } = htmlLibraries();
  const document = parseDocument(source, { decodeEntities: true });
  prepare(document, withMarks);
  return toLines(convert(DOM_STUB, document));
}

/** Readable text of an HTML document: visible content only, paragraphs and lists kept. */
export function htmlToText(html: string): string {
  return flattenHtml(html, LIMITS.maxHtmlChars, false).lines.join('\n');
}

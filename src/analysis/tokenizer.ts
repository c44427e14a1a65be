// The tokenizer: splits text into alphanumeric runs (Unicode letters, digits and the marks
// that belong to them). Everything else breaks a run; the run remembers whether exactly one
// joiner character (`.`, `@`, `-`, `_`) tied it to the previous run, for compound identifiers.

import type { StreamToken } from './types.js';

const BREAK = 0;
const WORD = 1;
const JOINER = 2;
/** Not classified yet: a character past ASCII is classified when first met (see bmpClass). */
const UNKNOWN = 3;

/**
 * Joiners tie runs into compounds: `INV-4471`, `a.b@c.com`, `v2.3.1`, `snake_case`.
 * `/`, `:`, `#`, `+` and `'` deliberately do not: `https://stripe.com/docs` must still yield
 * `stripe.com`, `user+tag@x.com` the address part, and `l'école` / `don't` are elisions.
 */
export const JOINER_CHARS = '.@-_\u2010\u2011';

const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;

let bmpTable: Uint8Array | null = null;

/**
 * Class of every BMP unit, so the scan runs a regex once per distinct character, not per
 * character. ASCII and the joiners are classified up front; the rest when first met: every
 * unit up front took ~6 ms (20 under load), a CLI search's query needs a handful.
 */
function classTable(): Uint8Array {
  if (bmpTable !== null) return bmpTable;
  const table = new Uint8Array(0x10000).fill(UNKNOWN);
  for (let c = 0; c < 0x80; c++) table[c] = WORD_CHAR.test(String.fromCharCode(c)) ? WORD : BREAK;
  for (const ch of JOINER_CHARS) table[ch.charCodeAt(0)] = JOINER;
  bmpTable = table;
  return table;
}

/** The class of BMP unit `c` (not a surrogate), classified and kept on first sight. */
function bmpClass(table: Uint8Array, c: number): number {
  const cls = table[c] as number;
  if (cls !== UNKNOWN) return cls;
  const found = WORD_CHAR.test(String.fromCharCode(c)) ? WORD : BREAK;
  table[c] = found;
  return found;
}

const ASTRAL_WORD = /^[\p{L}\p{N}\p{M}]$/u;
const astralClass = new Map<number, number>();

function classOfAstral(codePoint: number): number {
  let cls = astralClass.get(codePoint);
  if (cls === undefined) {
    cls = ASTRAL_WORD.test(String.fromCodePoint(codePoint)) ? WORD : BREAK;
    if (astralClass.size < 4096) astralClass.set(codePoint, cls);
  }
  return cls;
}

/** Class and width (1 or 2 units) of the character at i. */
function classAt(table: Uint8Array, text: string, i: number): { cls: number; width: number } {
  const c = text.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff || i + 1 >= text.length) return { cls: bmpClass(table, c), width: 1 };
  const low = text.charCodeAt(i + 1);
  if (low < 0xdc00 || low > 0xdfff) return { cls: BREAK, width: 1 };
  return { cls: classOfAstral(((c - 0xd800) << 10) + (low - 0xdc00) + 0x10000), width: 2 };
}

/**
 * Calls `visit` with each alphanumeric run of `text`, in order: its span, and whether every
 * unit of it is ASCII. No token and no string per run, for callers that look at few of them.
 */
export function forEachRun(text: string, visit: (start: number, end: number, ascii: boolean) => void): void {
  const table = classTable();
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    // ASCII and BMP characters are one table read; only surrogates take the slow path.
    if (c < 0xd800 || c > 0xdfff ? bmpClass(table, c) !== WORD : classAt(table, text, i).cls !== WORD) {
      i++;
      continue;
    }
    const start = i;
    let ascii = true;
    while (i < n) {
      const d = text.charCodeAt(i);
      if (d < 0x80) {
        if (table[d] !== WORD) break;
        i++;
      } else if (d < 0xd800 || d > 0xdfff) {
        if (bmpClass(table, d) !== WORD) break;
        ascii = false;
        i++;
      } else {
        const { cls, width } = classAt(table, text, i);
        if (cls !== WORD) break;
        ascii = false;
        i += width;
      }
    }
    visit(start, i, ascii);
  }
}

/** Splits text into alphanumeric runs, in order, as unfolded word tokens. */
export function tokenize(text: string): StreamToken[] {
  const table = classTable();
  const runs: StreamToken[] = [];
  let previousEnd = -2;
  forEachRun(text, (start, end, ascii) => {
    // Joiners are classified up front: an unclassified unit is none.
    const joiner =
      previousEnd === start - 1 && table[text.charCodeAt(start - 1)] === JOINER
        ? (text[start - 1] as string)
        : '';
    const source = text.slice(start, end);
    runs.push({ term: source, start, end, kind: 'word', source, ascii, joiner });
    previousEnd = end;
  });
  return runs;
}

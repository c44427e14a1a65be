// The tokenizer: splits text into alphanumeric runs (Unicode letters, digits and the marks
// that belong to them). Everything else breaks a run; the run remembers whether exactly one
// joiner character (`.`, `@`, `-`, `_`) tied it to the previous run, for compound identifiers.

import type { StreamToken } from './types.js';

const BREAK = 0;
const WORD = 1;
const JOINER = 2;

/**
 * Joiners tie runs into compounds: `INV-4471`, `a.b@c.com`, `v2.3.1`, `snake_case`.
 * `/`, `:`, `#`, `+` and `'` deliberately do not: `https://stripe.com/docs` must still yield
 * `stripe.com`, `user+tag@x.com` the address part, and `l'école` / `don't` are elisions.
 */
export const JOINER_CHARS = '.@-_\u2010\u2011';

let bmpClass: Uint8Array | null = null;

/** Class of every BMP unit, built once (~6 ms) so the scan never runs a regex per character. */
function classTable(): Uint8Array {
  if (bmpClass !== null) return bmpClass;
  const table = new Uint8Array(0x10000);
  const word = /[\p{L}\p{N}\p{M}]/u;
  for (let c = 0; c < 0x10000; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue;
    if (word.test(String.fromCharCode(c))) table[c] = WORD;
  }
  for (const ch of JOINER_CHARS) table[ch.charCodeAt(0)] = JOINER;
  bmpClass = table;
  return table;
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
  if (c < 0xd800 || c > 0xdbff || i + 1 >= text.length) return { cls: table[c] as number, width: 1 };
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
    if (c < 0xd800 || c > 0xdfff ? table[c] !== WORD : classAt(table, text, i).cls !== WORD) {
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
        if (table[d] !== WORD) break;
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

// Term folding shared by every analyzer and by the query side: lowercase + accent folding,
// computed per character and cached in a table so the hot path never runs a regex.
// The result is always one FTS5 token under `unicode61 tokenchars '_'`.

/** Longest indexed term, in UTF-16 units. Longer runs are cut (see capTerm). */
export const MAX_TOKEN_LENGTH = 64;

/**
 * Letters that NFKD leaves whole but that people type without their mark, and what
 * FTS5's unicode61 misses (FACTS.md): ß, ligatures, dotless i, Nordic/Slavic strokes,
 * Greek final sigma. ё/й/accents need no entry: NFKD splits them into base + mark.
 */
const SPECIAL_FOLDS: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ł: 'l',
  ħ: 'h',
  ŧ: 't',
  ı: 'i',
  ȷ: 'j',
  þ: 'th',
  ς: 'σ',
};

const KEEP_CHAR = /[\p{L}\p{N}_]/u;
const MARK = /\p{M}/u;

/** One folding pass over a short string: NFKD, lowercase, drop marks, map specials, keep token chars. */
function foldPass(s: string): string {
  let out = '';
  for (const ch of s.normalize('NFKD').toLowerCase()) {
    if (MARK.test(ch)) continue;
    const special = SPECIAL_FOLDS[ch];
    if (special !== undefined) out += special;
    else if (KEEP_CHAR.test(ch)) out += ch;
  }
  return out;
}

/** Slow, exact fold of one character, iterated to a fixed point so foldTerm is idempotent. */
function foldSlow(ch: string): string {
  let current = foldPass(ch);
  for (let i = 0; i < 3; i++) {
    const next = foldPass(current);
    if (next === current) break;
    current = next;
  }
  return current;
}

// Folding is per character (NFKD is a per-character decomposition and we drop every mark,
// so reordering and composition never matter), which lets us cache each BMP unit once.
const UNKNOWN = -1;
const REMOVED = -2;
const MULTI = -3;
const bmpFold = new Int32Array(0x10000).fill(UNKNOWN);
const multiFold = new Map<number, string>();
const astralFold = new Map<number, string>();

function foldBmpUnit(code: number): string {
  let entry = bmpFold[code] as number;
  if (entry === UNKNOWN) {
    const folded = foldSlow(String.fromCharCode(code));
    if (folded.length === 0) entry = REMOVED;
    else if (folded.length === 1) entry = folded.charCodeAt(0);
    else {
      entry = MULTI;
      multiFold.set(code, folded);
    }
    bmpFold[code] = entry;
  }
  if (entry === REMOVED) return '';
  if (entry === MULTI) return multiFold.get(code) as string;
  return String.fromCharCode(entry);
}

function foldAstral(codePoint: number): string {
  let folded = astralFold.get(codePoint);
  if (folded === undefined) {
    folded = foldSlow(String.fromCodePoint(codePoint));
    // Astral letters are rare (math alphanumerics, historic scripts); the cap only guards memory.
    if (astralFold.size < 4096) astralFold.set(codePoint, folded);
  }
  return folded;
}

function isFoldedAscii(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x5f;
}

/**
 * Lowercases and folds a term: NFKD without combining marks (é→e, ё→е, й→и, ά→α),
 * ß→ss, æ→ae, œ→oe, ø→o, ł→l, ı/İ→i, ς→σ; digits of other scripts stay as they are.
 * Anything that is not a letter, digit or '_' is dropped, so the result is always a single
 * FTS5 token. Idempotent: foldTerm(foldTerm(s)) === foldTerm(s).
 */
export function foldTerm(s: string): string {
  const n = s.length;
  let i = 0;
  while (i < n && isFoldedAscii(s.charCodeAt(i))) i++;
  if (i === n) return s;
  let out = s.slice(0, i);
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (isFoldedAscii(c)) out += s[i];
    else if (c >= 0x41 && c <= 0x5a) out += String.fromCharCode(c + 32);
    else if (c < 0x80) continue;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
      const low = s.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        out += foldAstral(((c - 0xd800) << 10) + (low - 0xdc00) + 0x10000);
        i++;
      }
    } else out += foldBmpUnit(c);
  }
  return out;
}

/**
 * Cuts a folded term to MAX_TOKEN_LENGTH without splitting a surrogate pair. The query
 * side cuts the same way, so a query run longer than the cap still matches its token.
 */
export function capTerm(term: string): string {
  if (term.length <= MAX_TOKEN_LENGTH) return term;
  const last = term.charCodeAt(MAX_TOKEN_LENGTH - 1);
  const cut = last >= 0xd800 && last <= 0xdbff ? MAX_TOKEN_LENGTH - 1 : MAX_TOKEN_LENGTH;
  return term.slice(0, cut);
}

export function hasAsciiDigit(term: string): boolean {
  for (let i = 0; i < term.length; i++) {
    const c = term.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) return true;
  }
  return false;
}

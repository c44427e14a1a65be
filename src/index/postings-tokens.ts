// Cuts column text into terms as FTS5's unicode61 tokenizer does (tokenchars '_'), and
// numbers a batch's terms: the postings writer's side of tokenising, kept identical to the
// FTS5 index beside it.

/** FTS5's unicode61 token characters (tokenchars '_'): letters, digits, private use, '_'. */
const TOKEN_CHARS = '[\\p{L}\\p{N}\\p{Co}_]';
const WHOLE_TOKEN = new RegExp(`^${TOKEN_CHARS}+$`, 'u');
const TOKEN_CHAR = new RegExp(`^${TOKEN_CHARS}$`, 'u');

/** `term` is one FTS5 token: the tokenizer would cut any other into a phrase. */
export const isWholeToken = (term: string): boolean => WHOLE_TOKEN.test(term);

/** Per BMP code unit: 1 a token character, 2 not one, 0 not asked yet. */
const unitClass = new Uint8Array(0x10000);

/** Code units of the token character at `at` (a surrogate pair is one character), 0 when none is there. */
function tokenCharAt(text: string, at: number): number {
  const code = text.charCodeAt(at);
  if (code >= 0xd800 && code <= 0xdbff) {
    const low = text.charCodeAt(at + 1);
    return low >= 0xdc00 && low <= 0xdfff && TOKEN_CHAR.test(text.slice(at, at + 2)) ? 2 : 0;
  }
  let known = unitClass[code] as number;
  if (known === 0) {
    known = TOKEN_CHAR.test(String.fromCharCode(code)) ? 1 : 2;
    unitClass[code] = known;
  }
  return known === 1 ? 1 : 0;
}

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/**
 * Calls `visit` with the span of each token of `text`, as FTS5 cuts them, and a hash of its
 * code units: a character scan with the class of each code unit remembered, several times
 * faster than a global regex's matches (~900 tokens per message), and no string per token.
 */
export function forEachToken(text: string, visit: (start: number, end: number, hash: number) => void): void {
  const length = text.length;
  let at = 0;
  while (at < length) {
    let width = tokenCharAt(text, at);
    if (width === 0) {
      at++;
      continue;
    }
    const start = at;
    let hash = FNV_OFFSET;
    while (width > 0) {
      for (const end = at + width; at < end; at++) hash = Math.imul(hash ^ text.charCodeAt(at), FNV_PRIME);
      width = at < length ? tokenCharAt(text, at) : 0;
    }
    visit(start, at, hash);
  }
}

/**
 * A batch's terms of one family, numbered in first-seen order. A token is looked up by its
 * span of the text and the hash its scan took, so a term seen before (most of a message's)
 * costs neither a string nor a string hash: slicing each token and asking a Map took ~5%
 * of the ingest thread, and the slices were most of its young garbage.
 */
export class TermTable {
  readonly names: string[] = [];
  private readonly hashes: number[] = [];
  /** Open addressing, linear probing, at most half full: a term id per slot, -1 when empty. */
  private slots = new Int32Array(1024).fill(-1);

  /** The id of the term text[start, end) with scan hash `hash`, numbered now if new. */
  intern(text: string, start: number, end: number, hash: number): number {
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const id = this.slots[slot] as number;
      if (id < 0) return this.add(text.slice(start, end), hash, slot);
      if (this.hashes[id] === hash && spells(this.names[id] as string, text, start, end)) return id;
    }
  }

  private add(term: string, hash: number, slot: number): number {
    const id = this.names.length;
    this.names.push(term);
    this.hashes.push(hash);
    this.slots[slot] = id;
    if (this.names.length * 2 > this.slots.length) this.grow();
    return id;
  }

  private grow(): void {
    const slots = new Int32Array(this.slots.length * 2).fill(-1);
    const mask = slots.length - 1;
    this.hashes.forEach((hash, id) => {
      let slot = hash & mask;
      while (slots[slot] !== -1) slot = (slot + 1) & mask;
      slots[slot] = id;
    });
    this.slots = slots;
  }
}

/** `term` is text[start, end). */
function spells(term: string, text: string, start: number, end: number): boolean {
  if (term.length !== end - start) return false;
  for (let i = 0; i < term.length; i++) if (term.charCodeAt(i) !== text.charCodeAt(start + i)) return false;
  return true;
}

// Char filters: rewrite the text before tokenization while remembering where every kept
// character came from, so token offsets still point into the ORIGINAL text (Lucene's
// CharFilter.correctOffset).

/** Text after a char filter, with a way back to the original offsets. */
export interface FilteredText {
  readonly text: string;
  /** Original offset of the character at `offset` in `text` (offset < text.length). */
  toOriginal(offset: number): number;
}

export type CharFilter = (text: string) => FilteredText;

/** The offset map of text no char filter changed. */
export const identity = (offset: number): number => offset;

/**
 * Invisible format characters that split or glue words by accident: soft hyphens from
 * hyphenating editors (`infor\u00ADmation`), zero-width spaces/joiners that senders put in
 * addresses and preheaders (`stripe\u200B.com`, `&zwnj;` runs), word joiners, BOMs and bidi
 * marks. Removing them keeps the word whole, as the reader sees it.
 */
const IGNORABLE = /[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]/;
const IGNORABLE_ALL = new RegExp(IGNORABLE.source, 'g');

/** Removes invisible format characters; identity (no copy) when the text has none. */
export const ignorableCharFilter: CharFilter = (text) => {
  if (!IGNORABLE.test(text)) return { text, toOriginal: identity };
  // kept[i] = original offset of the i-th kept character; cumulative shifts would need a
  // binary search per lookup, this is one array read.
  const kept = new Int32Array(text.length);
  let out = '';
  let count = 0;
  let segmentStart = 0;
  IGNORABLE_ALL.lastIndex = 0;
  for (let m = IGNORABLE_ALL.exec(text); m !== null; m = IGNORABLE_ALL.exec(text)) {
    for (let i = segmentStart; i < m.index; i++) kept[count++] = i;
    out += text.slice(segmentStart, m.index);
    segmentStart = m.index + 1;
  }
  for (let i = segmentStart; i < text.length; i++) kept[count++] = i;
  out += text.slice(segmentStart);
  return { text: out, toOriginal: (offset) => kept[offset] as number };
};

/** Runs char filters in order, composing their offset maps. */
export function applyCharFilters(filters: readonly CharFilter[], text: string): FilteredText {
  let result: FilteredText = { text, toOriginal: identity };
  for (const filter of filters) {
    const previous = result;
    const next = filter(previous.text);
    result =
      next.toOriginal === identity
        ? previous
        : { text: next.text, toOriginal: (offset) => previous.toOriginal(next.toOriginal(offset)) };
  }
  return result;
}

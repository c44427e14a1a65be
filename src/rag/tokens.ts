// Token counting for chunk sizes, and splitting text into windows of a token budget at
// paragraph, then sentence, then word boundaries, with overlap between windows.

/** Counts tokens the way the embedding model would; implementations wrap a real tokenizer. */
export interface TokenCounter {
  /** Recorded with the chunks (see chunking.ts): chunks counted by another tokenizer are rebuilt. */
  readonly id: string;
  count(text: string): number;
}

/** Without the model's tokenizer: ~1.3 subword tokens per whitespace word (English-like text). */
export const approximateTokens: TokenCounter = {
  id: 'approximate',
  count: (text) => Math.ceil(wordCount(text) * 1.3),
};

function wordCount(text: string): number {
  const words = text.match(/\S+/g);
  return words === null ? 0 : words.length;
}

// A sentence ends at . ! ? (or their CJK forms) followed by space; abbreviations may split
// early, which only costs a slightly smaller unit.
const SENTENCE_END = /(?<=[.!?。！？])\s+/u;

/** Splits text into units no larger than `max` tokens: paragraphs, else sentences, else words. */
function units(text: string, max: number, counter: TokenCounter): string[] {
  const result: string[] = [];
  for (const paragraph of text.split(/\n\s*\n/)) {
    const trimmed = paragraph.trim();
    if (trimmed === '') continue;
    if (counter.count(trimmed) <= max) {
      result.push(trimmed);
      continue;
    }
    for (const sentence of trimmed.split(SENTENCE_END)) {
      if (counter.count(sentence) <= max) result.push(sentence);
      else {
        const words = sentence.split(/\s+/);
        const step = Math.max(1, Math.floor(max / 1.3));
        for (let i = 0; i < words.length; i += step) result.push(words.slice(i, i + step).join(' '));
      }
    }
  }
  return result;
}

/**
 * Windows of at most `target` tokens; each window after the first starts with the tail
 * units of the previous one, up to `overlap` tokens, so a fact on a boundary is whole in one.
 */
export function splitText(text: string, target: number, overlap: number, counter: TokenCounter): string[] {
  const parts = units(text, target, counter);
  const windows: string[] = [];
  let current: string[] = [];
  let size = 0;
  for (const unit of parts) {
    const tokens = counter.count(unit);
    if (size + tokens > target && current.length > 0) {
      windows.push(current.join('\n\n'));
      const carried = tail(current, Math.min(overlap, target - tokens), counter);
      const carriedSize = carried.length === 0 ? 0 : counter.count(carried.join(' '));
      current = carried.length === 0 ? [] : [carried.join(' ')];
      size = carriedSize;
    }
    current.push(unit);
    size += tokens;
  }
  if (current.length > 0) windows.push(current.join('\n\n'));
  return windows;
}

/** The last sentences of `window`, up to `budget` tokens: what the next window repeats. */
function tail(window: readonly string[], budget: number, counter: TokenCounter): string[] {
  const picked: string[] = [];
  let size = 0;
  for (let u = window.length - 1; u >= 0; u--) {
    const parts = (window[u] as string).split(SENTENCE_END);
    for (let i = parts.length - 1; i >= 0; i--) {
      const t = counter.count(parts[i] as string);
      if (size + t > budget) return picked;
      picked.unshift(parts[i] as string);
      size += t;
    }
  }
  return picked;
}

/** Sentences of a text (newlines end sentences too: mail is written in short lines). */
export function sentences(text: string): string[] {
  return text
    .split(/\n\s*\n|(?<=[.!?。！？])\s+|\n(?=[-*•\d])/u)
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter((s) => s.length > 0);
}

// A salutation is not content: "Hi Tom," / "Dear Marco," / "Ciao Giulia," / "Sehr geehrte Frau
// Weber," / "Здравствуйте, Ольга!" in the languages we clean, or names alone ("Luca, Laura,").
const GREETING =
  /^(?:hi|hello|hey|dear|good (?:morning|afternoon|evening)|greetings|ciao|buongiorno|buonasera|salve|gentile|gentili|caro|cara|cari|care|hallo|liebe|lieber|sehr geehrte[rs]?|guten (?:morgen|tag)|moin|bonjour|bonsoir|salut|cher|chère|chers|madame|monsieur|hola|estimad[oa]s?|buen[oa]s (?:días|tardes)|olá|bom dia|boa tarde|prezad[oa]s?|hoi|beste|goedemorgen|goedemiddag|здравствуйте|добрый день|привет|уважаем\p{L}*|коллеги)(?![\p{L}])/iu;
const NAMES_ONLY =
  /^\p{Lu}[\p{L}'’.-]*(?:(?:,\s*|\s+(?:and|e|und|et|y|en|и)\s+|\s+)\p{Lu}[\p{L}'’.-]*){0,3}\s*[,:!]$/u;

/** True for a sentence that only greets: a salutation of a few words, or names alone. */
export function isSalutation(sentence: string): boolean {
  const words = sentence.split(/\s+/).length;
  return words <= 6 && (NAMES_ONLY.test(sentence) || (GREETING.test(sentence) && !/[.?]$/.test(sentence)));
}

/** Sentences of a text after the salutations that open it. */
export function contentSentences(text: string): string[] {
  const all = sentences(text);
  const first = all.findIndex((s) => !isSalutation(s));
  return first < 0 ? [] : all.slice(first);
}

/** The text from its first line that is not a salutation (the whole text if all are). */
export function withoutSalutation(text: string): string {
  const lines = text.split('\n');
  const first = lines.findIndex((line) => line.trim() !== '' && !isSalutation(line.trim()));
  return first <= 0 ? text : lines.slice(first).join('\n');
}

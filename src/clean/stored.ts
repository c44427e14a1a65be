// What the store and the keyword index read of a cleaned body, apart from the cleaner itself:
// every search loads them, and the cleaner's rules (hundreds of phrases in 36 languages, compiled
// into expressions when its module loads) cost a CLI search ~30 ms it has no use for.
import type { CleanedBody } from '../core/types.js';

/** Bumped whenever a rule changes, so evaluations can tell which cleaner produced a result. */
export const CLEANER_VERSION = '4';

/** The authored text capped for indexing; the full text stays in the CleanedBody. */
export function authoredForIndex(cleaned: CleanedBody, maxChars = 20_000): string {
  const text = cleaned.authored;
  if (text.length <= maxChars) return text;
  let cut = text.lastIndexOf(' ', maxChars);
  if (cut < maxChars - 200) cut = maxChars;
  // Never split a surrogate pair.
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--;
  return text.slice(0, cut).trimEnd();
}

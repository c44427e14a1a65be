// Message-ID extraction that survives what real clients write: missing brackets, folded ids,
// comments, commas and junk between ids. Ids are case-sensitive on the left of '@' (RFC 5322
// 3.6.4), but domains are not, so only the part after the last '@' is lowercased.

import { LIMITS } from '../core/limits.js';
import { stripComments } from './comments.js';

function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/**
 * Normalizes one Message-ID: brackets and whitespace stripped, domain lowercased.
 * Returns null when nothing usable is left (empty, several bare words, control
 * characters, longer than LIMITS.maxMessageIdLength).
 */
export function normalizeMessageId(value: string | null): string | null {
  if (value === null) return null;
  const bracketed = /<([^<>]*)>/.exec(value);
  let id: string;
  if (bracketed?.[1] !== undefined && bracketed[1].trim() !== '') {
    // Folding may put whitespace inside the brackets; it is never part of the id.
    id = bracketed[1].replace(/\s+/g, '');
  } else {
    const words = stripComments(value)
      .replace(/[<>]/g, ' ')
      .split(/\s+/)
      .filter((word) => word !== '');
    // A single bare token is an id without brackets; several words are only one if one has '@'.
    const chosen = words.length === 1 ? words[0] : words.find((word) => word.includes('@'));
    if (chosen === undefined) return null;
    id = chosen;
  }
  if (id === '' || id.length > LIMITS.maxMessageIdLength || hasControlCharacter(id)) return null;
  const at = id.lastIndexOf('@');
  return at === -1 ? id : id.slice(0, at + 1) + id.slice(at + 1).toLowerCase();
}

/**
 * Extracts the ids of a References or In-Reply-To value, in order, deduplicated:
 * `<a@b>` forms, and bare `a@b` tokens between them; words without '@' outside brackets
 * are junk ("Re:", "message", dates of old clients) and dropped.
 */
export function parseMessageIdList(value: string): string[] {
  const ids: string[] = [];
  const seen = new Set<string>();
  const text = stripComments(value);
  const tokens = /<([^<>]*)>|([^\s<>,;]+)/g;
  for (let match = tokens.exec(text); match !== null; match = tokens.exec(text)) {
    const bracketed = match[1];
    const bare = match[2];
    const id =
      bracketed !== undefined
        ? normalizeMessageId(`<${bracketed}>`)
        : bare?.includes('@')
          ? normalizeMessageId(bare)
          : null;
    if (id !== null && !seen.has(id)) {
      seen.add(id);
      ids.push(id);
    }
  }
  return ids;
}

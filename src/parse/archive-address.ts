// Addresses as mailing-list archives print them. Mailman's pipermail (and MHonArc and
// hypermail configured to) rewrites every address as `user at host` to keep it from address
// harvesters, and pipermail's From: is then `jane at example.org (Jane Doe)`: an address
// parser sees a display name "jane at example.org", no address, and drops the comment that
// holds the real name. Read back, the message has its sender's address and name again, so
// `from:jane@example.org`, the sender's name and threading by participant work on an archive
// as on a mailbox.

import libmime from 'libmime';
import type { Address } from '../core/types.js';

/** `user at host.tld`: an addr-spec with its `@` spelled out, nothing else in the text. */
const OBSCURED = /^([^\s@<>()",;:[\]]+) at ((?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,63})$/i;

/** `jane@example.org` for `jane at example.org`; null for any other text. */
export function unobscure(text: string): string | null {
  const match = OBSCURED.exec(text.trim());
  return match ? `${match[1]}@${match[2]}`.toLowerCase() : null;
}

/**
 * The text of the last top-level comment of a header value (`(Jane Doe)`, nested parentheses
 * kept inside it), RFC 2047 words decoded; null without one.
 */
export function trailingComment(header: string): string | null {
  let depth = 0;
  let start = -1;
  let found: string | null = null;
  for (let i = 0; i < header.length; i++) {
    const char = header[i];
    if (char === '\\' && depth > 0) i++;
    else if (char === '(') {
      if (depth === 0) start = i + 1;
      depth++;
    } else if (char === ')' && depth > 0) {
      depth--;
      if (depth === 0) found = header.slice(start, i);
    }
  }
  if (found === null) return null;
  const text = libmime.decodeWords(found.replace(/\\(.)/g, '$1')).replace(/\s+/g, ' ').trim();
  return text === '' ? null : text;
}

/**
 * `address` as mailparser reads `jane at example.org (Jane Doe)`: the whole text as its name,
 * no address. Read back as the address, named by the comment of `header` (the text of a
 * header that holds this one address; a comment that is itself an obscured address names
 * nobody). Any other address is returned as it is; `"Jane" <jane at example.org>` has its
 * address read back where addresses are flattened (unobscure).
 */
export function readArchiveAddress(address: Address, header: string | null): Address {
  const spelled = address.address === '' ? unobscure(address.name) : null;
  if (spelled === null) return address;
  const comment = header === null ? null : trailingComment(header);
  const name = comment === null || unobscure(comment) !== null ? '' : comment;
  return { name, address: spelled };
}

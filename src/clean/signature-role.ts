// What a signature says about its writer besides how to reach them: role and organisation
// ("Account Manager, Kestrel Packaging Inc."), the context a passage of theirs is read in.
// Contact data (phones, street addresses, mail and web addresses), a sign-off and the name are
// left out.

import { isMobileSignature, SIGN_OFF, SIGNATURE_DELIMITER } from './patterns.js';

/** Contact data: anything with a digit (phones, street numbers, postcodes) or an address. */
const CONTACT_DATA = /\d|@|https?:|www\./i;
/** Separators cards put between role, organisation and address on one line. */
const CARD_SEPARATOR = /\s+[|·•]\s+/;
/** A role and an organisation fit; longer is a slogan or a postal address. */
const MAX_ROLE_CHARS = 80;

const fold = (s: string): string => s.toLocaleLowerCase().replace(/\s+/g, ' ').trim();

/** The role and organisation in `signature`, comma-separated; '' when it names neither. */
export function signatureRole(signature: string, name: string | null | undefined): string {
  const own = name ? fold(name) : null;
  const parts: string[] = [];
  for (const line of signature.split('\n')) {
    const text = line.trim();
    // A sign-off ("Thanks,", "Grazie") heads a signature when a name follows it: no role.
    if (text === '' || SIGNATURE_DELIMITER.test(text) || isMobileSignature(text) || SIGN_OFF.test(text))
      continue;
    for (const piece of text.split(CARD_SEPARATOR)) {
      const part = piece.trim().replace(/[,;]+$/, '');
      if (part === '' || CONTACT_DATA.test(part) || own?.includes(fold(part))) continue;
      parts.push(part);
    }
  }
  let role = '';
  for (const part of parts) {
    const next = role === '' ? part : `${role}, ${part}`;
    if (next.length > MAX_ROLE_CHARS) break;
    role = next;
  }
  return role;
}

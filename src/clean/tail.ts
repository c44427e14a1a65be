// Signatures, confidentiality disclaimers and unsubscribe footers at the end of each run of
// authored lines. Conservative by design: each detector needs a strong cue, and only the
// tail of a run is examined, so a false match can never eat the body of a message.
import type { SpanKind } from '../core/types.js';
import {
  CONTACT_LINE,
  DISCLAIMER,
  FOOTER,
  isMobileSignature,
  SIGN_OFF,
  SIGNATURE_DELIMITER,
} from './patterns.js';
import { type LineKinds, patternLine } from './quotes.js';

/** A footer paragraph also carries one of these: what a personal "please unsubscribe me" lacks. */
const BULK_CUE =
  /©|\||click|here|preferences|receiving|received this|privacy|browser|qui\b|hier\b|ici\b|aquí|aqui\b|здесь|subscribed|iscritto|abonniert|inscrit|suscrito|inscrito|geabonneerd|подписан/i;

/** Headings that open a disclaimer even when it is short. */
const DISCLAIMER_HEADING =
  /^(disclaimer|confidentiality notice|confidential|avviso di riservatezza|avvertenza|haftungsausschluss|vertraulichkeitshinweis|avertissement|aviso legal|aviso de confidencialidade|aviso|disclaimer:|уведомление о конфиденциальности)\b/i;

/** Most lines a `-- ` signature may span; longer tails are more likely content. */
const MAX_SIGNATURE_LINES = 20;
/**
 * A name as a card opens with it: one to four capitalised words ("Mike Dorsey", "Dr. Anna
 * Keller", "Ольга Смирнова"), optionally followed by credentials or a role after a comma or bar.
 */
const NAME_LINE = /^\p{Lu}[\p{L}'’.-]*(?:\s+\p{Lu}[\p{L}'’.-]*){0,3}(?:\s*[,|]\s*[^.!?]{1,60})?$/u;

/**
 * A name typed under a sign-off: one to four capitalised words, with the particles of family
 * names between them ("Pieter van der Berg"), or one to four short words of a script without
 * case ("李明", "이준호 드림", "ليلى حسن"). No sentence punctuation: "see you Monday" is prose.
 */
const SIGNED_NAME =
  /^(?:\p{Lu}[\p{L}\p{M}'’.-]{0,30}(?:(?:\s(?:van|von|der|den|de|da|di|du|del|la|le|dos|das|ter|ten|zu)){0,2}\s\p{Lu}[\p{L}\p{M}'’.-]{0,30}){0,3}|[\p{Lo}\p{M}]{1,12}(?:\s[\p{Lo}\p{M}]{1,12}){0,3})$/u;

/**
 * A line of a card under a name, without a contact cue: a role, a department, a company
 * ("Értékesítési asszisztens", "Dunamenti Kft.", "Prodaja | Jadran Opskrba d.o.o."). Short,
 * no question or exclamation, no sentence inside it, and a final stop only after an
 * abbreviation ("Kft.", "S.r.l."), so a last sentence under a name is never one.
 */
const CARD_PROSE = /[?!？！]|[.:;]\s+\p{Ll}\p{L}{2}|:$/u;
/** A final stop that ends an abbreviation: "Kft.", "Inc.", "S.r.l.", "Sp. z o.o.", a company form ("ehf.", "ltd."). */
const ABBREVIATION_END =
  /(?:^|\s)(?:\p{Lu}\p{L}{0,3}|[\p{L}.]{0,8}\.\p{L}{1,3}|ehf|hf|inc|ltd|llc|corp|co|oy|oyj|ab|as|asa|aps|bv|nv|kft|zrt|srl|spa|sa|ag|gmbh|kg|sas|sarl|doo|ad)\.$/u;

function isCardLine(line: string): boolean {
  if (line.length > 80 || line.split(/\s+/).length > 10 || CARD_PROSE.test(line)) return false;
  return !line.endsWith('.') || ABBREVIATION_END.test(line);
}

/** Most lines after a sign-off (or of a closing card) that may form a contact block. */
const MAX_CONTACT_LINES = 8;

interface Paragraph {
  readonly from: number;
  readonly to: number;
}

/** Paragraphs (line ranges, inclusive) of the non-blank lines from..to. */
function paragraphsOf(lines: readonly string[], from: number, to: number): Paragraph[] {
  const out: Paragraph[] = [];
  let start = -1;
  for (let i = from; i <= to + 1; i++) {
    const blank = i > to || (lines[i] as string).trim() === '';
    if (blank && start >= 0) {
      out.push({ from: start, to: i - 1 });
      start = -1;
    } else if (!blank && start < 0) start = i;
  }
  return out;
}

function textOf(lines: readonly string[], p: Paragraph): string {
  return lines.slice(p.from, p.to + 1).join(' ');
}

function mark(kinds: LineKinds, lines: readonly string[], from: number, to: number, kind: SpanKind): void {
  for (let i = from; i <= to; i++) if ((lines[i] as string).trim() !== '') kinds[i] = kind;
}

/** First footer paragraph among the last few, when everything after it is short. */
function footerStart(lines: readonly string[], paragraphs: readonly Paragraph[]): number {
  const first = Math.max(1, paragraphs.length - 8);
  for (let p = first; p < paragraphs.length; p++) {
    const text = textOf(lines, paragraphs[p] as Paragraph);
    if (text.length > 600 || !FOOTER.test(text) || !BULK_CUE.test(text)) continue;
    if (paragraphs.slice(p + 1).every((q) => textOf(lines, q).length <= 600)) return p;
  }
  return -1;
}

/** Longest paragraph read as a disclaimer; real ones stay well under this. */
const MAX_DISCLAIMER_CHARS = 4_000;

function isDisclaimer(text: string): boolean {
  if (text.length > MAX_DISCLAIMER_CHARS || !DISCLAIMER.test(text)) return false;
  return DISCLAIMER_HEADING.test(text) || text.split(/\s+/).length >= 20;
}

/**
 * Where the signature of lines from..to starts, or -1. `signsEarlier`: authored text comes
 * before the run (an inline reply's last answer), so a sign-off may open the run itself.
 */
function signatureStart(lines: readonly string[], from: number, to: number, signsEarlier: boolean): number {
  const nonBlank: number[] = [];
  for (let i = from; i <= to; i++) if ((lines[i] as string).trim() !== '') nonBlank.push(i);
  const last = nonBlank[nonBlank.length - 1];
  if (last === undefined) return -1;
  if (isMobileSignature(patternLine(lines[last] as string))) {
    const before = signatureStart(lines, from, last - 1, signsEarlier);
    return before >= 0 ? before : last;
  }
  for (let k = nonBlank.length - 1; k >= Math.max(0, nonBlank.length - 1 - MAX_SIGNATURE_LINES); k--) {
    const i = nonBlank[k] as number;
    if (!SIGNATURE_DELIMITER.test(lines[i] as string)) continue;
    // A sign-off and the name typed above the delimiter sign the message too.
    const signed = signOffStart(lines, nonBlank.slice(0, k), signsEarlier);
    return signed >= 0 ? signed : i;
  }
  const signed = signOffStart(lines, nonBlank, signsEarlier);
  return signed >= 0 ? signed : closingCardStart(lines, nonBlank);
}

/**
 * Where a sign-off over a name or a card starts, or -1: a short block of name and contact
 * lines with at least one real contact cue (the card starts the signature, and joinSignOffs
 * adds the sign-off), or a hand-typed name, alone or over a short card (the sign-off starts it).
 */
function signOffStart(lines: readonly string[], nonBlank: readonly number[], signsEarlier: boolean): number {
  const first = signsEarlier ? 0 : 1;
  for (let k = nonBlank.length - 2; k >= Math.max(first, nonBlank.length - 1 - MAX_CONTACT_LINES); k--) {
    if (!SIGN_OFF.test(patternLine(lines[nonBlank[k] as number] as string))) continue;
    const block = nonBlank.slice(k + 1).map((i) => patternLine(lines[i] as string));
    if (isContactBlock(block)) return nonBlank[k + 1] as number;
    return isNameBlock(block) ? (nonBlank[k] as number) : -1;
  }
  return -1;
}

/** A hand-typed name, alone or over a short card: what a sign-off signs ("Groet,\nPieter"). */
function isNameBlock(block: readonly string[]): boolean {
  const [name, ...rest] = block;
  if (name === undefined || !SIGNED_NAME.test(name) || SIGN_OFF.test(name) || rest.length > 4) return false;
  return rest.every((t) => (t.length <= 80 && CONTACT_LINE.test(t)) || isCardLine(t));
}

/** Short lines only, at least one with a real contact cue (phone, web, address, job title). */
function isContactBlock(block: readonly string[]): boolean {
  return block.every((t) => t.length > 0 && t.length <= 80) && block.some((t) => CONTACT_LINE.test(t));
}

/**
 * Where a closing card without a sign-off starts, or -1: the signature mail clients append on
 * their own ("Mike Dorsey / Account Manager / Kestrel Packaging Inc. / (937) 555-0144"). It is
 * the run's last paragraph, after text it signs, opens with a name and holds a contact cue
 * below it: a closing paragraph of prose, or a name alone, stays authored.
 */
function closingCardStart(lines: readonly string[], nonBlank: readonly number[]): number {
  let k = nonBlank.length - 1;
  while (k > 0 && nonBlank[k - 1] === (nonBlank[k] as number) - 1) k--;
  if (k === 0 || nonBlank.length - k > MAX_CONTACT_LINES) return -1;
  const [name, ...rest] = nonBlank.slice(k).map((i) => patternLine(lines[i] as string));
  return name !== undefined && NAME_LINE.test(name) && rest.length > 0 && isContactBlock(rest)
    ? (nonBlank[k] as number)
    : -1;
}

/** Marks signature / disclaimer / footer lines at the tail of the authored run from..to. */
function splitRunTail(
  lines: readonly string[],
  kinds: LineKinds,
  from: number,
  to: number,
  afterHistory: boolean,
  signsEarlier: boolean,
): void {
  const paragraphs = paragraphsOf(lines, from, to);
  let end = paragraphs.length;
  const footer = footerStart(lines, paragraphs);
  if (footer >= 0) {
    mark(kinds, lines, (paragraphs[footer] as Paragraph).from, to, 'footer');
    end = footer;
  }
  while (end > (afterHistory ? 0 : 1) && isDisclaimer(textOf(lines, paragraphs[end - 1] as Paragraph))) {
    const p = paragraphs[end - 1] as Paragraph;
    mark(kinds, lines, p.from, p.to, 'disclaimer');
    end--;
  }
  if (end === 0) return;
  const lastLine = (paragraphs[end - 1] as Paragraph).to;
  const signature = signatureStart(lines, from, lastLine, signsEarlier);
  if (signature >= 0) mark(kinds, lines, signature, lastLine, 'signature');
}

/**
 * A closing formula goes with the card it introduces ("Best regards," over a name, title and
 * phone), whichever detector or HTML container found the card; before a bare name, a mobile
 * line, a mailing list's footer after a `-- ` or nothing at all it stays the author's words.
 */
function joinSignOffs(lines: readonly string[], kinds: LineKinds): void {
  let previous = -1;
  for (let i = 0; i < kinds.length; i++) {
    if (kinds[i] === null) continue;
    const opensSignature = kinds[i] === 'signature' && previous >= 0 && kinds[previous] === 'authored';
    if (opensSignature && SIGN_OFF.test(patternLine(lines[previous] as string))) {
      const card: string[] = [];
      for (let j = i; j < kinds.length && card.length < MAX_CONTACT_LINES; j++) {
        if (kinds[j] === 'signature') card.push(patternLine(lines[j] as string));
        else if (kinds[j] !== null) break;
      }
      const signs = isContactBlock(card) || isNameBlock(card);
      if (signs && !card.some((line) => FOOTER.test(line))) kinds[previous] = 'signature';
    }
    previous = i;
  }
}

/** Applies the tail detectors to every maximal run of authored lines. */
export function splitTails(lines: readonly string[], kinds: LineKinds): void {
  let runFrom = -1;
  let runTo = -1;
  let seenOther = false;
  let runAfterOther = false;
  let authoredBefore = false;
  const close = (): void => {
    if (runFrom < 0) return;
    splitRunTail(lines, kinds, runFrom, runTo, runAfterOther, authoredBefore);
    authoredBefore = true;
    runFrom = -1;
  };
  kinds.forEach((kind, i) => {
    if (kind === null) return;
    if (kind !== 'authored') {
      close();
      seenOther = true;
      return;
    }
    if (runFrom < 0) {
      runFrom = i;
      runAfterOther = seenOther;
    }
    runTo = i;
  });
  close();
  joinSignOffs(lines, kinds);
}

// Turns a stored message into the pre-analysed column texts of the keyword index, and
// the text each field's highlights are cut from (the same text, so offsets agree).

import {
  detectLanguage,
  hasAsciiDigit,
  identifierAnalyzer,
  type Language,
  settledLanguageOf,
  type TermToken,
  textAnalyzer,
} from '../analysis/index.js';
import { authoredForIndex } from '../clean/stored.js';
import { nodeCrypto } from '../core/node-crypto.js';
import type { Address, AuthVerdicts } from '../core/types.js';
import type { StoredMessage } from '../store/index.js';
import { BULK_KIND, type Column } from './schema.js';

/** Attachment text indexed per message: enough for invoices and contracts, bounded for manuals. */
export const ATTACHMENT_INDEX_CHARS = 20_000;

/**
 * Each attachment's name, the headers of an attached message, and the extracted text when
 * extraction succeeded, in attachment order and capped as a whole: the parts the attachments
 * field joins, one per line.
 */
function attachmentParts(attachments: IndexableMessage['attachments']): string[] {
  const parts: string[] = [];
  let size = 0;
  for (const attachment of attachments) {
    const extraction = attachment.extraction;
    const nested = extraction?.message;
    for (const part of [
      attachment.filename,
      nested?.subject,
      nested?.from ? formatAddress(nested.from) : null,
      extraction?.status === 'ok' ? extraction.text : null,
    ]) {
      if (!part || size >= ATTACHMENT_INDEX_CHARS) continue;
      const kept = part.slice(0, ATTACHMENT_INDEX_CHARS - size);
      parts.push(kept);
      size += kept.length + 1;
    }
  }
  return parts;
}

/** Shortest word kept for typo candidates: a 4-letter query word may be one deletion away. */
const MIN_FUZZY_WORD = 3;

/** Quoted history is a low-weight fallback; its first part carries nearly all its value. */
const QUOTED_INDEX_CHARS = 2_000;

/** What the keyword index reads of a message: available before it is stored, too. */
export type IndexableMessage = Pick<
  StoredMessage,
  'from' | 'to' | 'cc' | 'bcc' | 'subject' | 'cleaned' | 'attachments' | 'auth' | 'listId'
>;

/** The original text behind each highlightable field. */
export interface FieldTexts {
  readonly from: string;
  readonly recipients: string;
  readonly subject: string;
  /** Authored text followed by forwarded blocks: what the sender sent. */
  readonly text: string;
  readonly attachments: string;
  readonly quoted: string;
}

export interface IndexedDocument {
  readonly columns: Readonly<Record<Column, string>>;
  /** Distinct plain words of the text fields: the vocabulary typo tolerance draws on. */
  readonly words: ReadonlySet<string>;
  readonly language: Language | null;
  readonly untrusted: boolean;
  /** Mailing-list mail: newsletters, GitHub and Jira notifications (the parser's List-Id). */
  readonly bulk: boolean;
  readonly checksum: string;
}

export function formatAddress(address: Address): string {
  if (!address.name) return address.address;
  return address.address ? `${address.name} <${address.address}>` : address.name;
}

/** Forwarded blocks (sender, subject, text): a copy of someone else's message, not the forwarder's words. */
function forwardedText(cleaned: IndexableMessage['cleaned']): string {
  return cleaned.forwarded
    .map((block) =>
      [block.from, block.subject, block.text].filter((part): part is string => !!part).join('\n'),
    )
    .join('\n\n');
}

export function fieldTexts(message: IndexableMessage): FieldTexts {
  const cleaned = message.cleaned;
  return {
    from: message.from ? formatAddress(message.from) : '',
    recipients: [...message.to, ...message.cc, ...message.bcc].map(formatAddress).join(', '),
    subject: message.subject,
    text: [authoredForIndex(cleaned), forwardedText(cleaned)].filter(Boolean).join('\n\n'),
    attachments: attachmentParts(message.attachments).join('\n'),
    quoted: cleaned.quoted.slice(0, QUOTED_INDEX_CHARS),
  };
}

/**
 * Unauthenticated per the stored Authentication-Results: DMARC failed, or SPF and DKIM
 * both failed (SPF softfail counts as failed: the domain says the host is not its own).
 */
export function isUntrusted(auth: AuthVerdicts): boolean {
  if (auth.dmarc === 'fail') return true;
  const spfFailed = auth.spf === 'fail' || auth.spf === 'softfail';
  return spfFailed && auth.dkim === 'fail';
}

/**
 * The language a message's text fields are stemmed in. `authored` is the start of `texts.text`
 * (what follows is forwarded): when it settles its language alone, it decides, since the index
 * weighs the author's words above a forward's. Detected over the whole text, an English reply
 * above a longer forwarded Italian thread was stemmed in Italian.
 */
export function messageLanguage(texts: FieldTexts, authored: string): Language | null {
  const own = authored.length < texts.text.length ? settledLanguageOf(authored) : null;
  return own ?? detectLanguage(texts.text || texts.subject);
}

/**
 * The part of a document that does not depend on attachment text: the prepare worker
 * analyses it before extraction, and the write side adds the attachments' share.
 */
export interface BodyAnalysis {
  readonly columns: Readonly<Record<Exclude<Column, 'text_attachments'>, string>>;
  readonly words: readonly string[];
  readonly language: Language | null;
  readonly untrusted: boolean;
  readonly bulk: boolean;
}

/**
 * `known`, when given, is the language detection gave this message before (its text fields
 * never change once stored): detecting it again cost as much as the rest of the analysis.
 */
export function analyseBody(
  message: Omit<IndexableMessage, 'attachments'>,
  known?: Language | null,
): BodyAnalysis {
  const texts = fieldTexts({ ...message, attachments: [] });
  const authoredText = authoredForIndex(message.cleaned);
  const language = known === undefined ? messageLanguage(texts, authoredText) : known;
  const ident = identifierAnalyzer();
  const analyzer = textAnalyzer(language);
  // The `text` highlight field shows both; the index weighs a forwarded copy below the
  // forwarder's own words, so the original message outranks its forwards.
  const authored = textTerms(analyzer.terms(authoredText, 'document'));
  const forwarded = textTerms(analyzer.terms(forwardedText(message.cleaned), 'document'));
  return {
    columns: {
      ident_from: terms(ident.terms(texts.from, 'document')),
      ident_recipients: terms(ident.terms(texts.recipients, 'document')),
      ident_subject: terms(ident.terms(texts.subject, 'document')),
      text_authored: authored.exact,
      text_forwarded: forwarded.exact,
      text_stems: joinTerms(authored.stems, forwarded.stems),
      text_quoted: terms(textAnalyzer(null).terms(texts.quoted, 'document')),
      kind: message.listId !== null ? BULK_KIND : '',
    },
    words: [...authored.words, ...forwarded.words],
    language,
    untrusted: isUntrusted(message.auth),
    bulk: message.listId !== null,
  };
}

/** A text field's terms as the columns take them: exact terms, stems and typo words. */
interface TextTerms {
  readonly exact: string;
  readonly stems: string;
  readonly words: readonly string[];
}

/**
 * Analysed pieces of attachment text by language and text, least recently used first. When
 * an attachment's text is extracted its carriers are re-indexed one after another, each under
 * its own file name and in its own message's language: 540 carriers of 118 attachments at 5k
 * generated messages were 235 distinct texts and languages, analysed once each instead of once
 * per carrier. Bounded in characters: a few texts at ATTACHMENT_INDEX_CHARS in each of the
 * languages one attachment's carriers are written in.
 */
const analysedPieces = new Map<string, TextTerms>();
let analysedChars = 0;
const ANALYSED_PIECES_CHARS = 256 * 1024;

function analysedPiece(piece: string, language: Language | null): TextTerms {
  const key = `${language}\u0000${piece}`;
  let terms = analysedPieces.get(key);
  if (terms !== undefined) {
    analysedPieces.delete(key);
  } else {
    terms = textTerms(textAnalyzer(language).terms(piece, 'document'));
    analysedChars += key.length;
    for (const [oldest] of analysedPieces) {
      if (analysedChars <= ANALYSED_PIECES_CHARS) break;
      analysedPieces.delete(oldest);
      analysedChars -= oldest.length;
    }
  }
  analysedPieces.set(key, terms);
  return terms;
}

/**
 * A text cut at ATTACHMENT_INDEX_CHARS ends at another place in each carrier, as the cap
 * counts the carrier's file names too (222 of those 540 carriers). Split at the last space or
 * line break before the last multiple of this many characters, its head is the same in each
 * carrier and analysed once; the tail analysed per carrier is about this long.
 */
const SHARED_HEAD_STEP = 1024;

/** A part as a shared head and its tail, or whole when it is shorter than SHARED_HEAD_STEP. */
function pieces(part: string): string[] {
  const end = part.length - (part.length % SHARED_HEAD_STEP) - 1;
  const split = Math.max(part.lastIndexOf(' ', end), part.lastIndexOf('\n', end));
  return split > 0 ? [part.slice(0, split), part.slice(split + 1)] : [part];
}

/**
 * The attachments' share of a document. Its parts, and their pieces, analysed one by one give
 * the terms of the text joined: no token spans a space or a line break, and a run ties to the
 * one before only across a single joiner (`.@-_`), so none ties across either.
 */
function attachmentShare(parts: readonly string[], language: Language | null): TextTerms {
  const exact: string[] = [];
  const stems: string[] = [];
  const words: string[] = [];
  for (const piece of parts.flatMap(pieces)) {
    const terms = analysedPiece(piece, language);
    if (terms.exact) exact.push(terms.exact);
    if (terms.stems) stems.push(terms.stems);
    for (const word of terms.words) words.push(word);
  }
  return { exact: exact.join(' '), stems: stems.join(' '), words };
}

/** Completes a body analysis with the message's attachments (names and extracted text). */
export function completeDocument(
  body: BodyAnalysis,
  attachments: IndexableMessage['attachments'],
): IndexedDocument {
  const share = attachmentShare(attachmentParts(attachments), body.language);
  const own = body.columns;
  // Key order is the index's column order: the checksum hashes the values in it.
  const columns: Record<Column, string> = {
    ident_from: own.ident_from,
    ident_recipients: own.ident_recipients,
    ident_subject: own.ident_subject,
    text_authored: own.text_authored,
    text_forwarded: own.text_forwarded,
    text_stems: joinTerms(own.text_stems, share.stems),
    text_attachments: share.exact,
    text_quoted: own.text_quoted,
    kind: own.kind,
  };
  const hash = nodeCrypto().createHash('sha256');
  for (const value of Object.values(columns)) hash.update(value).update('\u0000');
  const words = new Set(body.words);
  for (const word of share.words) words.add(word);
  return {
    columns,
    words,
    language: body.language,
    untrusted: body.untrusted,
    bulk: body.bulk,
    checksum: hash.digest('base64url').slice(0, 22),
  };
}

export function analyseDocument(message: IndexableMessage, known?: Language | null): IndexedDocument {
  return completeDocument(analyseBody(message, known), message.attachments);
}

/** Splits a text field's tokens in one pass: ~900 per message, each read once. */
function textTerms(tokens: readonly TermToken[]): TextTerms {
  const exact: string[] = [];
  const stems: string[] = [];
  const words: string[] = [];
  for (const { term, kind } of tokens) {
    if (kind === 'stem') {
      stems.push(term);
      continue;
    }
    exact.push(term);
    if (kind === 'word' && term.length >= MIN_FUZZY_WORD && !hasAsciiDigit(term)) words.push(term);
  }
  return { exact: exact.join(' '), stems: stems.join(' '), words };
}

const joinTerms = (a: string, b: string): string => (a && b ? `${a} ${b}` : a || b);

const terms = (tokens: readonly TermToken[]): string => tokens.map((token) => token.term).join(' ');

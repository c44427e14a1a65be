// Reading a dictd dictionary (the format FreeDict's Debian packages ship): an `.index` file of
// `headword TAB offset TAB length` lines, offsets and lengths in dictd's base64 digits, into
// a `.dict` file, or a `.dict.dz` (dictzip: a gzip member with random-access notes in its
// extra field, which plain gunzip reads whole). FreeDict writes an entry as its headword
// line (`abattre /abatʀ/ <v>`), then one line of comma-separated translations per sense
// (`1. butcher, slaughter`), then indented notes, synonyms and cross-references.

import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { MailsiftError } from '../../core/errors.js';

export interface DictdEntry {
  /** The headword as the entry's first line gives it, without pronunciation or part of speech. */
  readonly headword: string;
  /** Translations per sense, senses in the dictionary's order, each list in its order. */
  readonly senses: readonly (readonly string[])[];
}

const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** A dictd index number ("D1J" → 15689); -1 for a character outside dictd's digits. */
export function dictdNumber(text: string): number {
  let n = 0;
  for (const ch of text) {
    const digit = DIGITS.indexOf(ch);
    if (digit < 0) return -1;
    n = n * 64 + digit;
  }
  return text === '' ? -1 : n;
}

/**
 * The entries of a dictd dictionary, in index order, each once (the index may list one
 * entry under several keys) and without dictd's own `00database…` entries.
 * Throws a bad_format MailsiftError naming the file for an index line or offset that is wrong.
 */
export function readDictd(
  indexPath: string,
  dictPath: string,
  parse: (text: string) => DictdEntry | null = parseEntry,
): DictdEntry[] {
  const index = readText(indexPath);
  const raw = read(dictPath);
  let data: Buffer;
  try {
    data = dictPath.endsWith('.dz') || dictPath.endsWith('.gz') ? gunzipSync(raw) : raw;
  } catch (error) {
    throw new MailsiftError('bad_format', `${dictPath} is not a dictzip (gzip) file`, {
      param: dictPath,
      cause: error,
    });
  }
  const seen = new Set<number>();
  const entries: DictdEntry[] = [];
  const lines = index.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line === '') continue;
    const [key, offsetText, lengthText] = line.split('\t');
    const offset = dictdNumber(offsetText ?? '');
    const length = dictdNumber(lengthText ?? '');
    if (offset < 0 || length < 0 || offset + length > data.length)
      throw new MailsiftError(
        'bad_format',
        `${indexPath} line ${i + 1} is not "headword TAB offset TAB length" within ${dictPath}`,
        { param: indexPath },
      );
    if (key?.startsWith('00database') || key?.startsWith('00-database') || seen.has(offset)) continue;
    seen.add(offset);
    const entry = parse(data.subarray(offset, offset + length).toString('utf8'));
    if (entry) entries.push(entry);
  }
  return entries;
}

/** One FreeDict entry's text → headword and senses; null when it has no translation. */
export function parseEntry(text: string): DictdEntry | null {
  const lines = text.split('\n');
  const first = lines.findIndex((l) => l.trim() !== '');
  if (first < 0) return null;
  const headword = (lines[first] as string)
    .replace(/\s+<[^>]*>\s*$/, '')
    .replace(/\s+\/[^/]*\/\s*$/, '')
    .trim();
  const senses: string[][] = [];
  for (const line of lines.slice(first + 1)) {
    // Indented lines are notes, synonyms, examples and "see:" references, not translations.
    if (line.trim() === '' || /^\s/.test(line)) continue;
    const words = line
      .replace(/^\d+\.\s*/, '')
      .replace(/\[[^\]]*\]|<[^>]*>|\([^)]*\)|\{[^}]*\}/g, ' ')
      .split(/[,;]/)
      .map((t) => t.replace(/\s+/g, ' ').trim())
      .filter((t) => t !== '');
    if (words.length > 0) senses.push(words);
  }
  return headword === '' || senses.length === 0 ? null : { headword, senses };
}

/**
 * One entry of Mueller's English-Russian dictionary (Debian's mueller7-dict, dictd format)
 * → headword and senses. Its senses are numbered `1)` within parts of speech `1. _n.`; a
 * sense gives its Russian words first, separated by `,` and `;`, then English phrases with
 * theirs (`1) ошибка, заблуждение; to make an error совершить ошибку`): only the words
 * before the first Latin letter are its translations. Labels (`_тех.`), pronunciation and
 * parenthesised remarks are dropped.
 */
export function parseMuellerEntry(text: string): DictdEntry | null {
  const newline = text.indexOf('\n');
  if (newline < 0) return null;
  const headword = text.slice(0, newline).trim();
  const body = text
    .slice(newline + 1)
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\([^)]*\)/g, ' ')
    .replace(/_[^\s.;,]+\.?/g, ' ');
  const senses: string[][] = [];
  for (const chunk of body.split(/(?:^|\s)(?:\d+[).]|[а-я]\))\s/u)) {
    const latin = chunk.search(/[A-Za-z]/);
    const words = (latin < 0 ? chunk : chunk.slice(0, latin))
      .split(/[;,]/)
      .map((t) => t.replace(/\s+/g, ' ').trim())
      .filter((t) => /^[\p{Script=Cyrillic}-]+(?: [\p{Script=Cyrillic}-]+){0,2}$/u.test(t));
    if (words.length > 0) senses.push(words);
  }
  return headword === '' || senses.length === 0 ? null : { headword, senses };
}

function read(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new MailsiftError(
      code === 'ENOENT' ? 'not_found' : 'unreadable',
      `cannot read the dictionary file ${path}`,
      {
        param: path,
        cause: error,
      },
    );
  }
}

function readText(path: string): string {
  return read(path).toString('utf8');
}

// Content-type sniffing: magic bytes first, then the filename extension, then the declared
// type. Mail clients label attachments application/octet-stream or guess from the name,
// so the declared type is the last thing to trust.
import type { AttachmentFormat } from './types.js';
import { inflateEntry, isZip, readZipDirectory } from './zip-reader.js';

export interface SniffedType {
  contentType: string;
  format: AttachmentFormat;
}

const MIME: Record<Exclude<AttachmentFormat, 'image' | 'other'>, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odp: 'application/vnd.oasis.opendocument.presentation',
  rtf: 'application/rtf',
  html: 'text/html',
  text: 'text/plain',
  csv: 'text/csv',
  markdown: 'text/markdown',
  ics: 'text/calendar',
  vcard: 'text/vcard',
  message: 'message/rfc822',
  zip: 'application/zip',
  tnef: 'application/vnd.ms-tnef',
};

const EXTENSIONS: Record<string, AttachmentFormat> = {
  pdf: 'pdf',
  docx: 'docx',
  docm: 'docx',
  xlsx: 'xlsx',
  xlsm: 'xlsx',
  pptx: 'pptx',
  pptm: 'pptx',
  ppsx: 'pptx',
  odt: 'odt',
  ods: 'ods',
  odp: 'odp',
  rtf: 'rtf',
  html: 'html',
  htm: 'html',
  xhtml: 'html',
  txt: 'text',
  text: 'text',
  log: 'text',
  csv: 'csv',
  tsv: 'csv',
  md: 'markdown',
  markdown: 'markdown',
  ics: 'ics',
  ifb: 'ics',
  vcf: 'vcard',
  vcard: 'vcard',
  eml: 'message',
  zip: 'zip',
  png: 'image',
  jpg: 'image',
  jpeg: 'image',
  gif: 'image',
  tif: 'image',
  tiff: 'image',
  webp: 'image',
  heic: 'image',
  bmp: 'image',
};

const DECLARED: Record<string, AttachmentFormat> = {
  'application/x-pdf': 'pdf',
  'application/vnd.ms-word.document.macroenabled.12': 'docx',
  'application/vnd.ms-excel.sheet.macroenabled.12': 'xlsx',
  'application/vnd.ms-powerpoint.presentation.macroenabled.12': 'pptx',
  'text/rtf': 'rtf',
  'application/xhtml+xml': 'html',
  'text/tab-separated-values': 'csv',
  'text/x-markdown': 'markdown',
  'application/ics': 'ics',
  'text/x-vcard': 'vcard',
  'text/directory': 'vcard',
  'message/global': 'message',
  'application/x-zip-compressed': 'zip',
  'application/ms-tnef': 'tnef',
};
for (const [format, mime] of Object.entries(MIME)) DECLARED[mime] = format as AttachmentFormat;

const IMAGE_MAGIC: [string, number[]][] = [
  ['image/png', [0x89, 0x50, 0x4e, 0x47]],
  ['image/jpeg', [0xff, 0xd8, 0xff]],
  ['image/gif', [0x47, 0x49, 0x46, 0x38]],
  ['image/tiff', [0x49, 0x49, 0x2a, 0x00]],
  ['image/tiff', [0x4d, 0x4d, 0x00, 0x2a]],
];

const startsWith = (b: Buffer, bytes: number[], at = 0): boolean => bytes.every((v, i) => b[at + i] === v);

/** OLE compound file: legacy .doc/.xls/.msg, and the container of password-protected OOXML. */
export const isCompoundFile = (b: Buffer): boolean =>
  startsWith(b, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/** TNEF signature 0x223E9F78, little-endian (MS-OXTNEF 2.1.3.1). */
export const isTnef = (b: Buffer): boolean => b.length >= 6 && b.readUInt32LE(0) === 0x223e9f78;

function fromMagic(b: Buffer): SniffedType | null {
  const head = b.subarray(0, 1024).toString('latin1');
  if (isZip(b)) return fromZip(b);
  if (isTnef(b)) return known('tnef');
  if (isCompoundFile(b)) return { contentType: 'application/x-ole-storage', format: 'other' };
  for (const [contentType, magic] of IMAGE_MAGIC)
    if (startsWith(b, magic)) return { contentType, format: 'image' };
  if (head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP')
    return { contentType: 'image/webp', format: 'image' };
  // Acrobat accepts junk before the header within the first 1 KB, so senders' PDFs may have
  // it; checked after the fixed-offset signatures, as containers may hold a PDF that early.
  if (head.includes('%PDF-')) return known('pdf');
  const text = head.replace(/^(?:\xEF\xBB\xBF)?\s*/, '');
  if (text.startsWith('{\\rtf')) return known('rtf');
  if (/^BEGIN:VCALENDAR/i.test(text)) return known('ics');
  if (/^BEGIN:VCARD/i.test(text)) return known('vcard');
  if (/^(<!doctype html|<html[\s>])/i.test(text)) return known('html');
  // Header names only a mail message starts with (a text file may begin "From:" or "Subject:").
  if (/^(Return-Path|Received|Delivered-To|Message-ID|MIME-Version|DKIM-Signature|X-[\w-]+):/i.test(text)) {
    if (/\r?\n\r?\n/.test(b.subarray(0, 64 * 1024).toString('latin1'))) return known('message');
  }
  return null;
}

const OPENDOCUMENT: Record<string, 'odt' | 'ods' | 'odp'> = {
  'application/vnd.oasis.opendocument.text': 'odt',
  'application/vnd.oasis.opendocument.text-template': 'odt',
  'application/vnd.oasis.opendocument.spreadsheet': 'ods',
  'application/vnd.oasis.opendocument.spreadsheet-template': 'ods',
  'application/vnd.oasis.opendocument.presentation': 'odp',
  'application/vnd.oasis.opendocument.presentation-template': 'odp',
};

/** Office packages are zips: their main part (OOXML) or `mimetype` entry (ODF) tells them apart. */
function fromZip(b: Buffer): SniffedType {
  try {
    const { entries } = readZipDirectory(b, 20_000);
    const names = new Set(entries.map((e) => e.name));
    if (names.has('[Content_Types].xml')) {
      if (names.has('word/document.xml')) return known('docx');
      if (names.has('xl/workbook.xml')) return known('xlsx');
      if (names.has('ppt/presentation.xml')) return known('pptx');
    }
    const mimetype = entries.find((e) => e.name === 'mimetype');
    if (mimetype && mimetype.size < 200) {
      const declared = inflateEntry(b, mimetype).toString('latin1').trim();
      const format = OPENDOCUMENT[declared];
      if (format) return known(format);
    }
  } catch {
    // A corrupt directory is still a zip; the zip handler reports what is wrong with it.
  }
  return known('zip');
}

function known(format: Exclude<AttachmentFormat, 'image' | 'other'>): SniffedType {
  return { contentType: MIME[format], format };
}

function fromFormat(format: AttachmentFormat, fallbackType: string): SniffedType {
  if (format === 'image' || format === 'other') return { contentType: fallbackType, format };
  return known(format);
}

/** Lowercased media type without parameters. */
export const mediaType = (declared: string): string => (declared.split(';')[0] ?? '').trim().toLowerCase();

const TEXT_FORMATS = new Set<AttachmentFormat>([
  'text',
  'csv',
  'markdown',
  'html',
  'ics',
  'vcard',
  'rtf',
  'message',
]);

/**
 * UTF-16 with a BOM, or no C0 control bytes besides tab, newlines, form feed and escape in
 * the first 8 KB. Bytes from 0x80 up are allowed: legacy 8-bit charsets use all of them.
 */
function looksLikeText(b: Buffer): boolean {
  if (startsWith(b, [0xff, 0xfe]) || startsWith(b, [0xfe, 0xff])) return true;
  for (const c of b.subarray(0, 8192)) {
    if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c && c !== 0x1b) return false;
  }
  return true;
}

export function sniffType(content: Buffer, declared: string, filename: string | null): SniffedType {
  const magic = fromMagic(content);
  if (magic) return magic;
  const declaredType = mediaType(declared);
  if (filename?.toLowerCase() === 'winmail.dat') return known('tnef');
  const extension = filename?.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1];
  const byName = extension === undefined ? undefined : EXTENSIONS[extension];
  const byDeclared = DECLARED[declaredType] ?? (declaredType.startsWith('image/') ? 'image' : undefined);
  const claimed = byName ?? byDeclared;
  if (claimed !== undefined) {
    // A binary file is not what a text label says (a .txt of random bytes is 'other').
    if (!TEXT_FORMATS.has(claimed) || looksLikeText(content)) return fromFormat(claimed, declaredType);
    return { contentType: 'application/octet-stream', format: 'other' };
  }
  if (content.length > 0 && looksLikeText(content)) return known('text');
  return { contentType: declaredType || 'application/octet-stream', format: 'other' };
}

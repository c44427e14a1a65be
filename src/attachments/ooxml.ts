// Office Open XML text: DOCX through mammoth, XLSX cell values by sheet, PPTX slide text in
// presentation order. Parts are read through openPackage, so zip limits apply to each part.
import mammoth from 'mammoth';
import type { ExtractContext, FormatResult } from './types.js';
import { SkipExtraction } from './types.js';
import { readRelationships, tidy, walkXml } from './xml-text.js';
import { openPackage, readZipDirectory, refuseEntry, type ZipPackage } from './zip-reader.js';

export async function extractDocx(content: Buffer, context: ExtractContext): Promise<FormatResult> {
  // mammoth inflates every part itself, so the directory is checked against the zip limits first.
  let declared = 0;
  for (const entry of readZipDirectory(content, 20_000).entries) {
    const refusal = refuseEntry(entry, context.limits, declared);
    if (refusal) throw new SkipExtraction(refusal);
    declared += entry.size;
  }
  const result = await mammoth.extractRawText({ buffer: content });
  return { text: tidy(result.value) };
}

function required(pkg: ZipPackage, name: string): string {
  const xml = pkg.text(name);
  if (xml === null) throw new Error(`missing part ${name}`);
  return xml;
}

/** Shared strings: one per <si>, the text of its runs; phonetic runs (<rPh>) are readings, not content. */
function sharedStrings(xml: string | null): string[] {
  const strings: string[] = [];
  if (xml === null) return strings;
  let current = '';
  let inText = 0;
  let inPhonetic = 0;
  walkXml(xml, {
    open(name) {
      if (name === 'si') current = '';
      else if (name === 't') inText++;
      else if (name === 'rPh') inPhonetic++;
    },
    close(name) {
      if (name === 'si') strings.push(current);
      else if (name === 't') inText--;
      else if (name === 'rPh') inPhonetic--;
    },
    text(text) {
      if (inText > 0 && inPhonetic === 0) current += text;
    },
  });
  return strings;
}

/** One sheet as tab-separated rows; shared-string cells resolved, formulas shown by their cached value. */
function sheetText(xml: string, strings: readonly string[]): string {
  const rows: string[] = [];
  let cells: string[] = [];
  let cellType = '';
  let value = '';
  let capture = false;
  walkXml(xml, {
    open(name, attributes) {
      if (name === 'row') cells = [];
      else if (name === 'c') {
        cellType = attributes.t ?? '';
        value = '';
      } else if (name === 'v' || name === 't') capture = true;
    },
    close(name) {
      if (name === 'v' || name === 't') capture = false;
      else if (name === 'c') {
        const text = cellType === 's' ? (strings[Number(value)] ?? '') : value;
        if (text !== '') cells.push(text.trim());
      } else if (name === 'row' && cells.length > 0) rows.push(cells.join('\t'));
    },
    text(text) {
      if (capture) value += text;
    },
  });
  return rows.join('\n');
}

export function extractXlsx(content: Buffer, context: ExtractContext): FormatResult {
  const pkg = openPackage(content, context.limits);
  const workbook = required(pkg, 'xl/workbook.xml');
  const rels = readRelationships(pkg.text('xl/_rels/workbook.xml.rels'), 'xl');
  const strings = sharedStrings(pkg.text('xl/sharedStrings.xml'));
  const sheets: { name: string; path: string }[] = [];
  walkXml(workbook, {
    open(name, attributes) {
      const path = rels.get(attributes['r:id'] ?? '');
      if (name === 'sheet' && path) sheets.push({ name: attributes.name ?? '', path });
    },
  });
  const parts: string[] = [];
  let size = 0;
  for (const sheet of sheets) {
    if (size > context.limits.maxTextChars) return { text: parts.join('\n\n'), truncated: true };
    const xml = pkg.text(sheet.path);
    if (xml === null) continue;
    const text = `${sheet.name}\n${sheetText(xml, strings)}`.trim();
    parts.push(text);
    size += text.length;
  }
  return { text: parts.join('\n\n') };
}

/** Paragraphs of <a:t> runs; <a:br/> and <a:tab/> kept as layout. */
function drawingText(xml: string): string {
  let text = '';
  let capture = false;
  walkXml(xml, {
    open(name) {
      if (name === 'a:t') capture = true;
      else if (name === 'a:br') text += '\n';
      else if (name === 'a:tab') text += '\t';
    },
    close(name) {
      if (name === 'a:t') capture = false;
      else if (name === 'a:p') text += '\n';
    },
    text(chunk) {
      if (capture) text += chunk;
    },
  });
  return tidy(text);
}

export function extractPptx(content: Buffer, context: ExtractContext): FormatResult {
  const pkg = openPackage(content, context.limits);
  const presentation = required(pkg, 'ppt/presentation.xml');
  const rels = readRelationships(pkg.text('ppt/_rels/presentation.xml.rels'), 'ppt');
  const slides: string[] = [];
  walkXml(presentation, {
    open(name, attributes) {
      const path = rels.get(attributes['r:id'] ?? '');
      if (name === 'p:sldId' && path) slides.push(path);
    },
  });
  const parts: string[] = [];
  let size = 0;
  for (const path of slides) {
    if (size > context.limits.maxTextChars) return { text: parts.join('\n\n'), truncated: true };
    const xml = pkg.text(path);
    if (xml === null) continue;
    const text = drawingText(xml);
    if (text) parts.push(text);
    size += text.length;
  }
  return { text: parts.join('\n\n') };
}

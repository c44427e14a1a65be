// Attachment payloads: small valid PDFs with real text (so extractors have something to
// find), CSV and plain-text files. Bulk generation draws from a pre-encoded pool per seed.

import { encodeBytes } from './encode.js';
import type { Rng } from './prng.js';

function pdfEscape(s: string): string {
  return s.replace(/[\\()]/g, '\\$&').replace(/[^\x20-\x7e]/g, '?');
}

/**
 * A valid PDF 1.4 with one page per 45 lines of Helvetica text and an exact xref table.
 * Text is ASCII (non-ASCII becomes '?') since the standard fonts use WinAnsi.
 */
export function makePdf(title: string, lines: readonly string[]): Buffer {
  const pages: string[][] = [];
  for (let i = 0; i < lines.length; i += 45) pages.push(lines.slice(i, i + 45) as string[]);
  if (pages.length === 0) pages.push([]);
  const objects: string[] = [];
  const pageIds = pages.map((_, i) => 4 + i * 2);
  objects.push('<< /Type /Catalog /Pages 2 0 R >>');
  objects.push(
    `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`,
  );
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  pages.forEach((page, i) => {
    let stream = `BT /F1 16 Tf 56 790 Td (${pdfEscape(i === 0 ? title : `${title} (page ${i + 1})`)}) Tj ET\n`;
    stream += 'BT /F1 10 Tf 56 760 Td 14 TL\n';
    for (const line of page) stream += `(${pdfEscape(line)}) '\n`;
    stream += 'ET';
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + i * 2} 0 R >>`,
    );
    objects.push(`<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`);
  });
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info << /Producer (mailsift corpus) /Title (${pdfEscape(title)}) >> >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

export interface PooledAttachment {
  readonly kind: 'pdf' | 'csv' | 'txt';
  readonly contentType: string;
  readonly content: Buffer;
  /** Wrapped base64 of `content`, encoded once for the whole run. */
  readonly base64: Buffer;
}

const ITEMS = [
  'Steel coil 2mm',
  'Pallet rack bay',
  'Sensor kit v2',
  'Control unit CU-40',
  'Packaging film',
  'Spare part kit',
  'License seat (annual)',
  'Freight surcharge',
];

function csvTable(rng: Rng, rows: number): string {
  let out = 'date,order,item,qty,unit_price,total\n';
  for (let i = 0; i < rows; i++) {
    const qty = rng.int(1, 500);
    const price = rng.int(100, 99_999) / 100;
    out += `2024-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')},PO-${rng.int(10000, 99999)},${rng.pick(ITEMS)},${qty},${price.toFixed(2)},${(qty * price).toFixed(2)}\n`;
  }
  return out;
}

/** Pre-encoded attachments of assorted sizes (1–90 KB) so bulk messages cost a lookup. */
export function makeAttachmentPool(rng: Rng, lineSource: () => string): PooledAttachment[] {
  const pool: PooledAttachment[] = [];
  for (let i = 0; i < 36; i++) {
    const kind = i % 6 < 4 ? 'pdf' : i % 6 === 4 ? 'csv' : 'txt';
    const size = Math.floor(1 + rng.next() ** 2 * 90);
    let content: Buffer;
    if (kind === 'pdf') {
      const lines: string[] = [];
      while (lines.length * 70 < size * 1024) lines.push(lineSource());
      content = makePdf(`Document ${rng.int(1000, 9999)}`, lines);
    } else if (kind === 'csv') content = Buffer.from(csvTable(rng, Math.ceil((size * 1024) / 60)));
    else {
      let text = '';
      while (text.length < size * 1024) text += `${lineSource()}\n`;
      content = Buffer.from(text);
    }
    const contentType = kind === 'pdf' ? 'application/pdf' : kind === 'csv' ? 'text/csv' : 'text/plain';
    pool.push({ kind, contentType, content, base64: encodeBytes(content, 'base64') });
  }
  return pool;
}

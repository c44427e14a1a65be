// Generators of the attachment files the tests and the benchmark use: real PDF, DOCX,
// XLSX, PPTX, ODF and ZIP packages built here from known text, never copied from elsewhere.
import { Document, Packer, Paragraph } from 'docx';
import { strToU8, type Zippable, zipSync } from 'fflate';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';

const escapeXml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** A PDF with one page per entry, each page's lines drawn top-down in Helvetica. */
export async function makePdf(pages: readonly (readonly string[])[]): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = pdf.addPage([595, 842]);
    lines.forEach((line, n) => {
      page.drawText(line, { x: 50, y: 800 - n * 14, size: 10, font });
    });
  }
  return Buffer.from(await pdf.save());
}

/** A "scanned" PDF: a page with a filled rectangle and no text at all. */
export async function makeImageOnlyPdf(): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.addPage([595, 842]).drawRectangle({ x: 40, y: 40, width: 500, height: 700, color: rgb(0.8, 0.8, 0.8) });
  return Buffer.from(await pdf.save());
}

/**
 * A PDF written object by object (for what pdf-lib cannot make), with exact xref offsets.
 * `objects` are numbered from 1; the first is the catalog.
 */
function assemblePdf(objects: readonly string[], trailer = ''): Buffer {
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, n) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${n + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailer}>>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

const stream = (content: string): string =>
  `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`;

/**
 * A PDF with a Standard security handler whose /U entry matches no password, so readers
 * must ask for one (pdf-lib cannot encrypt).
 */
export function makeEncryptedPdf(): Buffer {
  const hex = (seed: number): string =>
    Array.from({ length: 32 }, (_, i) => ((i * 37 + seed) & 0xff).toString(16).padStart(2, '0')).join('');
  const id = hex(5).slice(0, 32);
  return assemblePdf(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 5 0 R >>',
      `<< /Filter /Standard /V 1 /R 2 /O <${hex(11)}> /U <${hex(97)}> /P -44 >>`,
      '<< /Length 8 >>\nstream\n\x8f\x12\xa4\x55\x01\xee\x33\x90\nendstream',
    ],
    `/Encrypt 4 0 R /ID [<${id}> <${id}>] `,
  );
}

/**
 * A one-line PDF set with the ligature glyphs "fi" and "fl" (codes 0xAE and 0xAF of the
 * standard encoding), which readers map to U+FB01 "ﬁ" and U+FB02 "ﬂ" as in typeset
 * documents: the line reads "The ofﬁce ﬂoor plan".
 */
export function makeLigaturePdf(): Buffer {
  return assemblePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /Encoding /StandardEncoding >>',
    stream('BT /F1 12 Tf 50 780 Td (The of\xaece \xafoor plan) Tj ET'),
  ]);
}

export async function makeDocx(paragraphs: readonly string[]): Promise<Buffer> {
  const doc = new Document({ sections: [{ children: paragraphs.map((text) => new Paragraph(text)) }] });
  return Packer.toBuffer(doc);
}

const contentTypes = (overrides: string): string =>
  `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${overrides}</Types>`;

const relationships = (targets: readonly string[], type: string): string =>
  `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${targets
    .map((target, n) => `<Relationship Id="rId${n + 1}" Type="${type}" Target="${target}"/>`)
    .join('')}</Relationships>`;

const OFFICE_DOC = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** An XLSX with shared strings for text cells and plain values for numbers. */
export function makeXlsx(
  sheets: readonly { name: string; rows: readonly (readonly (string | number)[])[] }[],
): Buffer {
  const strings: string[] = [];
  const index = (text: string): number => {
    const at = strings.indexOf(text);
    return at >= 0 ? at : strings.push(text) - 1;
  };
  const files: Zippable = {};
  sheets.forEach((sheet, n) => {
    const rows = sheet.rows
      .map(
        (row, r) =>
          `<row r="${r + 1}">${row
            .map((cell) =>
              typeof cell === 'number' ? `<c><v>${cell}</v></c>` : `<c t="s"><v>${index(cell)}</v></c>`,
            )
            .join('')}</row>`,
      )
      .join('');
    files[`xl/worksheets/sheet${n + 1}.xml`] = strToU8(
      `${XML}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData></worksheet>`,
    );
  });
  files['[Content_Types].xml'] = strToU8(
    contentTypes(
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>',
    ),
  );
  files['_rels/.rels'] = strToU8(relationships(['xl/workbook.xml'], `${OFFICE_DOC}/officeDocument`));
  files['xl/workbook.xml'] = strToU8(
    `${XML}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${OFFICE_DOC}"><sheets>${sheets
      .map((s, n) => `<sheet name="${escapeXml(s.name)}" sheetId="${n + 1}" r:id="rId${n + 1}"/>`)
      .join('')}</sheets></workbook>`,
  );
  files['xl/_rels/workbook.xml.rels'] = strToU8(
    relationships(
      sheets.map((_, n) => `worksheets/sheet${n + 1}.xml`),
      `${OFFICE_DOC}/worksheet`,
    ),
  );
  files['xl/sharedStrings.xml'] = strToU8(
    `${XML}<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${strings.map((s) => `<si><t>${escapeXml(s)}</t></si>`).join('')}</sst>`,
  );
  return Buffer.from(zipSync(files));
}

/**
 * A PPTX whose slide files are numbered against presentation order (slide2.xml is shown
 * first), so a reader that sorts by file name gets the order wrong.
 */
export function makePptx(slides: readonly (readonly string[])[]): Buffer {
  const files: Zippable = {};
  const targets = slides.map((_, n) => `slides/slide${slides.length - n}.xml`);
  slides.forEach((paragraphs, n) => {
    const body = paragraphs.map((p) => `<a:p><a:r><a:t>${escapeXml(p)}</a:t></a:r></a:p>`).join('');
    files[`ppt/${targets[n]}`] = strToU8(
      `${XML}<p:sld xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"><p:cSld><p:spTree><p:sp><p:txBody>${body}</p:txBody></p:sp></p:spTree></p:cSld></p:sld>`,
    );
  });
  files['[Content_Types].xml'] = strToU8(
    contentTypes(
      '<Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/>',
    ),
  );
  files['_rels/.rels'] = strToU8(relationships(['ppt/presentation.xml'], `${OFFICE_DOC}/officeDocument`));
  files['ppt/presentation.xml'] = strToU8(
    `${XML}<p:presentation xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:r="${OFFICE_DOC}"><p:sldIdLst>${slides
      .map((_, n) => `<p:sldId id="${256 + n}" r:id="rId${n + 1}"/>`)
      .join('')}</p:sldIdLst></p:presentation>`,
  );
  files['ppt/_rels/presentation.xml.rels'] = strToU8(relationships(targets, `${OFFICE_DOC}/slide`));
  return Buffer.from(zipSync(files));
}

/** An OpenDocument package: the stored `mimetype` entry first (ODF 1.3 part 2, 3.3), then content.xml. */
export function makeOdf(mimetype: string, body: string): Buffer {
  const content = `${XML}<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" office:version="1.3"><office:body>${body}</office:body></office:document-content>`;
  return Buffer.from(
    zipSync({
      mimetype: [strToU8(mimetype), { level: 0 }],
      'content.xml': strToU8(content),
      'META-INF/manifest.xml': strToU8(
        `${XML}<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"/>`,
      ),
    }),
  );
}

export function makeZip(entries: Record<string, Uint8Array | string>): Buffer {
  const files: Zippable = {};
  for (const [name, data] of Object.entries(entries))
    files[name] = typeof data === 'string' ? strToU8(data) : data;
  return Buffer.from(zipSync(files));
}

/** One TNEF attribute: level, id with its type in the high word, length, data, checksum (MS-OXTNEF 2.1.3.1). */
function tnefAttribute(level: number, id: number, data: Buffer): Buffer {
  const head = Buffer.alloc(9);
  head[0] = level;
  head.writeUInt32LE(id >>> 0, 1);
  head.writeUInt32LE(data.length, 5);
  const checksum = Buffer.alloc(2);
  checksum.writeUInt16LE(data.reduce((sum, byte) => (sum + byte) & 0xffff, 0));
  return Buffer.concat([head, data, checksum]);
}

/** A MAPI property value of a variable-length type: count 1, length, bytes padded to 4. */
function mapiVariable(type: number, id: number, value: Buffer): Buffer {
  const head = Buffer.alloc(12);
  head.writeUInt16LE(type, 0);
  head.writeUInt16LE(id, 2);
  head.writeUInt32LE(1, 4);
  head.writeUInt32LE(value.length, 8);
  return Buffer.concat([head, value, Buffer.alloc((4 - (value.length % 4)) % 4)]);
}

/**
 * A winmail.dat: a body, then per attachment its rendering, 8.3 title, data and MAPI
 * properties carrying the Unicode long filename, a size (fixed-length type) and the MIME tag.
 */
export function makeTnef(
  body: string,
  attachments: readonly { title: string; longName: string; mime: string; data: Buffer }[],
): Buffer {
  const parts: Buffer[] = [Buffer.from([0x78, 0x9f, 0x3e, 0x22, 0x01, 0x00])];
  parts.push(tnefAttribute(1, 0x00089006, Buffer.from([0, 0, 1, 0])));
  parts.push(tnefAttribute(1, 0x0002800c, Buffer.from(body, 'latin1')));
  for (const a of attachments) {
    parts.push(tnefAttribute(2, 0x00069002, Buffer.alloc(14)));
    parts.push(tnefAttribute(2, 0x00018010, Buffer.from(`${a.title}\0`, 'latin1')));
    parts.push(tnefAttribute(2, 0x0006800f, a.data));
    const size = Buffer.alloc(8);
    size.writeUInt16LE(0x0003, 0);
    size.writeUInt16LE(0x0e20, 2);
    size.writeUInt32LE(a.data.length, 4);
    const count = Buffer.alloc(4);
    count.writeUInt32LE(3);
    const props = Buffer.concat([
      count,
      mapiVariable(0x001f, 0x3707, Buffer.from(`${a.longName}\0`, 'utf16le')),
      size,
      mapiVariable(0x001e, 0x370e, Buffer.from(`${a.mime}\0`, 'latin1')),
    ]);
    parts.push(tnefAttribute(2, 0x00069005, props));
  }
  return Buffer.concat(parts);
}

export interface MessageFile {
  readonly filename: string;
  readonly contentType: string;
  readonly content: Buffer;
}

/** A raw multipart/mixed message (CRLF) with a short note and `files` attached in order, base64. */
export function makeMessageWith(files: readonly MessageFile[]): Buffer {
  const boundary = '=_fixture_boundary';
  const parts = files.flatMap((file) => [
    `--${boundary}`,
    `Content-Type: ${file.contentType}; name="${file.filename}"`,
    `Content-Disposition: attachment; filename="${file.filename}"`,
    'Content-Transfer-Encoding: base64',
    '',
    file.content.toString('base64').replace(/.{76}/g, '$&\r\n'),
  ]);
  const lines = [
    'Message-ID: <site-visit-7@bauplan-nord.example>',
    'From: "Bauplan Nord" <projekte@bauplan-nord.example>',
    'To: facilities@acme-corp.com',
    'Subject: Floor plan and access list for the site visit',
    'Date: Wed, 06 Nov 2024 09:30:00 +0100',
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    'The floor plan and the access list for Thursday are attached.',
    '',
    ...parts,
    `--${boundary}--`,
    '',
  ];
  return Buffer.from(lines.join('\r\n'), 'utf8');
}

// Extraction of every supported format from files generated here or committed under
// test/fixtures/attachments, plus the hostile cases: encrypted, corrupt, bombs, limits.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  makeDocx,
  makeEncryptedPdf,
  makeImageOnlyPdf,
  makeLigaturePdf,
  makeOdf,
  makePdf,
  makePptx,
  makeXlsx,
  makeZip,
} from './fixtures.js';
import { createExtractor, type Extraction } from './index.js';

const fixture = (name: string): Buffer =>
  readFileSync(new URL(`../../test/fixtures/attachments/${name}`, import.meta.url));
const extractor = createExtractor({ workers: 0 });
const extract = (
  content: Buffer,
  filename: string | null,
  contentType = 'application/octet-stream',
  limits = {},
) => extractor.extract({ filename, contentType, content }, limits);

const CONTRACT_PAGES = [
  [
    'MASTER SUPPLY AGREEMENT',
    'between Acme Logistics GmbH and Northwind Retail S.p.A.',
    'Clause 1. The supplier delivers pallet racking.',
  ],
  ['Clause 7. Penalties', 'A delay beyond fourteen days triggers a penalty of 2% per week.'],
  [
    'Clause 12. Governing law',
    'This agreement is governed by the laws of Germany.',
    'Signed in Hamburg on 3 March 2024.',
  ],
];

describe('PDF', () => {
  it('extracts every page of a multi-page PDF in order', async () => {
    const result = await extract(await makePdf(CONTRACT_PAGES), 'contract.pdf', 'application/pdf');
    expect(result).toMatchObject({
      status: 'ok',
      format: 'pdf',
      detectedType: 'application/pdf',
      truncated: false,
      language: 'en',
    });
    const order = [
      'MASTER SUPPLY AGREEMENT',
      'penalty of 2% per week',
      'Signed in Hamburg on 3 March 2024.',
    ].map((t) => result.text.indexOf(t));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('reads ligature glyphs as their letters, so the words are found as typed', async () => {
    const result = await extract(makeLigaturePdf(), 'floor-plan.pdf', 'application/pdf');
    expect(result).toMatchObject({ status: 'ok', format: 'pdf', text: 'The office floor plan' });
  });

  it('returns ok with empty text for an image-only (scanned) PDF', async () => {
    const result = await extract(await makeImageOnlyPdf(), 'scan-0001.pdf', 'application/pdf');
    expect(result).toMatchObject({ status: 'ok', format: 'pdf', text: '', language: null });
  });

  it('skips a password-protected PDF as encrypted', async () => {
    const result = await extract(makeEncryptedPdf(), 'salary-2024.pdf', 'application/pdf');
    expect(result).toMatchObject({ status: 'skipped', reason: 'encrypted', format: 'pdf', text: '' });
  });

  it('fails a truncated PDF with the reader error instead of throwing', async () => {
    const whole = await makePdf(CONTRACT_PAGES);
    const result = await extract(whole.subarray(0, 400), 'contract.pdf', 'application/pdf');
    expect(result.status).toBe('failed');
    expect(result.reason).toBeTruthy();
  });
});

describe('office documents', () => {
  it('extracts DOCX paragraphs with mammoth', async () => {
    const docx = await makeDocx([
      'Angebot Nr. 8812',
      'Wir bieten Ihnen 40 Regale zum Preis von 12.400 Euro an.',
    ]);
    const result = await extract(docx, 'angebot.docx');
    expect(result).toMatchObject({ status: 'ok', format: 'docx' });
    expect(result.text).toContain('Angebot Nr. 8812');
    expect(result.text).toContain('40 Regale zum Preis von 12.400 Euro');
  });

  it('extracts XLSX sheet names and cell values, shared strings resolved', async () => {
    const xlsx = makeXlsx([
      {
        name: 'Prices Q2',
        rows: [
          ['Item', 'Unit price'],
          ['Pallet racking', 129.5],
        ],
      },
      { name: 'Discounts', rows: [['Volume over 100', '7%']] },
    ]);
    const result = await extract(xlsx, 'prices.xlsx');
    expect(result).toMatchObject({ status: 'ok', format: 'xlsx' });
    expect(result.text).toBe(
      'Prices Q2\nItem\tUnit price\nPallet racking\t129.5\n\nDiscounts\nVolume over 100\t7%',
    );
  });

  it('extracts PPTX slide text in presentation order, not file order', async () => {
    const pptx = makePptx([
      ['Roadmap 2025', 'Warehouse automation'],
      ['Budget', 'EUR 2.4 million & rising'],
    ]);
    const result = await extract(pptx, 'roadmap.pptx');
    expect(result).toMatchObject({ status: 'ok', format: 'pptx' });
    expect(result.text).toBe('Roadmap 2025\nWarehouse automation\n\nBudget\nEUR 2.4 million & rising');
  });

  it('extracts ODT paragraphs and headings', async () => {
    const odt = makeOdf(
      'application/vnd.oasis.opendocument.text',
      '<office:text><text:h text:outline-level="1">Verbale di riunione</text:h><text:p>Il fornitore consegnerà<text:s/>entro il 30 giugno.</text:p><text:tracked-changes><text:p>testo cancellato</text:p></text:tracked-changes></office:text>',
    );
    const result = await extract(odt, 'verbale.odt');
    expect(result).toMatchObject({ status: 'ok', format: 'odt' });
    expect(result.text).toBe('Verbale di riunione\nIl fornitore consegnerà entro il 30 giugno.');
  });

  it('extracts ODS rows as tab-separated cells under the sheet name', async () => {
    const ods = makeOdf(
      'application/vnd.oasis.opendocument.spreadsheet',
      '<office:spreadsheet><table:table table:name="Inventario"><table:table-row><table:table-cell><text:p>Scaffali</text:p></table:table-cell><table:table-cell><text:p>40</text:p></table:table-cell></table:table-row></table:table></office:spreadsheet>',
    );
    const result = await extract(ods, 'inventario.ods');
    expect(result).toMatchObject({ status: 'ok', format: 'ods', text: 'Inventario\nScaffali\t40' });
  });

  it('skips a password-protected OOXML file (OLE container with EncryptionInfo) as encrypted', async () => {
    const ole = Buffer.alloc(2048);
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(ole);
    Buffer.from('EncryptionInfo', 'utf16le').copy(ole, 1024);
    const result = await extract(ole, 'budget.xlsx');
    expect(result).toMatchObject({ status: 'skipped', reason: 'encrypted' });
  });
});

describe('text formats', () => {
  it('strips RTF to its body text with codepage escapes and \\u characters', async () => {
    const result = await extract(fixture('delivery-terms.rtf'), 'terms.rtf', 'application/rtf');
    expect(result).toMatchObject({ status: 'ok', format: 'rtf', language: 'de' });
    expect(result.text).toContain('Lieferbedingungen für den Vertrag Nr. 2024-117');
    expect(result.text).toContain('Preis: 1.250,00 € zzgl. MwSt.');
    expect(result.text).toContain('Wichtig: die Ware wird am Montag geliefert.\tEnde');
    expect(result.text).toContain('Unicode: Привет und {Klammern} und \\Backslash');
    expect(result.text).toContain('Bedingungen online');
    for (const hidden of ['Helvetica', 'Internal title', 'Riched20', 'HYPERLINK', '89504e47'])
      expect(result.text).not.toContain(hidden);
  });

  it('flattens HTML through the cleaning module', async () => {
    const html = Buffer.from(
      '<html><head><style>p{color:red}</style></head><body><h1>Rechnung</h1><p>Betrag: <b>480 €</b></p></body></html>',
    );
    const result = await extract(html, 'invoice.html', 'text/html');
    expect(result).toMatchObject({ status: 'ok', format: 'html' });
    expect(result.text).toContain('Rechnung');
    expect(result.text).toContain('Betrag: 480 €');
    expect(result.text).not.toContain('color');
  });

  it('decodes a latin-1 CSV by detection', async () => {
    const result = await extract(fixture('prices-latin1.csv'), 'preise.csv', 'text/csv');
    expect(result).toMatchObject({ status: 'ok', format: 'csv' });
    expect(result.text).toContain('Käse aus der Schweiz;12;4,50');
    expect(result.text).toContain('Grüße;1;0,99');
  });

  it('reads Markdown as text', async () => {
    const result = await extract(
      Buffer.from('# Release notes\n\n- Fixed invoice rounding\n'),
      'NOTES.md',
      'text/markdown',
    );
    expect(result).toMatchObject({
      status: 'ok',
      format: 'markdown',
      text: '# Release notes\n\n- Fixed invoice rounding\n',
    });
  });

  it('summarises an ICS invite: summary, times, organizer, attendees, location, description', async () => {
    const result = await extract(
      fixture('supplier-review.ics'),
      'invite.ics',
      'text/calendar; method=REQUEST',
    );
    expect(result).toMatchObject({ status: 'ok', format: 'ics' });
    expect(result.text).toBe(
      [
        'Method: REQUEST',
        'Summary: Quarterly supplier review - Acme Logistics',
        'Start: 2024-05-14T09:00:00 (Europe/Rome)',
        'End: 2024-05-14T10:30:00 (Europe/Rome)',
        'Location: Meeting room Brera, 3rd floor',
        'Organizer: Giulia Rossi <giulia.rossi@example.com>',
        'Attendees: Tom Becker <tom.becker@acme-logistics.example>, Ana Silva <ana.silva@example.com>',
        'Status: CONFIRMED',
        '',
        'Agenda:\n1. Delivery schedule dispute\n2. Invoice INV-4471 corrections',
      ].join('\n'),
    );
  });

  it('lists vCard fields, including vCard 2.1 quoted-printable values', async () => {
    const result = await extract(fixture('contacts.vcf'), 'contacts.vcf', 'text/x-vcard');
    expect(result).toMatchObject({ status: 'ok', format: 'vcard' });
    expect(result.text).toBe(
      [
        'Tom Becker',
        'Organization: Acme Logistics GmbH Procurement',
        'Title: Head of Procurement',
        'Email: tom.becker@acme-logistics.example',
        'Phone: +49 170 5550123',
        'Address: Hafenstraße 12, Hamburg, 20457, Germany',
        '',
        'José Martínez',
        'Organization: Transportes Ibéricos SA',
        'Phone: +34 91 555 0199',
        'Email: jose.martinez@example.es',
        'Note: Prefers calls in the morning, not after 18:00',
      ].join('\n'),
    );
  });
});

describe('nested message/rfc822', () => {
  it('returns the message text, its headers and its attachments', async () => {
    const result = await extract(
      fixture('forwarded-delivery-dispute.eml'),
      'Re_ Lieferverzug.eml',
      'message/rfc822',
    );
    expect(result).toMatchObject({ status: 'ok', format: 'message', language: 'en' });
    expect(result.text).toContain('the delivery for order 2024-117 is three weeks late');
    expect(result.text).toContain('== open-items.csv ==\norder;item;qty');
    expect(result.message).toEqual({
      subject: 'Re: Lieferverzug Auftrag 2024-117',
      from: { name: 'Giulia Rossi', address: 'giulia.rossi@example.com' },
      to: [{ name: 'Tom Becker', address: 'tom.becker@acme-logistics.example' }],
      date: '2024-05-14T07:12:44.000Z',
    });
    expect(result.children?.map((c) => [c.name, c.extraction.format])).toEqual([['open-items.csv', 'csv']]);
  });
});

describe('sniffing through extraction', () => {
  it('extracts a PDF sent as application/octet-stream without a filename', async () => {
    const result = await extract(await makePdf(CONTRACT_PAGES), null, 'application/octet-stream');
    expect(result).toMatchObject({ status: 'ok', format: 'pdf', detectedType: 'application/pdf' });
    expect(result.text).toContain('MASTER SUPPLY AGREEMENT');
  });

  it('extracts a PDF mislabelled text/plain with a .txt name', async () => {
    const result = await extract(await makePdf(CONTRACT_PAGES), 'notes.txt', 'text/plain; charset=us-ascii');
    expect(result).toMatchObject({ status: 'ok', format: 'pdf' });
    expect(result.text).not.toContain('%PDF');
  });

  it('handles a non-ASCII filename, at the top and inside a zip', async () => {
    const pdf = await makePdf([['Prüfbericht Charge 7']]);
    const top = await extract(pdf, 'Prüfbericht_Отчёт_検査.pdf');
    expect(top).toMatchObject({ status: 'ok', format: 'pdf' });
    const zip = await extract(makeZip({ 'Berichte/Prüfbericht_Отчёт.pdf': pdf }), 'berichte.zip');
    expect(zip.children?.[0]?.name).toBe('Berichte/Prüfbericht_Отчёт.pdf');
    expect(zip.children?.[0]?.extraction.text).toContain('Prüfbericht Charge 7');
  });

  it('skips images and unknown binaries with the reason', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    expect(await extract(png, 'logo.png', 'image/png')).toMatchObject({
      status: 'skipped',
      reason: 'image (no OCR)',
      format: 'image',
    });
    const binary = Buffer.from([0x00, 0x01, 0x02, 0x03, 0xfe, 0x00, 0x10]);
    expect(await extract(binary, 'data.bin')).toMatchObject({
      status: 'skipped',
      reason: 'unsupported format',
      format: 'other',
    });
  });
});

describe('zip archives', () => {
  const text = (e: Extraction | undefined): string => e?.text ?? '';

  it('lists entries and extracts the supported files inside', async () => {
    const zip = makeZip({
      'invoices/INV-4471.pdf': await makePdf([['Invoice INV-4471', 'Total due: 980.00 EUR']]),
      'invoices/readme.txt': 'Scanned invoices for May.',
      'photos/site.png': Buffer.from('89504e470d0a1a0a', 'hex'),
    });
    const result = await extract(zip, 'may-invoices.zip', 'application/zip');
    expect(result).toMatchObject({ status: 'ok', format: 'zip', truncated: false });
    expect(result.children?.map((c) => [c.name, c.extraction.status])).toEqual([
      ['invoices/INV-4471.pdf', 'ok'],
      ['invoices/readme.txt', 'ok'],
      ['photos/site.png', 'skipped'],
    ]);
    expect(result.text).toContain('== invoices/INV-4471.pdf ==\nInvoice INV-4471\nTotal due: 980.00 EUR');
    expect(result.text).toContain('== photos/site.png ==');
  });

  it('skips a zip-bomb entry by its compression ratio without inflating it', async () => {
    const bomb = makeZip({ 'notes.txt': 'real notes', 'zeros.txt': new Uint8Array(50 * 1024 * 1024) });
    expect(bomb.length).toBeLessThan(200_000);
    const result = await extract(bomb, 'bomb.zip');
    expect(result.status).toBe('ok');
    expect(text(result.children?.[0]?.extraction)).toBe('real notes');
    expect(result.children?.[1]?.extraction).toMatchObject({ status: 'skipped' });
    expect(result.children?.[1]?.extraction.reason).toMatch(/^zip bomb: ratio \d+ > 100$/);
  });

  it('stops at the total uncompressed budget', async () => {
    const zip = makeZip({ 'a.txt': 'a'.repeat(600), 'b.txt': 'b'.repeat(600) });
    const result = await extract(zip, 'two.zip', 'application/zip', { zipMaxTotalUncompressed: 1000 });
    expect(result.children?.map((c) => c.extraction.reason)).toEqual([null, 'zip size limit']);
    expect(result.truncated).toBe(true);
  });

  it('opens nested zips up to zipMaxDepth and refuses the next level', async () => {
    const level3 = makeZip({ 'deep.txt': 'three levels down' });
    const level2 = makeZip({ 'level3.zip': level3, 'mid.txt': 'two levels down' });
    const level1 = makeZip({ 'level2.zip': level2 });
    const result = await extract(level1, 'outer.zip');
    const inner = result.children?.[0]?.extraction;
    expect(inner).toMatchObject({ status: 'ok', format: 'zip' });
    expect(inner?.children?.map((c) => [c.name, c.extraction.status, c.extraction.reason])).toEqual([
      ['level3.zip', 'skipped', 'zip depth limit'],
      ['mid.txt', 'ok', null],
    ]);
    expect(result.text).toContain('two levels down');
    expect(result.text).not.toContain('three levels down');
  });

  it('stops listing at zipMaxEntries', async () => {
    const entries = Object.fromEntries(Array.from({ length: 12 }, (_, n) => [`f${n}.txt`, `file ${n}`]));
    const result = await extract(makeZip(entries), 'many.zip', 'application/zip', { zipMaxEntries: 5 });
    expect(result.children).toHaveLength(5);
    expect(result.truncated).toBe(true);
  });

  it('fails a corrupt zip with what is wrong', async () => {
    const zip = makeZip({ 'a.txt': 'hello' });
    const result = await extract(zip.subarray(0, zip.length - 30), 'broken.zip', 'application/zip');
    expect(result).toMatchObject({ status: 'failed', format: 'zip' });
    expect(result.reason).toMatch(/corrupt zip/);
  });
});

describe('limits', () => {
  it('skips input above maxBytes without reading it', async () => {
    const result = await extract(await makePdf(CONTRACT_PAGES), 'contract.pdf', 'application/pdf', {
      maxBytes: 1000,
    });
    expect(result.status).toBe('skipped');
    expect(result.reason).toMatch(/^too large \(\d+ bytes, limit 1000\)$/);
  });

  it('truncates text at maxTextChars and says so', async () => {
    const result = await extract(Buffer.from('word '.repeat(1000)), 'long.txt', 'text/plain', {
      maxTextChars: 50,
    });
    expect(result).toMatchObject({ status: 'ok', truncated: true });
    expect(result.text).toHaveLength(50);
  });

  it('rejects a nonsensical limit naming it', async () => {
    await expect(extract(Buffer.from('x'), 'x.txt', 'text/plain', { timeoutMs: -1 })).rejects.toMatchObject({
      code: 'invalid_argument',
      param: 'timeoutMs',
    });
  });
});

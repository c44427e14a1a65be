import { simpleParser } from 'mailparser';
import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { makePdf } from './attachments.js';
import { composeMessage, type MessageSpec } from './compose.js';
import type { Charset, TransferEncoding } from './encode.js';
import { header, textParts } from './test-helpers.js';

const samples: Record<Charset, { subject: string; text: string; name: string }> = {
  'utf-8': {
    subject: 'Fattura n° 4471 – scadenza',
    text: 'Grüße aus Köln, €1.200 fällig. Il giorno è già passato.\nСпасибо!',
    name: 'Jürgen Müller',
  },
  'iso-8859-1': {
    subject: 'Réunion à Genève',
    text: 'Prévu pour jeudi à 10h, café compris.\nÄnderungen bitte bis Freitag.',
    name: 'Élodie Lefèvre',
  },
  'windows-1252': {
    subject: 'Quote “final” – €4,250',
    text: 'The “revised” offer is €4,250 — valid until Friday.\n',
    name: 'Zoë O’Brien',
  },
  'koi8-r': {
    subject: 'Счёт на оплату',
    text: 'Добрый день! Отгрузка перенесена на 15 ноября.\nС уважением, Ольга',
    name: 'Ольга Петрова',
  },
  'windows-1251': {
    subject: 'Поставка по договору',
    text: 'Коллеги, счёт во вложении.\nСпасибо.',
    name: 'Дмитрий Фёдоров',
  },
  'iso-2022-jp': {
    subject: '請求書の件',
    text: 'お世話になっております。\n請求書を添付いたします。',
    name: '田中 健',
  },
  gb2312: { subject: '第三季度预算', text: '各位好：\n预算已经批准，请确认。', name: '王伟' },
};

function spec(charset: Charset, cte: TransferEncoding, html: boolean): MessageSpec {
  const s = samples[charset];
  return {
    from: { name: s.name, address: 'sender@example.org' },
    to: [{ name: 'Kevin Miller', address: 'kevin.miller@acme-corp.com' }],
    subject: s.subject,
    date: new Date('2024-09-03T07:12:01Z'),
    tzOffset: 120,
    messageId: `${charset}.${cte}@example.org`,
    charset,
    transferEncoding: cte,
    text: s.text,
    html: html ? `<div>${s.text.replace(/\n/g, '<br>')}</div>` : null,
    boundary: 'test',
  };
}

describe('composeMessage', () => {
  const encodings: TransferEncoding[] = ['quoted-printable', 'base64', '8bit'];
  for (const charset of Object.keys(samples) as Charset[]) {
    for (const cte of charset === 'iso-2022-jp' ? (['7bit', 'base64'] as TransferEncoding[]) : encodings) {
      it(`round-trips ${charset} text, subject and sender name through mailparser (${cte})`, async () => {
        const raw = composeMessage(spec(charset, cte, true));
        const parts = textParts(raw);
        expect(parts.map((p) => p.charset)).toEqual([charset, charset]);
        const parsed = await simpleParser(raw);
        expect(parsed.subject).toBe(samples[charset].subject);
        expect(parsed.from?.value[0]?.name).toBe(samples[charset].name);
        expect(parsed.text?.trim()).toBe(samples[charset].text.trim());
        expect(parsed.html).toContain(samples[charset].text.split('\n')[0]);
      });
    }
  }

  it('keeps quoted-printable lines within 76 characters and soft-breaks long paragraphs', () => {
    const long = 'Die Lieferung für Bestellung PO-48213 wurde auf den 14. Oktober verschoben. '.repeat(20);
    const raw = composeMessage({ ...spec('utf-8', 'quoted-printable', false), text: long });
    const body = raw.toString('latin1').split('\n\n').slice(1).join('\n\n');
    for (const line of body.split('\n')) expect(line.length).toBeLessThanOrEqual(76);
    expect(header(raw, 'Content-Transfer-Encoding')).toBe('quoted-printable');
  });

  it('builds multipart/mixed with a PDF that mailparser returns byte for byte', async () => {
    const pdf = makePdf('Invoice INV-4471', ['Amount due: EUR 1,250.00', 'Due date: 2024-10-01']);
    const raw = composeMessage({
      ...spec('utf-8', 'quoted-printable', true),
      attachments: [{ filename: 'Invoice-INV-4471.pdf', contentType: 'application/pdf', content: pdf }],
    });
    expect(header(raw, 'Content-Type')).toMatch(/^multipart\/mixed; boundary="testmix"/);
    const parsed = await simpleParser(raw);
    expect(parsed.attachments).toHaveLength(1);
    expect(parsed.attachments[0]?.filename).toBe('Invoice-INV-4471.pdf');
    expect(parsed.attachments[0]?.content.equals(pdf)).toBe(true);
    expect(pdf.toString('latin1')).toMatch(
      /^%PDF-1\.4\n[\s\S]*\(Amount due: EUR 1,250\.00\) '[\s\S]*%%EOF\n$/,
    );
  });

  it('writes a PDF whose xref offsets point at its objects', () => {
    const pdf = makePdf('Check', ['one', 'two']).toString('latin1');
    const xref = Number(/startxref\n(\d+)/.exec(pdf)?.[1]);
    expect(pdf.slice(xref, xref + 4)).toBe('xref');
    const offsets = [...pdf.slice(xref).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
    for (const [i, o] of offsets.entries()) expect(pdf.slice(o, o + 7)).toBe(`${i + 1} 0 obj`);
  });

  it('writes PDFs a real extractor reads, page breaks included', async () => {
    const lines = Array.from({ length: 100 }, (_, i) => `Line ${i}: invoice INV-4471, EUR 1,250.00 (paid)`);
    const doc = await getDocumentProxy(new Uint8Array(makePdf('Invoice INV-4471', lines)));
    const { totalPages, text } = await extractText(doc, { mergePages: true });
    expect(totalPages).toBe(3);
    expect(text).toContain('Invoice INV-4471');
    expect(text).toContain('Line 99: invoice INV-4471, EUR 1,250.00 (paid)');
  });
});

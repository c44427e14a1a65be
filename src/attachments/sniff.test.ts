// Content sniffing: magic bytes over the filename over the declared type, and the office
// packages told apart by what their zip holds.
import { describe, expect, it } from 'vitest';
import { makeDocx, makeEncryptedPdf, makeOdf, makePptx, makeXlsx, makeZip } from './fixtures.js';
import { rtfToText } from './rtf.js';
import { sniffType } from './sniff.js';

const OCTET = 'application/octet-stream';

describe('sniffType', () => {
  it('tells the office packages apart by their parts, whatever the label', async () => {
    expect(sniffType(await makeDocx(['x']), OCTET, null).format).toBe('docx');
    expect(sniffType(makeXlsx([{ name: 'S', rows: [['a']] }]), 'application/zip', 'data.zip').format).toBe(
      'xlsx',
    );
    expect(sniffType(makePptx([['x']]), OCTET, 'deck.bin').format).toBe('pptx');
    const odp = makeOdf('application/vnd.oasis.opendocument.presentation', '<office:presentation/>');
    expect(sniffType(odp, OCTET, null)).toEqual({
      contentType: 'application/vnd.oasis.opendocument.presentation',
      format: 'odp',
    });
    expect(sniffType(makeZip({ 'a.txt': 'x' }), OCTET, 'a.docx').format).toBe('zip');
  });

  it.each([
    ['PDF labelled text/plain', makeEncryptedPdf(), 'text/plain', 'notes.txt', 'pdf'],
    ['RTF labelled octet-stream', Buffer.from('{\\rtf1\\ansi hello}'), OCTET, null, 'rtf'],
    [
      'ICS labelled text/plain',
      Buffer.from('BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n'),
      'text/plain',
      'invite.txt',
      'ics',
    ],
    ['vCard with a BOM', Buffer.from('\uFEFFBEGIN:VCARD\r\nFN:A\r\nEND:VCARD\r\n'), OCTET, null, 'vcard'],
    [
      'HTML labelled octet-stream',
      Buffer.from('<!DOCTYPE html><html><body>x</body></html>'),
      OCTET,
      'page',
      'html',
    ],
    [
      'a message by its headers',
      Buffer.from('Received: from a\r\nSubject: x\r\n\r\nbody'),
      OCTET,
      'fwd',
      'message',
    ],
    ['PNG named .pdf', Buffer.from('89504e470d0a1a0a0000', 'hex'), 'application/pdf', 'scan.pdf', 'image'],
    ['CSV by extension', Buffer.from('a,b\n1,2\n'), OCTET, 'export.csv', 'csv'],
    ['Markdown by declared type', Buffer.from('# Title\n'), 'text/markdown; charset=utf-8', null, 'markdown'],
    ['winmail.dat by name', Buffer.from('xx'), OCTET, 'WINMAIL.DAT', 'tnef'],
    ['unlabelled UTF-8 text', Buffer.from('Grüße aus Köln'), OCTET, null, 'text'],
    ['binary labelled text/plain', Buffer.from([0, 1, 2, 3, 0, 9]), 'text/plain', 'data.txt', 'other'],
  ])('%s', (_, content, declared, filename, format) => {
    expect(sniffType(content, declared, filename).format).toBe(format);
  });
});

describe('rtfToText', () => {
  it('survives 100,000 nested groups without recursion', () => {
    const deep = `{\\rtf1 ${'{'.repeat(100_000)}inner${'}'.repeat(100_000)} outer}`;
    expect(rtfToText(Buffer.from(deep), 1000)).toEqual({ text: 'inner outer', truncated: false });
  });

  it('skips \\bin data and honours \\uc for the fallback characters it drops', () => {
    const rtf = Buffer.from('{\\rtf1 a\\bin4 {}}\\ b {\\uc2\\u8364 EU}c}', 'latin1');
    expect(rtfToText(rtf, 1000).text).toBe('a b €c');
  });

  it("decodes \\'hh bytes with the document codepage", () => {
    const rtf = Buffer.from("{\\rtf1\\ansi\\ansicpg1251 \\'cf\\'f0\\'e8\\'e2\\'e5\\'f2}", 'latin1');
    expect(rtfToText(rtf, 1000).text).toBe('Привет');
  });

  it('stops at the character budget', () => {
    expect(rtfToText(Buffer.from(`{\\rtf1 ${'x'.repeat(500)}}`), 100)).toMatchObject({ truncated: true });
  });
});

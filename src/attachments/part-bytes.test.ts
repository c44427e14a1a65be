// Attachment bytes read back from raw messages: whether found by the raw MIME walk or by the
// full parse, they are the bytes the parser stored, for every attachment of real layouts.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseMessage } from '../parse/index.js';
import { makeLigaturePdf, makeMessageWith } from './fixtures.js';
import { messagePart } from './index.js';

const fixture = (path: string): Buffer =>
  readFileSync(new URL(`../../test/fixtures/${path}`, import.meta.url));

const messages: Record<string, Buffer> = {
  'base64 PDF and CSV': makeMessageWith([
    { filename: 'access.csv', contentType: 'text/csv', content: Buffer.from('name;company\nJana;Nord\n') },
    { filename: 'floor-plan.pdf', contentType: 'application/pdf', content: makeLigaturePdf() },
  ]),
  'Apple Mail: related, alternative, inline image, PDF, attached message': fixture(
    'headers/apple-mail-attachments.eml',
  ),
  'forwarded dispute with a CSV': fixture('attachments/forwarded-delivery-dispute.eml'),
  'named text part without a disposition': fixture('search/attachment-contract.eml'),
  'freight report CSV': fixture('http/acme/freight-report.eml'),
};

describe('messagePart', () => {
  for (const [name, message] of Object.entries(messages)) {
    it(`returns the parser's bytes for every attachment: ${name}`, async () => {
      const { attachments } = await parseMessage(message);
      expect(attachments.length).toBeGreaterThan(0);
      for (const [ordinal, attachment] of attachments.entries()) {
        const input = { filename: attachment.filename, contentType: attachment.contentType, message };
        const atOrdinal = await messagePart({ ...input, ordinal, sha256: attachment.sha256 });
        expect(atOrdinal.content.equals(attachment.content)).toBe(true);
        // An ordinal pointing elsewhere (parts reordered) still finds the part by its hash.
        const elsewhere = await messagePart({ ...input, ordinal: ordinal + 1, sha256: attachment.sha256 });
        expect(elsewhere.content.equals(attachment.content)).toBe(true);
      }
    });
  }

  it('falls back to the parser where the raw walk decodes a part differently', async () => {
    // Padding inside base64: the parser decodes past it, Buffer's decoder stops there.
    const message = Buffer.from(
      [
        'From: Jana Krüger <jana@bauplan-nord.example>',
        'To: facilities@acme-corp.com',
        'Subject: Badge export',
        'MIME-Version: 1.0',
        'Content-Type: multipart/mixed; boundary="=_b"',
        '',
        '--=_b',
        'Content-Type: text/plain',
        '',
        'The badge export is attached.',
        '--=_b',
        'Content-Type: application/octet-stream; name="badges.bin"',
        'Content-Disposition: attachment; filename="badges.bin"',
        'Content-Transfer-Encoding: base64',
        '',
        'QUJD=QUJD',
        '--=_b--',
        '',
      ].join('\r\n'),
    );
    const [attachment] = (await parseMessage(message)).attachments;
    const part = await messagePart({
      filename: 'badges.bin',
      contentType: 'application/octet-stream',
      message,
      ordinal: 0,
      sha256: attachment?.sha256 ?? '',
    });
    expect(part.content.toString('latin1')).toBe('ABCABC');
  });
});

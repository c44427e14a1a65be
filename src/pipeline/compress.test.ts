import { randomBytes } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { deflateRaw, deflateText, rawStrategy } from './compress.js';

/** A Gmail-style message carrying a base64 attachment of `size` incompressible bytes. */
function withAttachment(size: number): Buffer {
  const head = [
    'From: Marta Rossi <marta.rossi@rossi-trasporti.it>',
    'To: Tom Baker <tom@acme-corp.com>',
    'Subject: scansione bolla di consegna',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="000000000000a1b2c3"',
    '',
    '--000000000000a1b2c3',
    'Content-Type: text/plain; charset="UTF-8"',
    '',
    'Ciao Tom, in allegato la bolla firmata.',
    '',
    '--000000000000a1b2c3',
    'Content-Type: application/pdf; name="bolla-2211.pdf"',
    'Content-Transfer-Encoding: base64',
    '',
    '',
  ].join('\r\n');
  const body = randomBytes(size).toString('base64').replace(/.{76}/g, '$&\r\n');
  return Buffer.from(`${head}${body}\r\n--000000000000a1b2c3--\r\n`);
}

/** A long HTML newsletter: repetitive markup that LZ77 shrinks several times over. */
function newsletter(): Buffer {
  const rows = Array.from(
    { length: 600 },
    (_, i) =>
      `<tr><td style="padding:8px;font-family:Arial,sans-serif;color:#333">Steel coil lot ${i}</td><td>EUR ${(i * 7.3).toFixed(2)}</td></tr>`,
  );
  return Buffer.from(
    `Subject: Weekly price list\r\nContent-Type: text/html\r\n\r\n<table>${rows.join('\n')}</table>`,
  );
}

describe('raw message compression', () => {
  it('Huffman-codes a message that is mostly a base64 attachment, and it inflates back byte for byte', () => {
    const raw = withAttachment(200 * 1024);
    expect(rawStrategy(raw)).toBe('huffman');
    const deflated = deflateRaw(raw);
    expect(inflateRawSync(deflated).equals(raw)).toBe(true);
    // Entropy coding alone still takes base64's 6 bits per character.
    expect(deflated.length / raw.length).toBeLessThan(0.78);
  });

  it('keeps LZ77 for large text and for ordinary small mail', () => {
    const html = newsletter();
    expect(html.length).toBeGreaterThan(64 * 1024);
    expect(rawStrategy(html)).toBe('lz');
    expect(deflateRaw(html).length / html.length).toBeLessThan(0.2);
    expect(rawStrategy(withAttachment(2 * 1024))).toBe('lz');
  });

  it('round-trips text bodies', () => {
    const json = JSON.stringify({ authored: 'Grazie, ci sentiamo lunedì — Marta', quoted: '' });
    expect(inflateRawSync(deflateText(json)).toString('utf8')).toBe(json);
  });
});

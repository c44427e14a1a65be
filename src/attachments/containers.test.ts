// Containers beyond zip: winmail.dat (TNEF) unwrapped to its body and inner files.
import { describe, expect, it } from 'vitest';
import { makePdf, makeTnef } from './fixtures.js';
import { createExtractor } from './index.js';

const extractor = createExtractor({ workers: 0 });

describe('winmail.dat (TNEF)', () => {
  it('unwraps the body and the attachments, named by their Unicode long filename', async () => {
    const pdf = await makePdf([['Angebot 2024-881', 'Gesamtpreis 18.300 EUR']]);
    const tnef = makeTnef('Sehr geehrte Damen und Herren, anbei unser Angebot.', [
      { title: 'ANGEBO~1.PDF', longName: 'Angebot_Lagerräume_2024.pdf', mime: 'application/pdf', data: pdf },
      {
        title: 'NOTES.TXT',
        longName: 'notes.txt',
        mime: 'text/plain',
        data: Buffer.from('Lieferung ab KW 32'),
      },
    ]);
    const result = await extractor.extract({
      filename: 'winmail.dat',
      contentType: 'application/ms-tnef',
      content: tnef,
    });
    expect(result).toMatchObject({ status: 'ok', format: 'tnef', detectedType: 'application/vnd.ms-tnef' });
    expect(result.children?.map((c) => [c.name, c.extraction.format, c.extraction.status])).toEqual([
      ['Angebot_Lagerräume_2024.pdf', 'pdf', 'ok'],
      ['notes.txt', 'text', 'ok'],
    ]);
    expect(result.text).toBe(
      'Sehr geehrte Damen und Herren, anbei unser Angebot.\n\n== Angebot_Lagerräume_2024.pdf ==\nAngebot 2024-881\nGesamtpreis 18.300 EUR\n\n== notes.txt ==\nLieferung ab KW 32',
    );
  });

  it('is recognised by its signature even when sent as application/octet-stream', async () => {
    const tnef = makeTnef('body only', []);
    const result = await extractor.extract({
      filename: 'att00001.bin',
      contentType: 'application/octet-stream',
      content: tnef,
    });
    expect(result).toMatchObject({ status: 'ok', format: 'tnef', text: 'body only' });
  });

  it('fails a truncated stream with what is wrong', async () => {
    const tnef = makeTnef('x', [
      { title: 'A.TXT', longName: 'a.txt', mime: 'text/plain', data: Buffer.from('hello world') },
    ]);
    const result = await extractor.extract({
      filename: 'winmail.dat',
      contentType: 'application/ms-tnef',
      content: tnef.subarray(0, tnef.length - 40),
    });
    expect(result.status).toBe('failed');
    expect(result.reason).toMatch(/^corrupt tnef/);
  });
});

// `mailsift ingest --no-extract` stores and indexes messages without waiting on attachment
// extraction; `status` shows the backlog and `mailsift extract` drains it into the index.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makePdf } from '../../src/attachments/fixtures.js';
import { tempDir } from '../temp.js';
import { runCli } from './cli.js';

/** A reply from Thunderbird forwarding a signed quote as a PDF attachment. */
function quoteMail(pdf: Buffer): string {
  return [
    'Message-ID: <5f1c2e7a-quote@studio-verdi.it>',
    'From: Chiara Verdi <chiara@studio-verdi.it>',
    'To: Tom Baker <tom@acme-corp.com>',
    'Subject: Re: quote for the Lisbon office fit-out',
    'Date: Wed, 14 May 2025 16:02:11 +0200',
    'User-Agent: Mozilla Thunderbird',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="------------tb8Q2wPpX1"',
    '',
    '--------------tb8Q2wPpX1',
    'Content-Type: text/plain; charset=UTF-8; format=flowed',
    '',
    'Hi Tom, the signed quote is attached.',
    '',
    '--------------tb8Q2wPpX1',
    'Content-Type: application/pdf; name="preventivo-lisbona.pdf"',
    'Content-Disposition: attachment; filename="preventivo-lisbona.pdf"',
    'Content-Transfer-Encoding: base64',
    '',
    pdf.toString('base64').replace(/.{76}/g, '$&\r\n'),
    '--------------tb8Q2wPpX1--',
    '',
  ].join('\r\n');
}

describe('ingest --no-extract, then extract', () => {
  it('makes the message searchable first and the attachment text once extracted', async () => {
    const dir = tempDir('mailsift-extract-');
    const pdf = await makePdf([
      ['Preventivo', 'Acoustic ceiling panels, 240 square metres, installed by June.'],
    ]);
    writeFileSync(join(dir, 'quote.eml'), quoteMail(pdf));
    const db = join(dir, 'archive.db');
    const json = (args: string[]) => {
      const result = runCli([...args, '--db', db, '--json']);
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      return JSON.parse(result.stdout);
    };

    expect(json(['ingest', dir, '--no-extract'])).toMatchObject({ added: 1 });
    expect(json(['status'])).toMatchObject({ pendingAttachments: 1 });
    expect(json(['search', 'acoustic ceiling']).count).toBe(0);
    expect(json(['search', 'signed quote']).count).toBe(1);

    expect(json(['extract'])).toMatchObject({ attachments: 1, ok: 1, messagesReindexed: 1, remaining: 0 });
    expect(json(['status'])).toMatchObject({ pendingAttachments: 0 });
    const found = json(['search', 'acoustic ceiling']);
    expect(found.messages[0]).toMatchObject({ messageId: '5f1c2e7a-quote@studio-verdi.it' });
    expect(Object.keys(found.messages[0].highlights)).toEqual(['attachments']);
  });
});

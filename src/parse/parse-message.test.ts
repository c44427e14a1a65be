import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isMailsiftError } from '../core/errors.js';
import { parseMessage } from './index.js';

const fixture = (path: string): Buffer =>
  readFileSync(new URL(`../../test/fixtures/${path}`, import.meta.url));

describe('headers', () => {
  it('reads a Gmail Takeout message: thread id, labels, auth, references, list id', async () => {
    const message = await parseMessage(fixture('headers/gmail-takeout.eml'));
    expect(message.messageId).toBe('CAFx3kq7Ld9Vm2+Q8wYp1rT=Zb@mail.gmail.example');
    expect(message.gmailThreadId).toBe('1801234567890123456');
    expect(message.labels).toEqual([
      'inbox',
      'important',
      'opened',
      'category updates',
      'clients, 2024',
      'starred',
      'nonjunk',
      '$forwarded',
    ]);
    // The second Authentication-Results (dmarc=fail) came with the message and is ignored.
    expect(message.auth).toEqual({ dkim: 'pass', spf: 'pass', dmarc: 'pass' });
    expect(message.references).toEqual([
      'CAFx3kq7Ld9Vm2+Q8wYp0zz@mail.gmail.example',
      'CAFx3kq7Ld9Vm2+Q8wYp0yy@mail.gmail.example',
      '1718701234.5566@legacy.example',
      'missing-end@legacy.example',
      'CAFx3kq7Ld9Vm2+Q8wYp0aa@mail.gmail.example',
    ]);
    expect(message.inReplyTo).toBe('CAFx3kq7Ld9Vm2+Q8wYp0aa@mail.gmail.example');
    expect(message.listId).toBe('receipts.stripe.example');
    expect(message.replyTo).toEqual([{ name: 'Stripe Support', address: 'support@stripe.example' }]);
    expect(message.date.toISOString()).toBe('2024-06-18T13:12:41.000Z');
    expect(message.dateSource).toBe('date');
    expect(message.warnings).toEqual([]);
  });

  it('reads an Outlook phish: Thread-Index, dmarc=fail, empty Message-ID', async () => {
    const message = await parseMessage(fixture('headers/outlook-dmarc-fail.eml'));
    expect(message.outlookThreadIndex).toBe('AdrGF3tJ0q1wL2l9Sw6dE0vT5tUAbQ==');
    expect(message.auth).toEqual({ spf: 'softfail', dkim: 'none', dmarc: 'fail' });
    expect(message.messageId).toBeNull();
    expect(message.warnings).toContain('header: unusable Message-ID');
    expect(message.to).toEqual([{ name: 'Van der Berg, Pieter', address: 'p.vanderberg@example.nl' }]);
    expect(message.subject).toBe('Uw rekening is tijdelijk beperkt');
  });

  it('decodes subjects split inside a multi-byte character, mixing B and Q words and charsets', async () => {
    const message = await parseMessage(fixture('headers/encoded-words.eml'));
    expect(message.subject).toBe('Отчёт: итоги квартала 📊 - et résumé');
    expect(message.from).toEqual({ name: 'Анна Кузнецова', address: 'anna.k@yandex.example' });
    expect(message.to).toEqual([{ name: 'François Dupré', address: 'francois@example.com' }]);
  });

  it('repairs raw 8-bit headers: utf-8 kept, windows-1252 re-decoded', async () => {
    const message = await parseMessage(fixture('headers/undeclared-8bit-headers.eml'));
    expect(message.from).toEqual({ name: 'Zoë Müller', address: 'zoe@example.at' });
    expect(message.subject).toBe('Grüße aus Österreich – Prüfbericht');
    expect(message.warnings).toEqual(['charset: undeclared 8-bit subject header decoded as windows-1252']);
  });

  it('reads raw windows-1251 headers with the charset the body declares', async () => {
    const message = await parseMessage(fixture('headers/raw-cp1251-headers.eml'));
    expect(message.subject).toBe('Отчёт за март');
    expect(message.from).toEqual({ name: 'Дмитрий Орлов', address: 'orlov@example-isp.ru' });
    expect(message.text).toBe('Добрый день!\nОтчёт во вложении.');
    expect(message.warnings).toEqual([
      'charset: undeclared 8-bit from header decoded as windows-1251',
      'charset: undeclared 8-bit subject header decoded as windows-1251',
    ]);
  });

  it('keeps what can be read of unparseable address text', async () => {
    const bytes = Buffer.from(
      'From: Accounts Payable\r\nTo: <>, "Quoted, Name" <Q@X.example>, undisclosed-recipients:;\r\n' +
        'Cc: "unterminated <a@B.example>\r\nDate: Tue, 4 Jun 2024 10:00:00 +0200\r\n\r\nx\r\n',
    );
    const message = await parseMessage(bytes);
    expect(message.from).toEqual({ name: 'Accounts Payable', address: '' });
    expect(message.to).toEqual([{ name: 'Quoted, Name', address: 'q@x.example' }]);
    expect(message.cc).toEqual([{ name: 'unterminated', address: 'a@b.example' }]);
  });

  it('decodes a broken encoded word as far as it can, without throwing', async () => {
    const bytes = Buffer.from(
      'From: =?utf-8?B?not base64!?= <x@example.com>\r\nSubject: =?utf-8?Q?caf=C3=A9?= =?bogus-charset?Q?ol=E9?= =?utf-8?Q?broken\r\n\r\nbody\r\n',
    );
    const message = await parseMessage(bytes);
    expect(message.subject.startsWith('café')).toBe(true);
    expect(message.from?.address).toBe('x@example.com');
  });
});

describe('dates', () => {
  it('falls back to the topmost Received header when Date is missing', async () => {
    const message = await parseMessage(fixture('headers/received-date.eml'));
    expect(message.dateSource).toBe('received');
    expect(message.date.toISOString()).toBe('2024-06-22T15:04:33.000Z');
    expect(message.messageId).toBeNull();
  });

  it('falls back to Received when Date cannot be read', async () => {
    const message = await parseMessage(fixture('broken/truncated-multipart.eml'));
    expect(message.dateSource).toBe('received');
    expect(message.date.toISOString()).toBe('2024-06-28T06:30:02.000Z');
    expect(message.warnings).toContain('date: unusable Date header "Freitag, 28. Juni"');
  });

  it('falls back to the file time for a date in the future, then to epoch 0', async () => {
    const fileTime = new Date('2024-03-01T12:00:00Z');
    const withFile = await parseMessage(fixture('broken/future-date.eml'), { fileTime });
    expect(withFile.dateSource).toBe('file');
    expect(withFile.date).toEqual(fileTime);
    const without = await parseMessage(fixture('broken/future-date.eml'));
    expect(without.dateSource).toBe('none');
    expect(without.date.getTime()).toBe(0);
  });

  it('treats a 1970 date as unusable', async () => {
    const message = await parseMessage(fixture('broken/epoch-date.eml'), { fileTime: null });
    expect(message.dateSource).toBe('none');
    expect(message.warnings[0]).toMatch(/^date: unusable Date header/);
  });
});

describe('body and attachments', () => {
  it('reads an Apple Mail message: alternative body, inline image, RFC 2231 filename, forwarded message', async () => {
    const message = await parseMessage(fixture('headers/apple-mail-attachments.eml'));
    expect(message.text).toBe(
      'Hallo Jörg,\n\nanbei die Jahresübersicht und der weitergeleitete Lieferplan.\n\nStefan',
    );
    expect(message.html).toContain('<img src="cid:logo-4711@example-mail.de">');
    expect(message.cc).toEqual([
      { name: '', address: 'anna@example.de' },
      { name: 'Ben Roth', address: 'ben@example.de' },
    ]);
    expect(message.to).toEqual([{ name: 'Jörg Hartmann', address: 'joerg.hartmann@example.de' }]);
    const [logo, pdf, forwarded] = message.attachments;
    expect(logo).toMatchObject({
      filename: 'logo.png',
      contentType: 'image/png',
      inline: true,
      contentId: 'logo-4711@example-mail.de',
    });
    expect(pdf).toMatchObject({
      filename: 'Übersicht Geschäftsjahr 2023–2024 (endgültig).pdf',
      contentType: 'application/pdf',
      inline: false,
      contentId: null,
    });
    expect(pdf?.content.toString('latin1').startsWith('%PDF-1.4')).toBe(true);
    expect(pdf?.size).toBe(pdf?.content.length);
    expect(pdf?.sha256).toBe(
      createHash('sha256')
        .update(pdf?.content ?? '')
        .digest('hex'),
    );
    expect(forwarded).toMatchObject({ filename: 'Lieferplan KW 27.eml', contentType: 'message/rfc822' });
    expect(forwarded?.content.toString()).toContain('Die Lieferung verschiebt sich auf Donnerstag.');
    expect(message.text).not.toContain('Lieferung');
  });

  it('keeps an inline forwarded message as an attachment, not merged into the body', async () => {
    const bytes = Buffer.from(
      fixture('headers/apple-mail-attachments.eml')
        .toString('utf8')
        .replace(
          'Content-Disposition: attachment;\r\n\tfilename="Lieferplan',
          'Content-Disposition: inline;\r\n\tfilename="Lieferplan',
        ),
    );
    const message = await parseMessage(bytes);
    expect(message.attachments.map((a) => a.contentType)).toContain('message/rfc822');
    expect(message.text).not.toContain('Lieferung');
  });

  it('reads a truncated multipart with an unknown charset', async () => {
    const message = await parseMessage(fixture('broken/truncated-multipart.eml'));
    expect(message.text).toBe('Sommer-Sale: bis zu 50% auf alles – für Sie.');
    expect(message.html).toContain('Nur diese Woche!');
    expect(message.messageId).toBe('nl-2024-06-28.lena@shop.example');
    expect(message.warnings).toContain('charset: text/plain body declared x-unknown decoded as windows-1252');
  });

  it('returns null text and html for a headers-only message, and reads bare LF line ends', async () => {
    const message = await parseMessage(Buffer.from('From: a@example.com\nSubject: only headers\n'));
    expect(message.subject).toBe('only headers');
    expect(message.text).toBeNull();
    expect(message.html).toBeNull();
  });

  it('skips an mbox From_ line in front of the headers', async () => {
    const bytes = Buffer.from(
      'From a@example.com Mon Jun  3 10:00:00 2024\nFrom: A <a@example.com>\nSubject: hi\n\nbody\n',
    );
    const message = await parseMessage(bytes);
    expect(message.from).toEqual({ name: 'A', address: 'a@example.com' });
    expect(message.text).toBe('body');
  });
});

describe('not a message', () => {
  const notMail: [string, Buffer][] = [
    ['empty input', Buffer.alloc(0)],
    ['binary data', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x3a, 0x0d])],
    ['plain text', Buffer.from('Dear John,\n\nthis is a letter, not an email.\n')],
    ['a body with no headers', Buffer.from('\r\nbody only\r\n')],
  ];
  for (const [label, bytes] of notMail) {
    it(`throws bad_format for ${label}`, async () => {
      const error = await parseMessage(bytes).catch((e: unknown) => e);
      expect(isMailsiftError(error) && error.code).toBe('bad_format');
    });
  }
});

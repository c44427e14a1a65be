import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseMessage } from './index.js';

const fixture = (name: string): Buffer =>
  readFileSync(new URL(`../../test/fixtures/charsets/${name}`, import.meta.url));

describe('declared legacy charsets, bodies and subjects', () => {
  const cases = [
    {
      file: 'iso-2022-jp.eml',
      subject: '【議事録】来週の定例会議について',
      from: '佐藤 健',
      text: '来週火曜日の定例会議は十四時から第二会議室で行います。',
    },
    {
      file: 'koi8-r.eml',
      subject: 'Счёт за апрель и акт сверки',
      from: 'Алексей Петров',
      text: 'Высылаю счёт за апрель и акт сверки взаиморасчётов.',
    },
    {
      file: 'windows-1251.eml',
      subject: 'Совещание по бюджету — перенос',
      from: 'Елена Смирнова',
      text: '«Повестка» прежняя.',
    },
    {
      file: 'windows-1252.eml',
      subject: 'Invoice “Q2” – €1,250 due',
      from: 'Dana Whitfield',
      text: 'Please find the “Q2” invoice below – total €1,250.00, due June 30.\nIt’s the same rate as last quarter… no changes.',
    },
    {
      file: 'gb2312.eml',
      subject: '关于下周产品发布会的安排',
      from: '李明',
      text: '您好！下周三的产品发布会定在上午十点，地点在公司三楼大会议室。',
    },
    {
      file: 'big5.eml',
      subject: '會議紀錄與下次開會時間',
      from: '林小姐',
      text: '附上本週會議紀錄，下次開會時間為星期五下午兩點。',
    },
  ];

  for (const { file, subject, from, text } of cases) {
    it(`decodes ${file}`, async () => {
      const message = await parseMessage(fixture(file));
      expect(message.subject).toBe(subject);
      expect(message.from?.name).toBe(from);
      expect(message.text).toContain(text);
      expect(message.text).not.toContain('\uFFFD');
      expect(message.warnings).toEqual([]);
    });
  }
});

describe('mislabelled and undeclared 8-bit bodies', () => {
  it('re-decodes a windows-1252 body declared utf-8, € and — included', async () => {
    const message = await parseMessage(fixture('latin1-declared-utf8.eml'));
    expect(message.text).toContain('Votre commande n° 48213 (59,90 €) a été expédiée.');
    expect(message.text).toContain('Merci de votre fidélité — à bientôt !');
    expect(message.text).not.toContain('\uFFFD');
    expect(message.subject).toBe('Votre commande n° 48213 a été expédiée');
    expect(message.warnings).toEqual(['charset: text/plain body declared utf-8 decoded as windows-1252']);
  });

  it('detects the charset of an 8-bit body with no MIME headers', async () => {
    const message = await parseMessage(fixture('undeclared-8bit.eml'));
    expect(message.text).toContain('Отправляю отчёт по серверам за неделю. Диск на db02 заполнен на 91%,');
    expect(message.warnings).toEqual([
      'charset: text/plain body declared no charset decoded as windows-1251',
    ]);
  });

  it('keeps valid utf-8 and decodes only the stray latin-1 run of a mixed body', async () => {
    const message = await parseMessage(fixture('mixed-utf8-latin1.eml'));
    expect(message.text).toContain('anbei die Übersicht für März — bitte prüfen.');
    expect(message.text).toContain('Grüße aus München\nStefan Weiß');
    expect(message.warnings).toEqual([
      'charset: text/plain body declared UTF-8 decoded as utf-8+windows-1252',
    ]);
  });

  it('keeps flowed text rules and headers when the part is rewritten', async () => {
    const message = await parseMessage(fixture('mixed-utf8-latin1.eml'));
    expect(message.messageId).toBe('5e6f7a8b-1c2d-4e3f-9a0b-c1d2e3f4a5b6@example-mail.de');
    expect(message.subject).toBe('Übersicht März');
    expect(message.attachments).toEqual([]);
  });
});

describe('labels that differ from the bytes', () => {
  it('reads windows-1252 characters in text labelled iso-8859-1, as Outlook sends it', async () => {
    const message = await parseMessage(fixture('iso-8859-1-smart-quotes.eml'));
    expect(message.subject).toBe('Your “Premium” plan – €49');
    expect(message.html).toContain(
      '<p>Dear Mr. O’Neill,</p><p>the “Premium” plan costs €49 – billed yearly.</p>',
    );
    expect(message.text).toBeNull();
    expect(message.warnings).toEqual([]);
  });

  it('repairs a mislabelled html part and leaves the correct text part alone', async () => {
    const html = Buffer.concat([
      Buffer.from('<p>Pr'),
      Buffer.from([0xe9]),
      Buffer.from('sentation du budget: 1 200 '),
      Buffer.from([0x80]),
      Buffer.from('</p>'),
    ]);
    const bytes = Buffer.concat([
      Buffer.from(
        'From: Claire <claire@example.fr>\r\nSubject: budget\r\nDate: Tue, 4 Jun 2024 10:00:00 +0200\r\n' +
          'Content-Type: multipart/alternative; boundary="alt"\r\n\r\n--alt\r\n' +
          'Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\nPrésentation du budget: 1 200 €\r\n' +
          '--alt\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n',
      ),
      html,
      Buffer.from('\r\n--alt--\r\n'),
    ]);
    const message = await parseMessage(bytes);
    expect(message.text).toBe('Présentation du budget: 1 200 €');
    expect(message.html).toBe('<p>Présentation du budget: 1 200 €</p>');
    expect(message.warnings).toEqual(['charset: text/html body declared utf-8 decoded as windows-1252']);
  });

  it('keeps a replacement character the sender really sent', async () => {
    const bytes = Buffer.from(
      'From: a@example.com\r\nSubject: x\r\nDate: Tue, 4 Jun 2024 10:00:00 +0200\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nbroken \uFFFD char\r\n',
    );
    const message = await parseMessage(bytes);
    expect(message.text).toBe('broken \uFFFD char');
    expect(message.warnings).toEqual([]);
  });
});

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, describe, expect, it } from 'vitest';
import { header, textParts } from '../test-helpers.js';
import { writeMaildir } from '../writers.js';
import { buildSample, type SampleMessage } from './index.js';

const sample = buildSample();
const byId = (id: string): SampleMessage => {
  const m = sample.find((x) => x.messageId === id);
  if (!m) throw new Error(`no sample message ${id}`);
  return m;
};
const tmp = mkdtempSync(join(tmpdir(), 'mailsift-sample-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('bundled sample mailbox', () => {
  it('is deterministic and sized for a repository', () => {
    const again = buildSample();
    expect(again.map((m) => m.bytes.toString('base64'))).toEqual(
      sample.map((m) => m.bytes.toString('base64')),
    );
    expect(sample.length).toBeGreaterThanOrEqual(300);
    expect(sample.length).toBeLessThanOrEqual(400);
    expect(sample.filter((m) => m.origin === 'story').length).toBeGreaterThan(60);
    expect(sample.reduce((s, m) => s + m.bytes.length, 0)).toBeLessThan(2.5 * 1024 * 1024);
  });

  it('parses every hand-written message with mailparser, headers and text intact', async () => {
    for (const m of sample.filter((x) => x.origin === 'story')) {
      const parsed = await simpleParser(m.bytes);
      expect(parsed.subject).toBe(m.subject);
      expect(parsed.from?.value[0]?.address).toMatch(/@/);
      if (m.messageId) expect(parsed.messageId).toBe(`<${m.messageId}>`);
      const body = parsed.text || parsed.html || '';
      expect(body.length, m.subject).toBeGreaterThan(20);
      expect(body).not.toContain('\uFFFD');
    }
  });

  it('tells the supplier dispute story with a consistent reply chain', async () => {
    const dispute = byId('nw-dispute-0304@nordwind-logistik.de');
    expect(dispute.date.toISOString()).toBe('2024-03-04T15:48:00.000Z');
    const parsed = await simpleParser(dispute.bytes);
    expect(parsed.text).toContain('We never agreed to a first delivery on 12 February');
    expect(parsed.text).toContain('-----Original Message-----');
    expect(parsed.inReplyTo).toBe('<CAH7Lb2q0MAR01short@mail.gmail.com>');
    const thread = sample.filter((m) => m.threadKey === 'supplier-po-7731');
    expect(thread.length).toBeGreaterThanOrEqual(15);
    const ids = new Set(thread.map((m) => m.messageId));
    for (const m of thread.slice(1)) {
      const refs = [...(header(m.bytes, 'References') ?? '').matchAll(/<([^>]+)>/g)].map((x) => x[1]);
      for (const r of refs) expect(ids.has(r as string)).toBe(true);
    }
  });

  it('quotes in each language the way its clients do', async () => {
    const text = async (id: string): Promise<string> => (await simpleParser(byId(id).bytes)).text ?? '';
    expect(await text('CAH7Lb2q0it0111@mail.gmail.com')).toMatch(
      /Il giorno mer 10 gen 2024 alle ore 11:20 Giulia Ferrari <giulia\.ferrari@fornitureitalia\.it> ha scritto:\n\n> Gentile Laura,/,
    );
    expect(await text('3b9e21d4-olga-0516@acme-corp.com')).toMatch(
      /Дмитрий Соколов <d\.sokolov@ural-trans\.ru> написал\(а\):\n> Ольга, добрый день!/,
    );
    expect(await text('CAM4rco-avis-reply@mail.gmail.com')).toMatch(
      /Am Di\., 26\. März 2024 um 07:45 Uhr schrieb Anna Schmidt/,
    );
    expect(await text('nw-dispute-0304@nordwind-logistik.de')).toContain(
      'Sent: Friday, March 1, 2024 9:05 AM',
    );
    const html = (await simpleParser(byId('CAH7Lb2q0MAR08reply@mail.gmail.com').bytes)).html || '';
    expect(html).toContain('class="gmail_quote"');
    const outlook =
      (
        await simpleParser(
          byId('AM0PR07MB5121C3D4E5F6A7B8C9D0E1F2A3B4C5D6@AM0PR07MB5121.eurprd07.prod.outlook.com').bytes,
        )
      ).html || '';
    expect(outlook).toContain('id="divRplyFwdMsg"');
  });

  it('declares the legacy charsets its senders use', () => {
    const charsets = new Set(
      sample.filter((m) => m.origin === 'story').flatMap((m) => textParts(m.bytes).map((p) => p.charset)),
    );
    for (const cs of [
      'utf-8',
      'iso-8859-1',
      'windows-1252',
      'koi8-r',
      'windows-1251',
      'iso-2022-jp',
      'gb2312',
    ])
      expect(charsets).toContain(cs);
  });

  it('holds the defects an ingester must handle', async () => {
    const receipts = sample.filter((m) => m.messageId?.includes('28174471p'));
    expect(receipts.map((m) => `${m.folder}:${m.where}`).sort()).toEqual(['Archive:maildir', 'INBOX:both']);
    expect(receipts[0]?.bytes.equals(receipts[1]?.bytes as Buffer)).toBe(true);
    expect(sample.filter((m) => m.where === 'both').length).toBeGreaterThan(5);
    expect(sample.some((m) => m.origin === 'story' && m.messageId === null)).toBe(true);
    const spam = sample.filter((m) => m.kind === 'spam' && m.origin === 'story');
    expect(spam.map((m) => m.folder).sort()).toEqual(['INBOX', 'Spam', 'Spam']);
    for (const m of spam) expect(header(m.bytes, 'Authentication-Results')).toMatch(/dmarc=fail/);
    const memo = await simpleParser(
      byId('BN6PR11MB7781SHUTDOWN0805@BN6PR11MB7781.namprd11.prod.outlook.com').bytes,
    );
    expect(memo.html).toContain('inventory count');
    expect(
      textParts(byId('BN6PR11MB7781SHUTDOWN0805@BN6PR11MB7781.namprd11.prod.outlook.com').bytes).map(
        (p) => p.subtype,
      ),
    ).toEqual(['html']);
    const fwd = await simpleParser(
      byId('BN6PR11MB7781FWINV4473@BN6PR11MB7781.namprd11.prod.outlook.com').bytes,
    );
    expect(fwd.attachments[0]?.contentType).toBe('message/rfc822');
    expect(fwd.attachments[0]?.content.toString()).toContain('Payment failed for invoice INV-4473');
  });

  it('matches the committed sample/ tree', async () => {
    const committed = resolve(import.meta.dirname, '../../../sample/Maildir');
    if (!existsSync(committed)) return;
    const fresh = join(tmp, 'Maildir');
    await writeMaildir(
      fresh,
      sample.filter((m) => m.where !== 'mbox'),
    );
    const list = (root: string): string[] =>
      readdirSync(root, { recursive: true, withFileTypes: true })
        .filter((d) => d.isFile() && d.name !== '.gitkeep')
        .map((d) => join(d.parentPath, d.name).slice(root.length))
        .sort();
    expect(list(committed)).toEqual(list(fresh));
    for (const f of list(fresh))
      expect(readFileSync(join(committed, f)).equals(readFileSync(join(fresh, f))), f).toBe(true);
  });
});

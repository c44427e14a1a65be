// Attachment text in agent search: a phrase found only inside a PDF is attributed to the
// attachments field, lists filter by attachment type, and deleted mail takes its text along.

import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDocx, makePdf } from '../attachments/fixtures.js';
import { MailsiftError } from '../core/errors.js';
import { Mailsift } from '../engine.js';
import { listMessages, searchMessages } from './index.js';

interface Part {
  readonly filename: string;
  readonly contentType: string;
  readonly content: Buffer;
  /** An inline part referenced from the HTML body (a signature logo), not an attachment. */
  readonly inline?: boolean;
}

/** A message from the procurement team of a wholesale firm, with the given parts attached. */
function message(
  id: string,
  day: number,
  subject: string,
  body: string,
  parts: readonly Part[],
  month = 'Mar',
): string {
  const head = [
    `Message-ID: <${id}@einkauf.hafenkontor.de>`,
    'From: "Hafenkontor Einkauf" <einkauf@hafenkontor.de>',
    'To: legal@acme-corp.com',
    `Subject: ${subject}`,
    `Date: ${String(day).padStart(2, '0')} ${month} 2025 10:30:00 +0100`,
    'MIME-Version: 1.0',
  ];
  if (parts.length === 0)
    return [...head, 'Content-Type: text/plain; charset=utf-8', '', body, ''].join('\r\n');
  const lines = [...head, 'Content-Type: multipart/mixed; boundary="hk-part"', '', '--hk-part'];
  lines.push('Content-Type: text/plain; charset=utf-8', '', body, '');
  parts.forEach((part, n) => {
    const disposition = part.inline ? 'inline' : 'attachment';
    lines.push(
      '--hk-part',
      `Content-Type: ${part.contentType}; name="${part.filename}"`,
      `Content-Disposition: ${disposition}; filename="${part.filename}"`,
      ...(part.inline ? [`Content-ID: <logo-${n}@hafenkontor.de>`] : []),
      'Content-Transfer-Encoding: base64',
      '',
      part.content.toString('base64').replace(/.{76}/g, '$&\r\n'),
    );
  });
  lines.push('--hk-part--', '');
  return lines.join('\r\n');
}

/** The smallest valid PNG: a 1×1 grey pixel, enough for magic-byte sniffing. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNoAAAAggCBd81ytgAAAABJRU5ErkJggg==',
  'base64',
);

const CLAUSE = 'Liquidated damages are capped at fourteen percent of the annual order volume.';

let dir: string;
let engine: Mailsift;
const ids = (params: Record<string, unknown>): string[] =>
  listMessages(engine.archive.db, { limit: 100, ...params }).messages.map((m) => m.messageId);
const search = (q: string) => searchMessages(engine.archive.db, { q, limit: 100 });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mailsift-search-attach-'));
  const contract = await makePdf([['Framework supply agreement 2025', CLAUSE]]);
  const pricelist = await makePdf([['Price list spring 2025', 'Item 4410 pallet wrap, 18.40 EUR per roll']]);
  const minutes = await makeDocx(['Minutes of the supplier meeting', 'Next review in June.']);
  const messages: Record<string, string> = {
    contract: message('contract', 3, 'Framework agreement for signature', 'Please sign and return.', [
      { filename: 'Rahmenvertrag-2025.pdf', contentType: 'application/pdf', content: contract },
    ]),
    // Declared octet-stream: the filter follows the sniffed type, not the sender's label.
    'prices-a': message('prices-a', 5, 'Spring prices', 'Our new prices, as promised.', [
      { filename: 'prices.pdf', contentType: 'application/octet-stream', content: pricelist },
    ]),
    'prices-b': message('prices-b', 7, 'Spring prices (resent)', 'Resending the prices.', [
      { filename: 'prices.pdf', contentType: 'application/pdf', content: pricelist },
    ]),
    minutes: message('minutes', 9, 'Meeting minutes', 'Minutes attached.', [
      { filename: 'minutes.docx', contentType: 'application/octet-stream', content: minutes },
    ]),
    photo: message('photo', 11, 'Damaged pallet', 'Photo of the damage.', [
      { filename: 'pallet.png', contentType: 'image/png', content: PNG },
    ]),
    signature: message('signature', 13, 'Delivery slot', 'Thursday 8:00 works for us.', [
      { filename: 'logo.png', contentType: 'image/png', content: PNG, inline: true },
    ]),
    plain: message('plain', 15, 'Invoice question', 'Which order does invoice 88-17 belong to?', []),
  };
  // February's order confirmations make PDFs common and DOCX and images rare, so the list
  // filter takes both of its paths (walk the dates; collect the few carriers first).
  for (let n = 1; n <= 60; n++) {
    messages[`order-${n}`] = message(
      `order-${n}`,
      (n % 28) + 1,
      `Order ${4400 + n} confirmed`,
      'Confirmed.',
      [],
      'Feb',
    );
  }
  for (const [name, text] of Object.entries(messages)) writeFileSync(join(dir, `${name}.eml`), text);
  engine = Mailsift.open(':memory:');
  expect(await engine.ingest([dir], { workers: 0 })).toMatchObject({ added: 67, failed: 0 });
});

afterAll(() => {
  engine.close();
  rmSync(dir, { recursive: true, force: true });
});

const at = (name: string): string => `${name}@einkauf.hafenkontor.de`;

describe('attachment text in search', () => {
  it('finds a phrase that appears only inside a PDF and attributes it to attachments', () => {
    const result = search('liquidated damages fourteen percent');
    expect(result.messages.map((m) => m.messageId)).toEqual([at('contract')]);
    const highlights = result.messages[0]?.highlights ?? {};
    expect(highlights).toHaveProperty('attachments');
    expect(highlights).not.toHaveProperty('text');
    expect(highlights.attachments?.join(' ')).toContain('**fourteen**');
  });
});

describe('attachmentType list filter', () => {
  it('returns exactly the carriers of the format, newest first, by format or detected MIME type', () => {
    const pdfCarriers = [at('prices-b'), at('prices-a'), at('contract')];
    expect(ids({ attachmentType: 'pdf' })).toEqual(pdfCarriers);
    expect(ids({ attachmentType: 'PDF' })).toEqual(pdfCarriers);
    expect(ids({ attachmentType: 'application/pdf' })).toEqual(pdfCarriers);
    expect(ids({ attachmentType: 'docx' })).toEqual([at('minutes')]);
    expect(ids({ attachmentType: 'xlsx' })).toEqual([]);
  });

  it('counts attached images, not inline ones', () => {
    expect(ids({ attachmentType: 'image' })).toEqual([at('photo')]);
    expect(ids({ attachmentType: 'image/*' })).toEqual([at('photo')]);
    expect(ids({ attachmentType: 'image/png' })).toEqual([at('photo')]);
  });

  it('combines with the other filters and pages by keyset', () => {
    expect(ids({ attachmentType: 'pdf', subject: 'spring' })).toEqual([at('prices-b'), at('prices-a')]);
    expect(ids({ attachmentType: 'pdf', before: '2025-03-06' })).toEqual([at('prices-a'), at('contract')]);
    const paged: string[] = [];
    let token: string | null = null;
    do {
      const page = listMessages(engine.archive.db, {
        attachmentType: 'pdf',
        limit: 1,
        ...(token ? { pageToken: token } : {}),
      });
      paged.push(...page.messages.map((m) => m.messageId));
      token = page.nextPageToken;
    } while (token !== null);
    expect(paged).toEqual(ids({ attachmentType: 'pdf' }));
    const first = listMessages(engine.archive.db, { attachmentType: 'pdf', limit: 1 }).nextPageToken;
    expect(() =>
      listMessages(engine.archive.db, { attachmentType: 'docx', limit: 1, pageToken: first ?? '' }),
    ).toThrow(/another query/);
  });

  it('rejects an unknown type, naming attachmentType', () => {
    for (const bad of ['pdfx', 'application', 'image/png; q=1', '']) {
      let error: unknown;
      try {
        listMessages(engine.archive.db, { attachmentType: bad });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(MailsiftError);
      expect(error).toMatchObject({ code: 'invalid_argument', param: 'attachmentType' });
    }
  });

  it('leaves hasAttachment as it was: inline parts are not attachments', () => {
    expect(ids({ hasAttachment: true })).toEqual([
      at('photo'),
      at('minutes'),
      at('prices-b'),
      at('prices-a'),
      at('contract'),
    ]);
    expect(ids({ hasAttachment: false, after: '2025-03-01' })).toEqual([at('plain'), at('signature')]);
  });
});

describe('deleted mail', () => {
  const extractions = (): number =>
    (engine.archive.db.prepare('SELECT count(*) AS n FROM attachment_texts').get() as { n: number }).n;

  it('drops attachment text no stored attachment refers to any more, and the phrase stops matching', async () => {
    const before = extractions();
    unlinkSync(join(dir, 'prices-a.eml'));
    expect(await engine.ingest([dir], { workers: 0 })).toMatchObject({ deleted: 1 });
    // The price list is still carried by prices-b.
    expect(extractions()).toBe(before);
    expect(search('pallet wrap').messages.map((m) => m.messageId)).toEqual([at('prices-b')]);

    unlinkSync(join(dir, 'contract.eml'));
    expect(await engine.ingest([dir], { workers: 0 })).toMatchObject({ deleted: 1 });
    expect(extractions()).toBe(before - 1);
    expect(search('liquidated damages fourteen percent').messages).toEqual([]);
    expect(ids({ attachmentType: 'pdf' })).toEqual([at('prices-b')]);
  });
});

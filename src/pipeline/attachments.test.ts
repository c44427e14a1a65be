// Attachments through ingest: text extracted once per distinct content, outcomes stored
// with their reasons, bytes and text served back, and a re-extraction re-indexes.

import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/temp.js';
import { makeEncryptedPdf, makePdf } from '../attachments/fixtures.js';
import { Mailsift } from '../engine.js';
import { checkIndex, reindex } from '../index/index.js';
import { pendingExtractions } from '../store/index.js';
import { extractPending } from './extract-pending.js';

const opened: Mailsift[] = [];
afterEach(() => {
  for (const engine of opened.splice(0)) engine.close();
});

/** The headers of statement `n` from an accounting system. */
function statementHeaders(n: number): string[] {
  return [
    `Message-ID: <statement-${n}@erp.nordwind-logistik.de>`,
    'From: "Nordwind Buchhaltung" <buchhaltung@nordwind-logistik.de>',
    'To: accounts@acme-corp.com',
    `Subject: Statement ${n} for account 88-4410`,
    `Date: Tue, ${String((n % 28) + 1).padStart(2, '0')} Oct 2024 08:15:00 +0200`,
  ];
}

/** A multipart/mixed message from an accounting system, carrying one base64 attachment. */
function messageWithAttachment(
  n: number,
  filename: string,
  contentType: string,
  content: Buffer,
  text = `Please find statement ${n} attached.`,
): string {
  const body = content.toString('base64').replace(/.{76}/g, '$&\r\n');
  return [
    ...statementHeaders(n),
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="=_nw_b0undary"',
    '',
    '--=_nw_b0undary',
    'Content-Type: text/plain; charset=utf-8',
    '',
    text,
    '',
    '--=_nw_b0undary',
    `Content-Type: ${contentType}; name="${filename}"`,
    `Content-Disposition: attachment; filename="${filename}"`,
    'Content-Transfer-Encoding: base64',
    '',
    body,
    '--=_nw_b0undary--',
    '',
  ].join('\r\n');
}

/** The accounting system's plain-text statement: no attachment. */
function statementWithoutAttachment(n: number): string {
  return [
    ...statementHeaders(n),
    'Content-Type: text/plain; charset=utf-8',
    '',
    `Your statement ${n} is available in the supplier portal.`,
    '',
  ].join('\r\n');
}

describe('attachments through ingest', () => {
  it('extracts an attachment shared by 50 messages once and serves its text and bytes', async () => {
    const dir = tempDir('mailsift-attach-');
    const pdf = await makePdf([
      ['Master services agreement', 'Termination requires ninety days written notice.'],
    ]);
    for (let n = 0; n < 50; n++) {
      writeFileSync(
        join(dir, `m${n}.eml`),
        messageWithAttachment(n, 'MSA-2024.pdf', 'application/octet-stream', pdf),
      );
    }
    const engine = Mailsift.open(':memory:');
    opened.push(engine);
    const report = await engine.ingest([dir], { workers: 0 });
    expect(report).toMatchObject({ added: 50, failed: 0 });
    const rows = engine.archive.db.prepare('SELECT format, status, text FROM attachment_texts').all();
    expect(rows).toHaveLength(1);

    const message = engine.getMessage('statement-7@erp.nordwind-logistik.de');
    expect(message.attachments[0]?.extraction).toMatchObject({ status: 'ok', format: 'pdf' });
    expect(message.attachments[0]?.extraction?.text).toContain('ninety days written notice');
    const attachment = await engine.getAttachment('statement-7@erp.nordwind-logistik.de', 'msa-2024.PDF');
    expect(attachment.content.equals(pdf)).toBe(true);

    const again = await engine.reextract('pdf');
    expect(again).toMatchObject({ attachments: 1, ok: 1, messagesReindexed: 50 });
    // Each extraction re-indexed its 50 carriers as one postings segment (the ingest's own
    // segment was tombstoned whole and rewritten away), and search finds the extracted text.
    const segments = engine.archive.db.prepare('SELECT docs FROM keyword_segments').pluck().all();
    expect(segments).toEqual([50]);
    expect(engine.searchMessages({ q: 'ninety days notice' }).messages).toHaveLength(10);
  });

  it('re-indexes the carriers of a long text in bounded segments, all in the one drain transaction', async () => {
    const dir = tempDir('mailsift-attach-');
    // A stock-level export of ~100,000 characters forwarded to sixty people: re-indexing every
    // carrier at once would stage sixty copies of the 20,000 characters the index keeps of it.
    const rows = Array.from(
      { length: 2000 },
      (_, i) => `WH-${1000 + i};pallet racking bay ${i % 40};${(i * 37) % 500} units;reorder ${i % 7 === 0}`,
    );
    const csv = Buffer.from(`sku;location;stock;reorder\n${rows.join('\n')}\n`);
    for (let n = 0; n < 60; n++)
      writeFileSync(join(dir, `m${n}.eml`), messageWithAttachment(n, 'stock-levels.txt', 'text/plain', csv));
    const engine = Mailsift.open(':memory:');
    opened.push(engine);
    await engine.ingest([dir], { workers: 0, extractAttachments: false });

    const drained = await extractPending(engine.archive, { workers: 0 });
    expect(drained).toMatchObject({ attachments: 1, ok: 1, messagesReindexed: 60, remaining: 0 });
    // The ingest's segment was tombstoned whole and rewritten away; the carriers came back
    // as more than one segment, each counting the text the index keeps, not the whole export:
    // counted whole, a segment was cut every ten carriers.
    const segments = engine.archive.db.prepare('SELECT docs FROM keyword_segments').pluck().all() as number[];
    expect(segments.length).toBeGreaterThan(1);
    expect(Math.max(...segments)).toBeGreaterThan(30);
    expect(segments.reduce((a, b) => a + b, 0)).toBe(60);
    const found = engine.searchMessages({ q: 'racking bay', limit: 100 }).messages.map((m) => m.messageId);
    expect(found).toHaveLength(60);
  });

  it('re-indexes carriers of long texts in their own languages as a from-scratch reindex does', async () => {
    const dir = tempDir('mailsift-attach-');
    // Two stock lists of ~30,000 characters, each sent to six people under names of other
    // lengths: the 20,000 characters indexed (the cap counts the name too) end at another place
    // in each carrier. A code near the cut is indexed for every carrier, one past it for none.
    const stockList = (item: string, nearCut: string, pastCut: string): Buffer => {
      const lines: string[] = [];
      const add = (until: number, line: (i: number) => string) => {
        while (lines.join('\n').length < until) lines.push(line(lines.length));
      };
      add(19_700, (i) => `${item} bay ${i % 40}: ${(i * 37) % 500} units, reorder ${i % 7 === 0}`);
      lines.push(`checked ${nearCut}`);
      add(25_000, (i) => `${item} bay ${i % 40}: ${(i * 37) % 500} units`);
      lines.push(`addendum ${pastCut}`);
      add(30_000, (i) => `${item} bay ${i % 40}`);
      return Buffer.from(`${lines.join('\n')}\n`);
    };
    const lists = [
      stockList('pallet racking', 'RK-20-CHECK', 'RK-30-ADDENDUM'),
      stockList('cold storage', 'CS-20-CHECK', 'CS-30-ADDENDUM'),
    ];
    const notes = [
      'Anbei die aktuelle Bestandsliste, die Lieferungen für das Lager werden morgen bestätigt.',
      'Attached is the current stock list, the deliveries for the warehouse will be confirmed tomorrow.',
    ];
    for (let n = 0; n < 12; n++) {
      const name = `stock-${'x'.repeat(n)}.txt`;
      const list = lists[Math.floor(n / 6)] as Buffer;
      writeFileSync(join(dir, `m${n}.eml`), messageWithAttachment(n, name, 'text/plain', list, notes[n % 2]));
    }
    const engine = Mailsift.open(':memory:');
    opened.push(engine);
    await engine.ingest([dir], { workers: 0, extractAttachments: false });
    const db = engine.archive.db;

    const drained = await extractPending(engine.archive, { workers: 0 });
    expect(drained).toMatchObject({ attachments: 2, ok: 2, messagesReindexed: 12, remaining: 0 });
    const search = (q: string) => engine.searchMessages({ q, limit: 50 }).messages.map((m) => m.messageId);
    const carriers = (from: number) =>
      Array.from({ length: 6 }, (_, i) => `statement-${from + i}@erp.nordwind-logistik.de`);
    expect(search('RK-20-CHECK').sort()).toEqual(carriers(0));
    expect(search('CS-20-CHECK').sort()).toEqual(carriers(6).sort());
    expect(search('RK-30-ADDENDUM')).toEqual([]);

    const indexed = () => ({
      docs: db.prepare('SELECT rowid, language, checksum, tokens FROM keyword_docs ORDER BY rowid').all(),
      terms: db.prepare('SELECT term FROM keyword_terms ORDER BY term').pluck().all(),
    });
    const afterDrain = indexed();
    expect(new Set(afterDrain.docs.map((d) => (d as { language: string }).language))).toEqual(
      new Set(['de', 'en']),
    );
    reindex(db);
    expect(indexed()).toEqual(afterDrain);
  });

  it('rewrites a segment a drain left partly tombstoned, so phrase counts come from its mask counts again', async () => {
    const dir = tempDir('mailsift-attach-');
    // 40 statements, 4 of them (10%) with a delivery note attached: the drain re-indexes
    // those 4 and tombstones them in the ingest's segment, less than the half that any
    // flush rewrites, more than the 5% a drain's compaction does.
    const note = Buffer.from('Delivery note DN-7741: 12 pallets of shrink film, signed by the driver.\n');
    for (let n = 0; n < 40; n++)
      writeFileSync(
        join(dir, `m${n}.eml`),
        n % 10 === 0
          ? messageWithAttachment(n, `dn-${n}.txt`, 'text/plain', note)
          : statementWithoutAttachment(n),
      );
    const engine = Mailsift.open(':memory:');
    opened.push(engine);
    await engine.ingest([dir], { workers: 0, extractAttachments: false });
    const db = engine.archive.db;
    const before = engine
      .searchMessages({ q: 'statement account', limit: 50 })
      .messages.map((m) => m.messageId);
    expect(before).toHaveLength(40);

    const drained = await extractPending(engine.archive, { workers: 0 });
    expect(drained).toMatchObject({ messagesReindexed: 4, remaining: 0 });
    expect(db.prepare('SELECT count(*) FROM keyword_tombstones').pluck().get()).toBe(0);
    expect(db.prepare('SELECT sum(docs) FROM keyword_segments').pluck().get()).toBe(40);
    expect(
      engine.searchMessages({ q: 'statement account', limit: 50 }).messages.map((m) => m.messageId),
    ).toEqual(before);
    expect(engine.searchMessages({ q: 'shrink film pallets' }).messages).toHaveLength(4);
    expect(checkIndex(db, { deep: true })).toEqual({ ok: true, problems: [] });
  });

  it('re-indexes a carrier in the language its own text was detected in, as a fresh analysis would', async () => {
    const dir = tempDir('mailsift-attach-');
    // A German cover note with an English schedule: the drain keeps the note's language
    // (read back from the index, not detected again), and the whole document is what
    // analysing the message from scratch gives (the deep check compares checksums).
    const schedule = await makePdf([
      ['Delivery schedule', 'Deliveries are confirmed within ten working days of the order.'],
    ]);
    const note = [
      'Guten Tag Frau Berger,',
      'anbei der Lieferplan für die Bestellungen im Oktober. Die bestätigten Lieferungen',
      'werden wie vereinbart mit der nächsten Sendung nach Hamburg gebracht.',
      'Mit freundlichen Grüßen',
    ].join('\r\n');
    writeFileSync(
      join(dir, 'plan.eml'),
      messageWithAttachment(5, 'lieferplan.pdf', 'application/pdf', schedule, note),
    );
    const engine = Mailsift.open(':memory:');
    opened.push(engine);
    await engine.ingest([dir], { workers: 0, extractAttachments: false });
    const db = engine.archive.db;
    const language = () => db.prepare('SELECT language FROM keyword_docs').pluck().all();
    expect(language()).toEqual(['de']);

    await extractPending(engine.archive, { workers: 0 });
    expect(language()).toEqual(['de']);
    expect(
      engine.getMessage('statement-5@erp.nordwind-logistik.de').attachments[0]?.extraction?.language,
    ).toBe('en');
    expect(checkIndex(db, { deep: true })).toEqual({ ok: true, problems: [] });
    // Stemmed in German: the note's "Lieferungen" is found by "Lieferung".
    expect(engine.searchMessages({ q: 'Lieferung' }).messages).toHaveLength(1);
    expect(engine.searchMessages({ q: 'working days' }).messages).toHaveLength(1);
  });

  it('records an encrypted PDF as skipped with its reason, and the message is still stored', async () => {
    const dir = tempDir('mailsift-attach-');
    writeFileSync(
      join(dir, 'locked.eml'),
      messageWithAttachment(1, 'locked.pdf', 'application/pdf', makeEncryptedPdf()),
    );
    const engine = Mailsift.open(':memory:');
    opened.push(engine);
    await engine.ingest([dir], { workers: 0 });
    const extraction = engine.getMessage('statement-1@erp.nordwind-logistik.de').attachments[0]?.extraction;
    expect(extraction).toMatchObject({ status: 'skipped', reason: 'encrypted' });
  });

  it('stores and indexes messages before their attachments are extracted, then extracts the backlog', async () => {
    const dir = tempDir('mailsift-attach-');
    const contract = await makePdf([
      ['Supply contract', 'Liquidated damages of 0.5 percent per week of delay.'],
    ]);
    const tariff = await makePdf([['Tariff sheet', 'Palletised freight Hamburg to Milan at 412 euro.']]);
    writeFileSync(join(dir, 'a.eml'), messageWithAttachment(1, 'contract.pdf', 'application/pdf', contract));
    writeFileSync(join(dir, 'b.eml'), messageWithAttachment(2, 'tariff.pdf', 'application/pdf', tariff));
    writeFileSync(
      join(dir, 'c.eml'),
      messageWithAttachment(3, 'contract-copy.pdf', 'application/pdf', contract),
    );
    const engine = Mailsift.open(':memory:');
    opened.push(engine);
    const search = (q: string) => engine.searchMessages({ q }).messages.map((m) => m.messageId);

    const report = await engine.ingest([dir], { workers: 0, extractAttachments: false });
    expect(report).toMatchObject({ added: 3, failed: 0 });
    expect(report.extraction).toBeUndefined();
    expect(pendingExtractions(engine.archive.db)).toBe(2);
    expect(search('statement')).toHaveLength(3);
    expect(search('liquidated damages')).toEqual([]);

    const progress: number[] = [];
    const drained = await extractPending(engine.archive, {
      workers: 0,
      onProgress: (done) => progress.push(done),
    });
    expect(drained).toMatchObject({ attachments: 2, ok: 2, failed: 0, messagesReindexed: 3, remaining: 0 });
    expect(progress).toEqual([1, 2]);
    expect(search('liquidated damages').sort()).toEqual([
      'statement-1@erp.nordwind-logistik.de',
      'statement-3@erp.nordwind-logistik.de',
    ]);
    const hit = engine.searchMessages({ q: 'palletised freight' }).messages[0];
    expect(hit?.highlights.attachments?.[0]).toContain('**Palletised**');
  });

  it('forgets a pending extraction when its only message disappears before it was extracted', async () => {
    const dir = tempDir('mailsift-attach-');
    const pdf = await makePdf([['Draft', 'Withdrawn before anyone read it.']]);
    writeFileSync(join(dir, 'gone.eml'), messageWithAttachment(9, 'draft.pdf', 'application/pdf', pdf));
    const engine = Mailsift.open(':memory:');
    opened.push(engine);
    await engine.ingest([dir], { workers: 0, extractAttachments: false });
    expect(pendingExtractions(engine.archive.db)).toBe(1);
    rmSync(join(dir, 'gone.eml'));
    const rerun = await engine.ingest([dir], { workers: 0 });
    expect(rerun).toMatchObject({ deleted: 1, extraction: { attachments: 0, remaining: 0 } });
    expect(engine.archive.db.prepare('SELECT count(*) FROM attachment_texts').pluck().get()).toBe(0);
  });

  it('settles attachments no extractor reads while parsing, so they never wait in the backlog', async () => {
    const dir = tempDir('mailsift-attach-');
    const firmware = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251));
    writeFileSync(
      join(dir, 'fw.eml'),
      messageWithAttachment(4, 'router-fw-2.1.bin', 'application/octet-stream', firmware),
    );
    const engine = Mailsift.open(':memory:');
    opened.push(engine);
    await engine.ingest([dir], { workers: 0, extractAttachments: false });
    expect(pendingExtractions(engine.archive.db)).toBe(0);
    const extraction = engine.getMessage('statement-4@erp.nordwind-logistik.de').attachments[0]?.extraction;
    expect(extraction).toMatchObject({ status: 'skipped', reason: 'unsupported format', format: 'other' });
  });
});

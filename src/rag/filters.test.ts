import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mailsift } from '../engine.js';
import { extractFilters } from './filters.js';
import { openFixtureArchive } from './test-helpers.js';

const NOW = new Date('2024-09-10T12:00:00Z');
const month = (y: number, m: number): number => Date.UTC(y, m - 1, 1);

describe('filters read from a question', () => {
  let engine: Mailsift;
  let folder: string;
  let inbox: number;
  beforeAll(async () => {
    ({ engine, folder } = await openFixtureArchive('budget-thread'));
    inbox = (engine.archive.db.prepare("SELECT id FROM inboxes WHERE name = 'work'").get() as { id: number })
      .id;
  });
  afterAll(() => engine.close());
  const filters = (q: string) => extractFilters(engine.archive.db, q, [inbox], NOW);

  it.each([
    ['what did the supplier say last October?', month(2023, 10), month(2023, 11)],
    ['cosa ha detto il fornitore lo scorso ottobre?', month(2023, 10), month(2023, 11)],
    ['was hat der Lieferant im letzten Oktober gesagt?', month(2023, 10), month(2023, 11)],
    ["qu'a dit le fournisseur en octobre dernier ?", month(2023, 10), month(2023, 11)],
    ['¿qué dijo el proveedor en octubre pasado?', month(2023, 10), month(2023, 11)],
    ['что сказал поставщик в прошлом октябре?', month(2023, 10), month(2023, 11)],
    ['invoices in June', month(2024, 6), month(2024, 7)],
    ['contracts signed in 2019', month(2019, 1), month(2020, 1)],
    ['contratti firmati nel 2019', month(2019, 1), month(2020, 1)],
    ['what changed since March?', month(2024, 3), null],
    ['was hat sich seit März geändert?', month(2024, 3), null],
    ["qu'est-ce qui a changé depuis mars ?", month(2024, 3), null],
    ['¿qué cambió desde marzo?', month(2024, 3), null],
    ['что изменилось с марта?', month(2024, 3), null],
    ['offers before 2020', null, month(2020, 1)],
    ['shipments in May 2023', month(2023, 5), month(2023, 6)],
  ])('%s', (q, after, before) => {
    expect(filters(q)).toMatchObject({ after, before });
  });

  it('names the words that set the period, and only those', () => {
    expect(filters('shipments in May 2023').periodWords).toEqual(['may', '2023']);
    expect(filters('what did the supplier say last October?').periodWords).toEqual(['october']);
    expect(filters('contracts signed in 2019').periodWords).toEqual(['2019']);
    expect(filters('the October payroll report').periodWords).toEqual([]);
  });

  it('leaves modal "may", identifiers and plain questions alone', () => {
    expect(filters('may I see the budget options?')).toMatchObject({ after: null, before: null, people: [] });
    expect(filters('status of INV-2019-131')).toMatchObject({ after: null, before: null });
    // A year after a noun names a budget or a price list, not when the mail was sent.
    expect(filters('what did we approve for the training budget 2025?')).toMatchObject({ after: null });
    expect(filters('quanto abbiamo speso per la formazione 2025?')).toMatchObject({ after: null });
    // A month the mail is about: October's trips are invoiced in November.
    expect(filters('quanti viaggi ha fatturato Bassi per ottobre?')).toMatchObject({ after: null });
    expect(filters('the October payroll report')).toMatchObject({ after: null, before: null });
  });

  it('reads attachments and PDFs in several languages', () => {
    expect(filters('the offer with a PDF')).toMatchObject({ hasAttachment: true, attachmentType: 'pdf' });
    expect(filters("l'offerta con l'allegato")).toMatchObject({ hasAttachment: true, attachmentType: null });
    expect(filters('das Angebot im Anhang')).toMatchObject({ hasAttachment: true });
    expect(filters('la pièce jointe du devis')).toMatchObject({ hasAttachment: true });
    expect(filters('which budget option won?')).toMatchObject({ hasAttachment: false });
  });

  it('matches people by name and by domain word among known senders, ignoring stopwords', () => {
    expect(filters('what did Marco decide about the budget?').people).toEqual([
      'marco.bianchi@lagomaggiore-tessuti.example',
    ]);
    expect(filters('mail from harbor about option B').people).toEqual(['anna.keller@harbor-freight.example']);
    expect(filters('what is the third option?').people).toEqual([]);
  });

  it('knows a sender as soon as their first message is stored', async () => {
    expect(filters('what did Ingrid say about the forklifts?').people).toEqual([]);
    writeFileSync(
      join(folder, '05-late.eml'),
      [
        'From: Ingrid Solberg <ingrid.solberg@fjord-lift.example>',
        'To: Anna Keller <anna.keller@harbor-freight.example>',
        'Subject: Forklift lease for the third shift',
        'Date: Fri, 07 Jun 2024 10:00:00 +0200',
        'Message-ID: <forklift-lease-0607@fjord-lift.example>',
        'Content-Type: text/plain; charset=utf-8',
        '',
        'Hi Anna, the two extra forklifts can be on site from 1 July at 1,900 EUR a month each.',
        '',
      ].join('\n'),
    );
    await engine.ingest([folder], { inbox: 'work', workers: 0 });
    expect(filters('what did Ingrid say about the forklifts?').people).toEqual([
      'ingrid.solberg@fjord-lift.example',
    ]);
  });
});

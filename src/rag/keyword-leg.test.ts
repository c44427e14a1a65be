// The keyword leg's own rules on real Snowball stems and messages: Russian stem alternation,
// fusion weights by the idf of the question words a message matches.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchMessages } from '../search/index.js';
import { extractFilters } from './filters.js';
import { contentGroups, keywordLeg, questionSynonyms, russianAlternates } from './keyword-leg.js';
import { type FixtureArchive, openFixtureArchive } from './test-helpers.js';

type Db = FixtureArchive['engine']['archive']['db'];

const workInbox = (db: Db): number =>
  (db.prepare("SELECT id FROM inboxes WHERE name = 'work'").get() as { id: number }).id;

const messageId = (db: Db, rowid: number): string =>
  (db.prepare('SELECT message_id AS id FROM messages WHERE id = ?').get(rowid) as { id: string }).id;

/** The leg's hits for `question` in the fixture's inbox, by Message-ID, with their fusion weights. */
function legWeights(archive: FixtureArchive, question: string): Record<string, number> {
  const db = archive.engine.archive.db;
  const inbox = workInbox(db);
  const hits = keywordLeg(db, question, [inbox], extractFilters(db, question, [inbox]), 10);
  return Object.fromEntries(hits.map((h) => [messageId(db, h.rowid), h.weight]));
}

describe('Russian consonant alternation', () => {
  it('pairs a verb stem with the stems its other forms take', () => {
    expect(russianAlternates('выгруз')).toEqual(['выгруж']);
    expect(russianAlternates('выгруж')).toEqual(['выгруз', 'выгруг', 'выгруд']);
    expect(russianAlternates('отпуст')).toEqual(['отпущ']);
    expect(russianAlternates('оплач')).toEqual(['оплат', 'оплак']);
  });

  it('leaves short, vowel-final and non-Russian stems alone', () => {
    expect(russianAlternates('груз')).toEqual([]);
    expect(russianAlternates('машин')).toEqual([]);
    expect(russianAlternates('dispatch')).toEqual([]);
  });

  describe('in the keyword leg', () => {
    let archive: FixtureArchive;
    beforeAll(async () => {
      archive = await openFixtureArchive('russian-forms');
    });
    afterAll(() => archive.engine.close());

    it('finds the other forms of a word that is its own stem ("склад": "складе", "склада")', () => {
      const found = Object.keys(legWeights(archive, 'Что на склад?'));
      // None of them says "склад" itself.
      expect(found).toEqual(
        expect.arrayContaining(['st-4417-arrival@stroytorg.example', 'inventory-0913@kovcheg-mebel.example']),
      );
    });

    it('counts "выгружена" as the "выгрузили" a question asks about', () => {
      const weights = legWeights(archive, 'Когда выгрузили станки?');
      // Unloading and machines: all of the question. The others mention only the machines,
      // which every message here does: a word that common says little of what was asked.
      expect(weights['st-4417-arrival@stroytorg.example']).toBe(1);
      expect(weights['kovcheg-4417-ask@kovcheg-mebel.example']).toBeLessThan(0.2);
      expect(weights['inventory-0913@kovcheg-mebel.example']).toBe(
        weights['kovcheg-4417-ask@kovcheg-mebel.example'],
      );
    });

    it('does not count the words of the period against a message: the filter already holds it', () => {
      const db = archive.engine.archive.db;
      const inbox = workInbox(db);
      const question = 'Когда выгрузили станки в сентябре 2024?';
      const filters = extractFilters(db, question, [inbox], new Date('2025-01-10T00:00:00Z'));
      expect(filters.periodWords).toEqual(['сентябре', '2024']);
      const [best] = keywordLeg(db, question, [inbox], filters, 10);
      // Neither month nor year is in its text, yet it answers all the question asks.
      expect(best?.weight).toBe(1);
    });
  });
});

describe('an identifier in a question', () => {
  let archive: FixtureArchive;
  beforeAll(async () => {
    archive = await openFixtureArchive('paraphrase');
    // Prose often spaces an identifier's parts: "NP 4471", not "NP-4471".
    writeFileSync(
      join(archive.folder, '06-remittance.eml'),
      [
        'From: Paolo Ferri <paolo.ferri@ferri-studio.example>',
        'To: Greta Lindqvist <accounts@nordkap-print.example>',
        'Subject: Re: your reminder',
        'Date: Wed, 06 Mar 2024 09:12:00 +0100',
        'Message-ID: <ferri-remittance-0306@ferri-studio.example>',
        'Content-Type: text/plain; charset=utf-8',
        '',
        'Dear Ms Lindqvist,',
        '',
        'the transfer for NP 4471 left our bank yesterday; the remittance advice is attached to my next mail.',
        '',
        'Paolo',
        '',
      ].join('\r\n'),
    );
    await archive.engine.ingest([archive.folder], { inbox: 'work', workers: 0 });
  });
  afterAll(() => archive.engine.close());

  it('matches it joined and spaced, where agent search takes it only as written', () => {
    const weights = legWeights(archive, 'was NP-4471 settled?');
    expect(Object.keys(weights)).toEqual(
      expect.arrayContaining([
        'np-4471-reminder@nordkap-print.example',
        'ferri-remittance-0306@ferri-studio.example',
      ]),
    );
    const searched = searchMessages(archive.engine.archive.db, { q: 'NP-4471' }).messages;
    expect(searched.map((m) => m.messageId)).toEqual(['np-4471-reminder@nordkap-print.example']);
  });
});

describe('WordNet synonyms in an English question', () => {
  let archive: FixtureArchive;
  beforeAll(async () => {
    archive = await openFixtureArchive('synonyms');
  });
  afterAll(() => archive.engine.close());

  it('finds the message that says "cargo" for a "shipment", and counts it for less than the word', () => {
    const weights = legWeights(archive, 'Who will lead the shipment?');
    const cargo = weights['A81C44D2-TOM0918@acme-corp.example'] as number;
    const shipment = weights['CAGb7x2q0SEP24sc@mail.gmail.example'] as number;
    const leadOnly = weights['CAPr1ya20240926tr@mail.gmail.example'] as number;
    // "lead" and "shipment" itself; "lead" and its synonym; "lead" alone (without the
    // synonym, the first two would weigh the same).
    expect(shipment).toBeGreaterThan(cargo);
    expect(cargo).toBeGreaterThan(leadOnly);
    expect(leadOnly).toBeGreaterThan(0);
  });
});

describe('which synonyms a question gets', () => {
  const synonymsOf = (question: string): Record<string, string[]> => {
    const groups = contentGroups(question, ['en', 'it']);
    const chosen = questionSynonyms(question, groups, ['en', 'it']);
    return Object.fromEntries(groups.map((g) => [g.raw, (chosen.get(g) ?? []).map((s) => s.raw)]));
  };

  it('shares at most eight among the words, each word its first ones before any its later ones', () => {
    const found = synonymsOf('Why did the factory bill us for the delayed shipment and the bogus charge?');
    expect(Object.values(found).flat()).toHaveLength(8);
    expect(found.factory?.[0]).toBe('manufactory');
    expect(found.bill?.[0]).toBe('invoice');
    expect(found.shipment?.[0]).toBe('cargo');
    expect(found.bogus?.[0]).toBe('phony');
    for (const words of Object.values(found)) expect(words.length).toBeLessThanOrEqual(2);
  });

  it('leaves names and other languages alone', () => {
    expect(synonymsOf('What did Mike say about the invoice?')).toEqual({
      Mike: [],
      invoice: ['bill'],
    });
    expect(Object.values(synonymsOf('Perché la fattura della spedizione è in ritardo?')).flat()).toEqual([]);
  });
});

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/temp.js';
import { Mailsift } from '../engine.js';
import { planCrossLanguage } from './cross-language.js';
import { extractFilters } from './filters.js';
import { keywordLeg } from './keyword-leg.js';
import { SearchedLanguages } from './languages.js';
import { buildLexiconFolder } from './lexicon/build.js';
import { ENG_ITA, ITA_ENG, writeDictd } from './lexicon/test-dictd.js';
import { retrieve } from './retrieve.js';

/** English mail of a small importer: the answers to Italian questions below. */
const MAIL: ReadonlyArray<readonly [string, string, string, string]> = [
  [
    'customs-0412@acme-corp.example',
    'Container from Ningbo held at customs',
    'Tue, 12 Mar 2024 09:14:00 +0100',
    'Hi Laura,\n\nthe shipment from Ningbo is held at customs in Genoa: the broker says the packing list does not match the commercial documents. Expect a delay of about a week before the trucks can collect it.\n\nTom',
  ],
  [
    'invoice-0415@acme-corp.example',
    'March invoice does not match the delivery',
    'Fri, 15 Mar 2024 16:02:00 +0100',
    'Marco,\n\nthe invoice for the March delivery still lists forty pallets, but only thirty-two arrived at the Milan warehouse. Please send a corrected invoice before we pay it.\n\nLaura',
  ],
  [
    'lunch-0418@acme-corp.example',
    'Team lunch on Friday',
    'Mon, 18 Mar 2024 11:30:00 +0100',
    'Hello everyone,\n\nwe are booking a table for the team lunch on Friday at the place near the station. Tell me by Wednesday whether you can join and if you have any dietary needs.\n\nGiulia',
  ],
  [
    'server-0420@acme-corp.example',
    'Maintenance window on Saturday night',
    'Wed, 20 Mar 2024 08:45:00 +0100',
    'All,\n\nthe file server will be down on Saturday night from ten to two for the disk upgrade. Save your work on Friday and log out before you leave the office.\n\nIT desk',
  ],
];

function writeMail(dir: string): void {
  mkdirSync(dir, { recursive: true });
  MAIL.forEach(([id, subject, date, body], i) => {
    writeFileSync(
      join(dir, `${i + 1}.eml`),
      `From: Ops <ops@acme-corp.example>\nTo: Laura Conti <laura.conti@acme-corp.example>\nSubject: ${subject}\nDate: ${date}\nMessage-ID: <${id}>\nContent-Type: text/plain; charset="utf-8"\n\n${body}\n`,
    );
  });
}

describe('retrieve across languages through the bilingual lexicon', () => {
  let engine: Mailsift;
  let lexicon: string;
  const missing = join(tempDir('mailsift-nolexicon-'), 'lexicon');
  beforeAll(async () => {
    const root = tempDir('mailsift-crosslang-');
    writeMail(join(root, 'mail'));
    engine = Mailsift.open(join(root, 'archive.db'));
    await engine.ingest([join(root, 'mail')], { inbox: 'work', workers: 0 });
    writeDictd(root, 'freedict-ita-eng', ITA_ENG);
    writeDictd(root, 'freedict-eng-ita', ENG_ITA);
    lexicon = join(root, 'lexicon');
    buildLexiconFolder(root, lexicon);
  });
  afterAll(() => engine.close());

  const QUESTION = 'La spedizione è ferma in dogana? Quanto ritardo?';

  it('finds English mail for an Italian question by its words translated, and names them in expansions', async () => {
    const result = await retrieve(engine, QUESTION, { inbox: 'work', mode: 'keyword', lexiconDir: lexicon });
    expect(result.messages[0]?.messageId).toBe('customs-0412@acme-corp.example');
    expect(result.expansions).toEqual([
      { word: 'spedizione', language: 'it', into: 'en', translations: ['shipment'] },
      { word: 'dogana', language: 'it', into: 'en', translations: ['customs'] },
      // The lexicon's 'lateness' is in no message: not searched, not named.
      { word: 'ritardo', language: 'it', into: 'en', translations: ['delay'] },
    ]);
    expect(result.notes.filter((n) => n.includes('lexicon'))).toEqual([]);
    const invoice = await retrieve(engine, 'Quanti bancali elenca la fattura?', {
      inbox: 'work',
      mode: 'keyword',
      lexiconDir: lexicon,
    });
    expect(invoice.messages[0]?.messageId).toBe('invoice-0415@acme-corp.example');
  });

  it('counts a translation for half of its word in fusion: weaker than the question’s own words', () => {
    const db = engine.archive.db;
    const inbox = (db.prepare("SELECT id FROM inboxes WHERE name = 'work'").get() as { id: number }).id;
    const weightOf = (question: string): number => {
      const { cross } = planCrossLanguage(new SearchedLanguages(db, [inbox]), question, lexicon);
      const hits = keywordLeg(db, question, [inbox], extractFilters(db, question, [inbox]), 10, true, cross);
      return hits.find((h) => h.rowid === rowid)?.weight ?? 0;
    };
    const rowid = (
      db.prepare("SELECT id FROM messages WHERE message_id = 'customs-0412@acme-corp.example'").get() as {
        id: number;
      }
    ).id;
    // Italian: every word it matches, it matches through a translation; 'ferma' not at all.
    // English: the same words as written.
    const italian = weightOf('La spedizione è ferma in dogana? Quanto ritardo?');
    const english = weightOf('Is the shipment held at customs with a delay?');
    expect(italian).toBeGreaterThan(0);
    expect(italian).toBeLessThanOrEqual(0.5);
    expect(english).toBeGreaterThan(0.9);
  });

  it('without the lexicon: the question words only, and a note naming the fetch command', async () => {
    const result = await retrieve(engine, QUESTION, { inbox: 'work', mode: 'keyword', lexiconDir: missing });
    expect(result.messages.map((m) => m.messageId)).not.toContain('customs-0412@acme-corp.example');
    expect(result.expansions).toBeUndefined();
    expect(result.notes).toContainEqual(
      expect.stringMatching(
        /question is in it .*lexicon \(it→en\) is not installed.*scripts\/fetch-lexicon\.sh/,
      ),
    );
  });

  it('a corrupt lexicon is a note, never a failed retrieve', async () => {
    const broken = tempDir('mailsift-badlexicon-');
    writeFileSync(join(broken, 'it-en.tsv'), 'spedizione\tshipment\n');
    const result = await retrieve(engine, QUESTION, { inbox: 'work', mode: 'keyword', lexiconDir: broken });
    expect(result.expansions).toBeUndefined();
    expect(result.notes).toContainEqual(
      expect.stringContaining(
        `the cross-language lexicon could not be read (${join(broken, 'it-en.tsv')} is not`,
      ),
    );
  });

  it('a question in the mail’s own language, and agent search, stay exact', async () => {
    const english = await retrieve(engine, 'is the shipment still held at customs?', {
      inbox: 'work',
      mode: 'keyword',
      lexiconDir: lexicon,
    });
    expect(english.messages[0]?.messageId).toBe('customs-0412@acme-corp.example');
    expect(english.expansions).toBeUndefined();
    expect(english.notes.filter((n) => n.includes('lexicon'))).toEqual([]);
    expect(engine.searchMessages({ q: 'spedizione dogana', inbox: 'work' }).messages).toEqual([]);
  });
});

describe('retrieve across two languages other than English, through English', () => {
  let engine: Mailsift;
  let lexicon: string;
  beforeAll(async () => {
    const root = tempDir('mailsift-pivot-');
    const mail = join(root, 'mail');
    mkdirSync(mail);
    const german: ReadonlyArray<readonly [string, string, string]> = [
      [
        'zoll-0412@nordwind.example',
        'Container aus Ningbo beim Zoll',
        'Guten Tag Frau Conti,\n\ndie Sendung aus Ningbo wird in Hamburg vom Zoll festgehalten, weil die Packliste nicht mit den Handelspapieren übereinstimmt. Wir rechnen mit einer Verzögerung von etwa einer Woche.\n\nMit freundlichen Grüßen\nKlaus Weber',
      ],
      [
        'feier-0418@nordwind.example',
        'Weihnachtsfeier im Dezember',
        'Hallo zusammen,\n\nunsere Weihnachtsfeier findet dieses Jahr am zwölften Dezember im Restaurant am Hafen statt. Bitte gebt bis Freitag Bescheid, ob ihr kommen könnt.\n\nViele Grüße\nAnna',
      ],
    ];
    german.forEach(([id, subject, body], i) => {
      writeFileSync(
        join(mail, `${i + 1}.eml`),
        `From: Klaus Weber <k.weber@nordwind.example>\nTo: Laura Conti <laura.conti@acme-corp.example>\nSubject: ${subject}\nDate: Tue, 12 Mar 2024 09:14:00 +0100\nMessage-ID: <${id}>\nContent-Type: text/plain; charset="utf-8"\n\n${body}\n`,
      );
    });
    engine = Mailsift.open(join(root, 'archive.db'));
    await engine.ingest([mail], { inbox: 'lieferanten', workers: 0 });
    writeDictd(root, 'freedict-ita-eng', ITA_ENG);
    writeDictd(root, 'freedict-eng-ita', ENG_ITA);
    writeDictd(root, 'freedict-eng-deu', [
      'customs /kˈʌstəmz/ <n>\nZoll <masc>, Zollbehörde <fem>\n',
      'delay /dɪlˈeɪ/ <n>\nVerzögerung <fem>, Verspätung <fem>\n',
    ]);
    lexicon = join(root, 'lexicon');
    buildLexiconFolder(root, lexicon);
  });
  afterAll(() => engine.close());

  it('translates an Italian question for German mail through its English words', async () => {
    const result = await retrieve(engine, 'La merce è ferma in dogana? Quanto ritardo?', {
      mode: 'keyword',
      lexiconDir: lexicon,
    });
    expect(result.messages[0]?.messageId).toBe('zoll-0412@nordwind.example');
    expect(result.expansions).toEqual([
      { word: 'dogana', language: 'it', into: 'de', translations: ['zoll'] },
      { word: 'ritardo', language: 'it', into: 'de', translations: ['verzogerung'] },
    ]);
  });
});

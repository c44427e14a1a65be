import { describe, expect, it } from 'vitest';
import { guessByFunctionWords } from './function-words.js';
import type { Language } from './language.js';

/** A paragraph of ordinary business mail per language: the fast path must decide these. */
const PARAGRAPHS: [Language, string][] = [
  [
    'en',
    'Hi Daniel, thanks for the revised agreement. We are mostly aligned, but the delivery date in section 4 is still wrong and we would like to move it to April. Please let me know if you can send the new draft this week.',
  ],
  [
    'it',
    'Ciao Marco, grazie per la bozza del contratto. Siamo quasi d’accordo, ma la data di consegna non è ancora corretta e vorremmo spostarla ad aprile. Ti chiedo di mandarmi la nuova versione entro questa settimana.',
  ],
  [
    'de',
    'Hallo Anna, danke für den überarbeiteten Vertrag. Wir sind uns fast einig, aber das Lieferdatum in Abschnitt 4 ist noch nicht richtig und wir möchten es auf April verschieben. Bitte schick mir die neue Fassung diese Woche.',
  ],
  [
    'fr',
    'Bonjour Pierre, merci pour le projet de contrat. Nous sommes presque d’accord, mais la date de livraison dans la section 4 est encore fausse et nous voulons la repousser en avril. Pouvez-vous nous envoyer la nouvelle version cette semaine ?',
  ],
  [
    'es',
    'Hola Lucía, gracias por el borrador del contrato. Estamos casi de acuerdo, pero la fecha de entrega en la sección 4 todavía no es correcta y queremos moverla a abril. ¿Puedes enviarme la nueva versión esta semana?',
  ],
  [
    'pt',
    'Olá João, obrigado pela minuta do contrato. Estamos quase de acordo, mas a data de entrega na seção 4 ainda não está correta e queremos passar para abril. Você pode me enviar a nova versão ainda esta semana?',
  ],
  [
    'nl',
    'Hoi Jan, bedankt voor het nieuwe contract. We zijn het bijna eens, maar de leverdatum in sectie 4 is nog niet goed en we willen die naar april verschuiven. Kun je mij de nieuwe versie deze week sturen?',
  ],
];

describe('guessByFunctionWords', () => {
  it('decides a paragraph of mail in each Latin-script language', () => {
    for (const [language, text] of PARAGRAPHS)
      expect([language, guessByFunctionWords(text)]).toEqual([language, language]);
  });

  it('is not tipped by a word the Romance languages share (de, la, al)', () => {
    // With `de` a Dutch word alone, this Spanish sentence was decided Dutch.
    const shared: [Language, string][] = [
      [
        'es',
        'Hola Lucía, la entrega de material se ha retrasado hasta el lunes. La factura de marzo fue aprobada ayer antes de la reunión.',
      ],
      [
        'pt',
        'Olá Pedro, a reunião de sexta-feira foi adiada para a próxima semana. A fatura de março foi enviada ao cliente ontem.',
      ],
      [
        'it',
        'Ciao Marco, la riunione di martedì è stata rinviata al 3 maggio. La fattura è stata inviata al cliente ieri.',
      ],
      [
        'fr',
        'Bonjour Claire, la réunion de mardi a été reportée au 23 mai. La facture de mars a été envoyée au client hier.',
      ],
    ];
    for (const [language, text] of shared)
      expect([language, guessByFunctionWords(text)]).toEqual([language, language]);
  });

  it('defers rather than guesses on thin evidence', () => {
    expect(guessByFunctionWords('Invoice INV-4471 attached')).toBeNull();
    expect(guessByFunctionWords('Meeting moved to Thursday')).toBeNull();
    expect(guessByFunctionWords('Приложение: счёт СЧ-4471')).toBeNull();
  });

  it('is never wrong on single sentences: right or undecided', () => {
    for (const [language, text] of PARAGRAPHS) {
      const firstSentence = text.split(/[.?!] /)[0] ?? '';
      expect([language, guessByFunctionWords(firstSentence) ?? language]).toEqual([language, language]);
    }
  });
});

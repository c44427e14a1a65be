import { describe, expect, it } from 'vitest';
import { textAnalyzer } from './analyzers.js';
import { assertAnalyzesTo, spans } from './assert-analyzes-to.js';
import type { Language } from './language.js';
import { stemWord } from './stemmer.js';

describe('stemFilter', () => {
  it('adds a stem after each word whose stem differs, in each language', () => {
    const cases: [Language, string, string[]][] = [
      ['en', 'payments received', ['payments', 'stem:payment', 'received', 'stem:receiv']],
      ['it', 'fatture pagate', ['fatture', 'stem:fattur', 'pagate', 'stem:pag']],
      ['de', 'offene Rechnungen', ['offene', 'stem:off', 'rechnungen', 'stem:rechnung']],
      ['fr', 'factures impayées', ['factures', 'stem:factur', 'impayees', 'stem:impai']],
      ['es', 'facturas pendientes', ['facturas', 'stem:factur', 'pendientes', 'stem:pendient']],
      ['pt', 'faturas pendentes', ['faturas', 'stem:fatur', 'pendentes', 'stem:pendent']],
      ['nl', 'openstaande facturen', ['openstaande', 'stem:openstaand', 'facturen', 'stem:factur']],
      ['ru', 'неоплаченные счета', ['неоплаченные', 'stem:неоплачен', 'счета', 'stem:счет']],
    ];
    for (const [language, input, expected] of cases)
      assertAnalyzesTo(textAnalyzer(language), input, expected);
  });

  it('maps ё to е before the Russian stemmer', () => {
    assertAnalyzesTo(textAnalyzer('ru'), 'Ёлки', ['елки', 'stem:елк']);
    expect(stemWord('ru', 'ёлки')).toBe(stemWord('ru', 'елки'));
  });

  it('stems accented words before folding them', () => {
    assertAnalyzesTo(textAnalyzer('es'), 'facturación', ['facturacion', 'stem:factur']);
    assertAnalyzesTo(textAnalyzer('pt'), 'informações', ['informacoes', 'stem:inform']);
    assertAnalyzesTo(textAnalyzer('de'), 'Straßen', ['strassen', 'stem:strass']);
  });

  it('gives the stem the offsets of its word', () => {
    const input = 'Die Überweisungen sind da';
    const tokens = assertAnalyzesTo(textAnalyzer('de'), input, [
      'die',
      'uberweisungen',
      'stem:uberweis',
      'sind',
      'da',
    ]);
    expect(spans(input, tokens)[2]).toBe('Überweisungen');
  });

  it('leaves numbers, codes and compounds unstemmed', () => {
    assertAnalyzesTo(textAnalyzer('en'), 'orders INV-4471 2nd', [
      'orders',
      'stem:order',
      'inv',
      '4471',
      'compound:inv_4471',
      '2nd',
    ]);
  });

  it('emits every stem for a query, even one equal to its word', () => {
    assertAnalyzesTo(
      textAnalyzer('en'),
      'run invoice',
      ['run', 'stem:run', 'invoice', 'stem:invoic'],
      'query',
    );
    assertAnalyzesTo(textAnalyzer('en'), 'run invoice', ['run', 'invoice', 'stem:invoic'], 'document');
  });

  it('stems nothing without a language', () => {
    assertAnalyzesTo(textAnalyzer(null), 'payments received', ['word:payments', 'word:received']);
  });
});

import { describe, expect, it } from 'vitest';
import { analyze, identifierAnalyzer, identifierWordsAnalyzer, textAnalyzer } from './analyzers.js';
import { assertAnalyzesTo, spans } from './assert-analyzes-to.js';

describe('identifierAnalyzer', () => {
  const identifier = identifierAnalyzer();

  it('indexes every alphanumeric run of a name and address, folded, and the suffixes of tied runs', () => {
    assertAnalyzesTo(identifier, '"José Pérez" <jose.perez+invoices@Stripe.com>', [
      'word:jose',
      'word:perez',
      'word:jose',
      'word:perez',
      'compound:_jose_perez',
      'word:invoices',
      'word:stripe',
      'word:com',
      'compound:_invoices_stripe_com',
      'compound:_stripe_com',
    ]);
  });

  it('breaks on @ . - < > _ / + : and keeps words unstemmed, stopwords in', () => {
    assertAnalyzesTo(identifier, 'Re: [ACME-42] The invoices_2024/Q1 for you', [
      're',
      'acme',
      '42',
      '_acme_42',
      'the',
      'invoices',
      '2024',
      '_invoices_2024',
      'q1',
      'for',
      'you',
    ]);
  });

  it('gives the same tokens for documents and queries', () => {
    const input = 'noreply@github.com';
    expect(identifier.analyze(input, 'query')).toEqual(identifier.analyze(input, 'document'));
  });
});

describe('offsets map back to the original text', () => {
  it('through folding that changes length', () => {
    const input = 'ÉTÉ à la Straße, Ёлка и ǅemal; İstanbul ﬁnance';
    const tokens = assertAnalyzesTo(textAnalyzer(null), input, [
      'ete',
      'a',
      'la',
      'strasse',
      'елка',
      'и',
      'dzemal',
      'istanbul',
      'finance',
    ]);
    expect(spans(input, tokens)).toEqual([
      'ÉTÉ',
      'à',
      'la',
      'Straße',
      'Ёлка',
      'и',
      'ǅemal',
      'İstanbul',
      'ﬁnance',
    ]);
  });

  it('through decomposed accents and astral letters', () => {
    const input = 'Jose\u0301 sent 𝐈𝐧𝐯𝐨𝐢𝐜𝐞 🎉 today';
    const tokens = assertAnalyzesTo(textAnalyzer('en'), input, [
      'jose',
      'sent',
      'invoice',
      'stem:invoic',
      'today',
    ]);
    expect(spans(input, tokens)).toEqual(['Jose\u0301', 'sent', '𝐈𝐧𝐯𝐨𝐢𝐜𝐞', '𝐈𝐧𝐯𝐨𝐢𝐜𝐞', 'today']);
  });

  it('for long runs cut to the token cap', () => {
    const run = 'a'.repeat(300);
    const [token] = assertAnalyzesTo(identifierAnalyzer(), ` ${run} `, ['a'.repeat(64)]);
    expect(token).toMatchObject({ start: 1, end: 301 });
  });
});

describe('identifierWordsAnalyzer', () => {
  it('gives the identifier analyzer’s words, at the same offsets, without the compounds', () => {
    const input = 'Kevin Lewis <kevin.lewis@acme-corp.com>';
    const words = identifierAnalyzer()
      .analyze(input, 'document')
      .filter((t) => t.kind === 'word');
    expect(identifierWordsAnalyzer().analyze(input, 'document')).toEqual(words);
    expect(words).toHaveLength(7);
  });
});

describe('textAnalyzer', () => {
  it('analyses a realistic body in order: words, stems, compounds', () => {
    const body =
      'Hi Anna,\n\nthe payment for INV-4471 failed; please update the card at billing@stripe.com.\n';
    assertAnalyzesTo(
      textAnalyzer('en'),
      body,
      [
        'hi',
        'anna',
        'the',
        'payment',
        'for',
        'inv',
        '4471',
        'compound:inv_4471',
        'failed',
        'stem:fail',
        'please',
        'stem:pleas',
        'update',
        'stem:updat',
        'the',
        'card',
        'at',
        'billing',
        'stem:bill',
        'stripe',
        'stem:stripe',
        'com',
        'compound:billing_stripe_com',
        'compound:stripe_com',
      ].filter((term) => term !== 'stem:stripe'),
    );
  });

  it('returns the same analyzer for the same language and works through analyze()', () => {
    expect(textAnalyzer('fr')).toBe(textAnalyzer('fr'));
    expect(analyze(textAnalyzer('fr'), 'Factures', 'document').map((t) => t.term)).toEqual([
      'factures',
      'factur',
    ]);
  });

  it('yields nothing for empty or punctuation-only text', () => {
    assertAnalyzesTo(textAnalyzer('en'), '', []);
    assertAnalyzesTo(textAnalyzer('en'), '-- \n> > ...', []);
  });
});

import { describe, expect, it } from 'vitest';
import { identifierAnalyzer, textAnalyzer } from './analyzers.js';
import { assertAnalyzesTo, spans } from './assert-analyzes-to.js';
import { MAX_SUFFIX_COMPOUNDS } from './compound-filter.js';
import { MAX_TOKEN_LENGTH } from './fold.js';

const text = textAnalyzer(null);

describe('compoundFilter', () => {
  it('adds identifiers with digits after their parts', () => {
    assertAnalyzesTo(text, 'Invoice INV-4471 is due', [
      'invoice',
      'inv',
      '4471',
      'compound:inv_4471',
      'is',
      'due',
    ]);
    assertAnalyzesTo(text, 'upgrade to v2.3.1 today', [
      'upgrade',
      'to',
      'v2',
      '3',
      '1',
      'compound:v2_3_1',
      'compound:3_1',
      'today',
    ]);
    assertAnalyzesTo(text, 'call +1-555-0100', [
      'call',
      '1',
      '555',
      '0100',
      'compound:1_555_0100',
      'compound:555_0100',
    ]);
  });

  it('adds addresses, domains and snake_case names', () => {
    assertAnalyzesTo(text, 'write to a.b@c.com.', [
      'write',
      'to',
      'a',
      'b',
      'c',
      'com',
      'compound:a_b_c_com',
      'compound:b_c_com',
      'compound:c_com',
    ]);
    assertAnalyzesTo(text, 'see stripe.com', ['see', 'stripe', 'com', 'compound:stripe_com']);
    assertAnalyzesTo(text, 'set max_retry_count', [
      'set',
      'max',
      'retry',
      'count',
      'compound:max_retry_count',
      'compound:retry_count',
    ]);
  });

  it('adds every suffix of two or more parts, hyphenated ones too', () => {
    assertAnalyzesTo(text, 'see docs.well-known and 2024-follow-up', [
      'see',
      'docs',
      'well',
      'known',
      'compound:docs_well_known',
      'compound:well_known',
      'and',
      '2024',
      'follow',
      'up',
      'compound:2024_follow_up',
      'compound:follow_up',
    ]);
  });

  it('ties plain hyphenated words into a compound after their parts', () => {
    assertAnalyzesTo(text, 'a well-known e-mail from Jean-Pierre', [
      'word:a',
      'word:well',
      'word:known',
      'compound:well_known',
      'word:e',
      'word:mail',
      'compound:e_mail',
      'word:from',
      'word:jean',
      'word:pierre',
      'compound:jean_pierre',
    ]);
  });

  it('takes the address out of a mailto or URL', () => {
    assertAnalyzesTo(text, 'mailto:billing@stripe.com https://docs.stripe.com/api', [
      'mailto',
      'billing',
      'stripe',
      'com',
      'compound:billing_stripe_com',
      'compound:stripe_com',
      'https',
      'docs',
      'stripe',
      'com',
      'compound:docs_stripe_com',
      'compound:stripe_com',
      'api',
    ]);
  });

  it('spans the whole identifier in the original text, folded', () => {
    const input = 'Ref. ÉTÉ-2024 at Straße.5';
    const tokens = assertAnalyzesTo(text, input, [
      'ref',
      'ete',
      '2024',
      'compound:ete_2024',
      'at',
      'strasse',
      '5',
      'compound:strasse_5',
    ]);
    expect(spans(input, tokens)).toEqual(['Ref', 'ÉTÉ', '2024', 'ÉTÉ-2024', 'at', 'Straße', '5', 'Straße.5']);
  });

  it('caps compounds of many parts, and their number', () => {
    const input = Array.from({ length: 5000 }, (_, i) => `p${i}`).join('.');
    const tokens = text.analyze(input, 'document');
    const compounds = tokens.filter((t) => t.kind === 'compound');
    expect(compounds).toHaveLength(1 + MAX_SUFFIX_COMPOUNDS);
    expect(compounds.every((t) => t.term.length === MAX_TOKEN_LENGTH)).toBe(true);
    expect(compounds[0]?.term.startsWith('p0_p1_p2_')).toBe(true);
    expect(compounds.at(-1)?.term.startsWith(`p${MAX_SUFFIX_COMPOUNDS}_`)).toBe(true);
    expect(tokens.filter((t) => t.kind === 'word')).toHaveLength(5000);
  });
});

describe('identifierCompoundFilter', () => {
  const identifier = identifierAnalyzer();

  it('adds every suffix of two or more tied runs after the last run, longest first', () => {
    assertAnalyzesTo(identifier, 'Kevin Lewis <kevin.lewis@acme-corp.com>', [
      'word:kevin',
      'word:lewis',
      'word:kevin',
      'word:lewis',
      'word:acme',
      'word:corp',
      'word:com',
      'compound:_kevin_lewis_acme_corp_com',
      'compound:_lewis_acme_corp_com',
      'compound:_acme_corp_com',
      'compound:_corp_com',
    ]);
  });

  it('spans each suffix from its first run to the end of the last', () => {
    const input = 'Re: PO-2231-B approved';
    const tokens = identifier.analyze(input, 'document');
    expect(spans(input, tokens)).toEqual(['Re', 'PO', '2231', 'B', 'PO-2231-B', '2231-B', 'approved']);
  });

  it('ties plain hyphenated words too: identifier fields are small', () => {
    assertAnalyzesTo(identifier, 'Jean-Pierre Dupont', ['jean', 'pierre', '_jean_pierre', 'dupont']);
  });

  it('caps each suffix of a run of many parts and stays linear', () => {
    const input = Array.from({ length: 2000 }, (_, i) => `p${i}`).join('.');
    const compounds = identifier.analyze(input, 'document').filter((t) => t.kind === 'compound');
    expect(compounds).toHaveLength(1999);
    expect(compounds[0]?.term).toHaveLength(MAX_TOKEN_LENGTH);
    expect(compounds[0]?.term.startsWith('_p0_p1_p2_')).toBe(true);
    expect(compounds.at(-1)?.term).toBe('_p1998_p1999');
  });
});

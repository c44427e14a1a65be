import { describe, expect, it } from 'vitest';
import { textAnalyzer } from './analyzers.js';
import { assertAnalyzesTo, spans } from './assert-analyzes-to.js';
import { applyCharFilters, ignorableCharFilter } from './char-filters.js';

describe('ignorableCharFilter', () => {
  it('returns the text itself when there is nothing to remove', () => {
    const text = 'Please pay invoice INV-4471 by Friday.';
    expect(ignorableCharFilter(text).text).toBe(text);
  });

  it('removes soft hyphens and zero-width characters and maps offsets back', () => {
    const text = 'infor\u00ADmation at stripe\u200B.com\uFEFF';
    const filtered = ignorableCharFilter(text);
    expect(filtered.text).toBe('information at stripe.com');
    expect(filtered.toOriginal(0)).toBe(0);
    expect(filtered.toOriginal(5)).toBe(6);
    expect(filtered.toOriginal(filtered.text.indexOf('.com'))).toBe(text.indexOf('.com'));
  });

  it('composes with other filters', () => {
    const text = 'a\u200Bb\u00ADc';
    const composed = applyCharFilters([ignorableCharFilter, ignorableCharFilter], text);
    expect(composed.text).toBe('abc');
    expect([0, 1, 2].map(composed.toOriginal)).toEqual([0, 2, 4]);
  });
});

describe('char filters inside an analyzer', () => {
  it('keeps hyphenated and zero-width-split words whole, with original offsets', () => {
    const input = 'The infor\u00ADmation about stripe\u200B.com arrived.';
    const tokens = assertAnalyzesTo(textAnalyzer(null), input, [
      'the',
      'information',
      'about',
      'stripe',
      'com',
      'compound:stripe_com',
      'arrived',
    ]);
    expect(spans(input, tokens)).toEqual([
      'The',
      'infor\u00ADmation',
      'about',
      'stripe',
      'com',
      'stripe\u200B.com',
      'arrived',
    ]);
  });
});

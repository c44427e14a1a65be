import { describe, expect, it } from 'vitest';
import { tokenize } from './tokenizer.js';

const runs = (text: string) => tokenize(text).map((t) => [t.source, t.joiner]);

describe('tokenize', () => {
  it('splits on whitespace and every punctuation mark', () => {
    expect(tokenize('"Billing Team" <billing@stripe.com>, re: order #123/4+5').map((t) => t.source)).toEqual([
      'Billing',
      'Team',
      'billing',
      'stripe',
      'com',
      're',
      'order',
      '123',
      '4',
      '5',
    ]);
  });

  it('records a single joiner between adjacent runs', () => {
    expect(runs('INV-4471 a.b@c.com snake_case')).toEqual([
      ['INV', ''],
      ['4471', '-'],
      ['a', ''],
      ['b', '.'],
      ['c', '@'],
      ['com', '.'],
      ['snake', ''],
      ['case', '_'],
    ]);
  });

  it('does not join across two punctuation marks, slashes, colons or apostrophes', () => {
    expect(runs("https://stripe.com/docs l'école 10:30 a--b")).toEqual([
      ['https', ''],
      ['stripe', ''],
      ['com', '.'],
      ['docs', ''],
      ['l', ''],
      ['école', ''],
      ['10', ''],
      ['30', ''],
      ['a', ''],
      ['b', ''],
    ]);
  });

  it('keeps combining marks, non-Latin scripts and astral letters in the run', () => {
    const tokens = tokenize('Jose\u0301 Счёт №42 Αθήνα 𝐈𝐧𝐯 🎉ok');
    expect(tokens.map((t) => t.source)).toEqual(['Jose\u0301', 'Счёт', '42', 'Αθήνα', '𝐈𝐧𝐯', 'ok']);
    expect(tokens.map((t) => t.ascii)).toEqual([false, false, true, false, false, true]);
  });

  it('reports offsets into its input', () => {
    const text = '  Re: Счёт  ';
    for (const t of tokenize(text)) expect(text.slice(t.start, t.end)).toBe(t.source);
  });

  it('yields nothing for punctuation only', () => {
    expect(tokenize('"" -- !!! ... @ <>')).toEqual([]);
  });
});

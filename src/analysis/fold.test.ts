import { describe, expect, it } from 'vitest';
import { capTerm, foldTerm, MAX_TOKEN_LENGTH } from './fold.js';

describe('foldTerm', () => {
  it('lowercases and strips accents', () => {
    expect(foldTerm('José')).toBe('jose');
    expect(foldTerm('PÉREZ')).toBe('perez');
    expect(foldTerm('Überweisung')).toBe('uberweisung');
    expect(foldTerm('façade')).toBe('facade');
    expect(foldTerm('São')).toBe('sao');
    expect(foldTerm('Ñandú')).toBe('nandu');
  });

  it('folds what unicode61 misses', () => {
    expect(foldTerm('Straße')).toBe('strasse');
    expect(foldTerm('STRAẞE')).toBe('strasse');
    expect(foldTerm('Ёлка')).toBe('елка');
    expect(foldTerm('ёжик')).toBe('ежик');
    expect(foldTerm('Ærø')).toBe('aero');
    expect(foldTerm('Œuvre')).toBe('oeuvre');
    expect(foldTerm('Łódź')).toBe('lodz');
    expect(foldTerm('İSTANBUL')).toBe('istanbul');
    expect(foldTerm('ıspanak')).toBe('ispanak');
    expect(foldTerm('ΟΔΟΣ')).toBe('οδοσ');
    expect(foldTerm('Αθήνα')).toBe('αθηνα');
    expect(foldTerm('ﬁnance')).toBe('finance');
  });

  it('keeps digits of other scripts and maps compatibility digits', () => {
    expect(foldTerm('٤٤٧١')).toBe('٤٤٧١');
    expect(foldTerm('१२३')).toBe('१२३');
    expect(foldTerm('４４７１')).toBe('4471');
    expect(foldTerm('m²')).toBe('m2');
  });

  it('handles decomposed input and astral letters', () => {
    expect(foldTerm('Jose\u0301')).toBe('jose');
    expect(foldTerm('𝐈𝐧𝐯𝐨𝐢𝐜𝐞')).toBe('invoice');
  });

  it('always yields a single FTS5 token', () => {
    expect(foldTerm('inv_4471')).toBe('inv_4471');
    expect(foldTerm('½')).toBe('12');
    expect(foldTerm('a-b c')).toBe('abc');
  });

  it('is idempotent on every BMP letter and digit', () => {
    const wordChar = /[\p{L}\p{N}\p{M}]/u;
    const broken: string[] = [];
    for (let c = 0; c < 0x10000; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      const ch = String.fromCharCode(c);
      if (!wordChar.test(ch)) continue;
      const once = foldTerm(ch);
      if (foldTerm(once) !== once || foldTerm(ch.repeat(2)) !== once.repeat(2)) broken.push(ch);
    }
    expect(broken).toEqual([]);
  });

  it('is idempotent on mixed words', () => {
    for (const word of ['Ёлка', 'Straße', 'ΟΔΟΣ', 'İstanbul', 'Dvořák', 'Œuvre', 'ǅemal', 'ℌilbert']) {
      expect(foldTerm(foldTerm(word))).toBe(foldTerm(word));
    }
  });
});

describe('capTerm', () => {
  it('cuts long terms and leaves short ones', () => {
    expect(capTerm('invoice')).toBe('invoice');
    expect(capTerm('a'.repeat(100))).toBe('a'.repeat(MAX_TOKEN_LENGTH));
  });

  it('never splits a surrogate pair', () => {
    const term = `${'a'.repeat(MAX_TOKEN_LENGTH - 1)}𐐀b`;
    expect(capTerm(term)).toBe('a'.repeat(MAX_TOKEN_LENGTH - 1));
  });
});

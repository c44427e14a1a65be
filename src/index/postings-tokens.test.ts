import { describe, expect, it } from 'vitest';
import { forEachToken, TermTable } from './postings-tokens.js';

const TOKEN = /[\p{L}\p{N}\p{Co}_]+/gu;

function spans(text: string): string[] {
  const out: string[] = [];
  forEachToken(text, (start, end) => out.push(text.slice(start, end)));
  return out;
}

describe('forEachToken', () => {
  it('cuts the tokens FTS5 unicode61 would, surrogate pairs and all', () => {
    const text = 'Re: Angebot Nr. 4711 — Grüße aus Zürich, naïve_user 𝒳y𝒳 日本語テキスト (ok?)';
    expect(spans(text)).toEqual(text.match(TOKEN));
  });

  it('hashes equal tokens equally wherever they stand', () => {
    const hashes = new Map<string, Set<number>>();
    const text = 'invoice march invoice, Invoice; march-invoice';
    forEachToken(text, (start, end, hash) => {
      const term = text.slice(start, end);
      hashes.set(term, (hashes.get(term) ?? new Set()).add(hash));
    });
    for (const seen of hashes.values()) expect(seen.size).toBe(1);
    expect(new Set([...hashes.values()].map((seen) => [...seen][0])).size).toBe(hashes.size);
  });
});

describe('TermTable', () => {
  it('numbers terms in first-seen order and finds them again from any text', () => {
    const table = new TermTable();
    const ids: number[] = [];
    for (const text of ['budget review budget', 'review the budget', 'the end']) {
      forEachToken(text, (start, end, hash) => ids.push(table.intern(text, start, end, hash)));
    }
    expect(table.names).toEqual(['budget', 'review', 'the', 'end']);
    expect(ids).toEqual([0, 1, 0, 1, 2, 0, 2, 3]);
  });

  it('keeps every term apart as it grows past many thousand terms', () => {
    const table = new TermTable();
    const words = Array.from({ length: 20_000 }, (_, i) => `w${i.toString(36)}`);
    const text = words.join(' ');
    const first: number[] = [];
    forEachToken(text, (start, end, hash) => first.push(table.intern(text, start, end, hash)));
    const again: number[] = [];
    forEachToken(text, (start, end, hash) => again.push(table.intern(text, start, end, hash)));
    expect(first).toEqual(words.map((_, i) => i));
    expect(again).toEqual(first);
    expect(table.names).toEqual(words);
  });
});

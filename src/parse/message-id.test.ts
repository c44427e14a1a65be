import { describe, expect, it } from 'vitest';
import { LIMITS } from '../core/limits.js';
import { normalizeMessageId, parseMessageIdList } from './index.js';

describe('normalizeMessageId', () => {
  it('strips brackets and lowercases only the domain', () => {
    expect(normalizeMessageId('<CAFx3kq7+Q8wYp=Zb@MAIL.Gmail.Example>')).toBe(
      'CAFx3kq7+Q8wYp=Zb@mail.gmail.example',
    );
    expect(normalizeMessageId('  <a@b@Host.EXAMPLE>  ')).toBe('a@b@host.example');
  });

  it('accepts a single bare id and joins ids folded inside brackets', () => {
    expect(normalizeMessageId('1718701234.5566@Legacy.example')).toBe('1718701234.5566@legacy.example');
    expect(normalizeMessageId('<part1.\r\n part2@host.example>')).toBe('part1.part2@host.example');
  });

  it('keeps the bracketed id and ignores trailing junk', () => {
    expect(normalizeMessageId('<nl-2024-06-28.lena@shop.example> trailing junk')).toBe(
      'nl-2024-06-28.lena@shop.example',
    );
  });

  it('rejects garbage', () => {
    expect(normalizeMessageId(null)).toBeNull();
    expect(normalizeMessageId('')).toBeNull();
    expect(normalizeMessageId('   ')).toBeNull();
    expect(normalizeMessageId('<>')).toBeNull();
    expect(normalizeMessageId('< >')).toBeNull();
    expect(normalizeMessageId('no brackets at all')).toBeNull();
    expect(normalizeMessageId('<bad\u0001id@host>')).toBeNull();
  });

  it('enforces the length limit', () => {
    const local = 'x'.repeat(LIMITS.maxMessageIdLength - 'host.example'.length - 1);
    expect(normalizeMessageId(`<${local}@host.example>`)).toBe(`${local}@host.example`);
    expect(normalizeMessageId(`<${local}x@host.example>`)).toBeNull();
  });
});

describe('parseMessageIdList', () => {
  it('extracts ids around garbage, commas, comments and missing brackets, in order', () => {
    const value =
      '<a1@mail.example> Re: your message of\r\n <b2@Mail.Example>,<a1@mail.example>' +
      '  (sent by postmaster@relay.example) 1718701234.5566@legacy.example <missing-end@legacy.example';
    expect(parseMessageIdList(value)).toEqual([
      'a1@mail.example',
      'b2@mail.example',
      '1718701234.5566@legacy.example',
      'missing-end@legacy.example',
    ]);
  });

  it('deduplicates ids that differ only in domain case', () => {
    expect(parseMessageIdList('<x@HOST.example> <x@host.example> <X@host.example>')).toEqual([
      'x@host.example',
      'X@host.example',
    ]);
  });

  it('keeps bracketed ids without @ but drops bare words', () => {
    expect(parseMessageIdList('<12345.local> thanks for <>, see <abc@def>')).toEqual([
      '12345.local',
      'abc@def',
    ]);
  });

  it('returns nothing for empty or id-free values', () => {
    expect(parseMessageIdList('')).toEqual([]);
    expect(parseMessageIdList('your message of Monday')).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { parseQuery } from '../analysis/index.js';
import { buildHighlights } from './highlights.js';
import { highlightTerms } from './match.js';

const EMPTY = { from: '', recipients: '', subject: '', text: '', attachments: '', quoted: '' };

/** Highlights of a quoted history `quoted` for query `q`. */
const quotedHighlights = (q: string, quoted: string): string[] | undefined =>
  buildHighlights({ ...EMPTY, quoted }, 'en', highlightTerms(parseQuery(q, { languages: ['en'] }), new Map()))
    .quoted;

/** A quoted reply's lines that mention nothing the queries below ask for. */
const filler = (chars: number): string => {
  const line = '> Thanks, the pallets for the Leipzig depot were loaded on Tuesday as agreed.\n';
  return line.repeat(Math.ceil(chars / line.length)).slice(0, chars);
};

describe('highlights of long text fields', () => {
  it('come from the first matches of a long history, and from far past its first KB when they are there', () => {
    // Three early matches far enough apart to make three fragments: what follows them,
    // however long, changes nothing.
    const early = ['Q3 budget approved', 'budget owners to confirm', 'budget file attached']
      .map((line) => `> ${line}.\n${filler(400)}`)
      .join('');
    const fragments = quotedHighlights('budget', `${early}${filler(20_000)}> One last budget line.\n`);
    expect(fragments).toHaveLength(3);
    expect(fragments).toEqual(quotedHighlights('budget', early));
    expect(fragments?.[2]).toContain('> **budget** file attached.');
    // The only match lies past 8 KB: found by analysing further.
    const late = quotedHighlights(
      'budget',
      `${filler(9_000)}> the revised budget is final\n${filler(3_000)}`,
    );
    expect(late).toHaveLength(1);
    expect(late?.[0]).toContain('the revised **budget** is final');
  });

  it('find a compound that straddles where the first analysed part ends, and not its parts spaced', () => {
    // "Follow-up" starts a few characters before the first 2,048 and ends past them.
    const quoted = `${filler(2_041)} Follow-up on the budget sign-off by Friday.\n${filler(500)}`;
    expect(quoted.indexOf('Follow-up')).toBeLessThan(2_048);
    expect(quoted.indexOf('Follow-up') + 'Follow-up'.length).toBeGreaterThan(2_048);
    expect(quotedHighlights('follow-up', quoted)).toEqual([expect.stringContaining('**Follow-up**')]);
    expect(quotedHighlights('follow-up', quoted.replace('Follow-up', 'Follow up'))).toBeUndefined();
  });
});

describe('highlights of the text field', () => {
  const textHighlights = (q: string, text: string): string[] | undefined =>
    buildHighlights({ ...EMPTY, text }, 'en', highlightTerms(parseQuery(q, { languages: ['en'] }), new Map()))
      .text;

  it('mark a word matched only by its stem, and an identifier with no stem to look for', () => {
    expect(textHighlights('invoices', 'The invoice for March is attached.')).toEqual([
      'The **invoice** for March is attached.',
    ]);
    expect(textHighlights('INV-4471', 'Invoice INV-4471 is attached, as invoiced.')).toEqual([
      'Invoice **INV-4471** is attached, as invoiced.',
    ]);
  });
});

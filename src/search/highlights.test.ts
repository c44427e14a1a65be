import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/temp.js';
import { isLanguage, parseQuery } from '../analysis/index.js';
import { foldsByLowercase } from '../analysis/literal-keys.js';
import { Mailsift } from '../engine.js';
import { fieldTexts } from '../index/index.js';
import { buildHighlights, textFragments } from './highlights.js';
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

describe('highlights narrowed to the stretches that can hold a match', () => {
  /**
   * Every message of the bundled sample mailbox (four languages, quoted histories, attachment
   * texts) against words of its own and of other messages, asked as a user types them: its
   * text fields' fragments are the same whether only the candidate stretches are analysed or
   * the whole text.
   */
  it('equal the fragments of the whole text, on every text field of the sample mailbox', async () => {
    const engine = Mailsift.open(join(tempDir('mailsift-highlights-'), 'a.db'));
    await engine.ingest([join(import.meta.dirname, '..', '..', 'sample', 'Maildir')], { inbox: 'sample' });
    const rows = engine.archive.db
      .prepare('SELECT m.message_id AS id, d.language FROM messages m JOIN keyword_docs d ON d.rowid = m.id')
      .all() as Array<{ id: string; language: string | null }>;
    const messages = rows.map((row) => ({
      texts: fieldTexts(engine.getMessage(row.id)),
      language: row.language !== null && isLanguage(row.language) ? row.language : null,
    }));
    engine.close();
    /** The plural of an English singular, or the singular of a plural. */
    const otherForm = (word: string): string =>
      word.endsWith('ies')
        ? `${word.slice(0, -3)}y`
        : word.endsWith('y')
          ? `${word.slice(0, -1)}ies`
          : word.endsWith('s')
            ? word.slice(0, -1)
            : `${word}s`;
    const words = (text: string): string[] =>
      text.split(/\s+/).filter((w) => /^[\p{L}\p{N}][\p{L}\p{N}.@-]{3,}$/u.test(w));
    let compared = 0;
    let matched = 0;
    let plain = 0;
    const differing: string[] = [];
    messages.forEach(({ texts, language }, i) => {
      const own = words(`${texts.subject} ${texts.text}`);
      const other = words((messages[(i * 7 + 3) % messages.length] as (typeof messages)[number]).texts.text);
      const queries = [
        own[2],
        own[9],
        own.slice(4, 6).join(' '),
        own.at(-1),
        other[5],
        other.slice(1, 3).join(' '),
        // Another form of a word than the text's: only the stems meet.
        ...own.slice(10, 30).map(otherForm),
      ];
      for (const q of queries) {
        if (!q) continue;
        const terms = highlightTerms(parseQuery(q, { languages: language ? [language] : [] }), new Map());
        for (const field of ['text', 'attachments', 'quoted'] as const) {
          const text = texts[field];
          if (text === '') continue;
          const fieldLanguage = field === 'quoted' ? null : language;
          const narrowed = textFragments(text, fieldLanguage, terms);
          compared++;
          if (narrowed.length > 0) matched++;
          if (foldsByLowercase(text)) plain++;
          if (JSON.stringify(narrowed) !== JSON.stringify(textFragments(text, fieldLanguage, terms, false)))
            differing.push(`${field} of message ${i} for ${JSON.stringify(q)}`);
        }
      }
    });
    expect(differing).toEqual([]);
    // Enough of it matched, and enough of it was narrowed, for the equality to mean something.
    expect(compared).toBeGreaterThan(1500);
    expect(matched).toBeGreaterThan(500);
    expect(plain).toBeGreaterThan(compared / 2);
  });
});

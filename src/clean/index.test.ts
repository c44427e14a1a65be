// The cleaning stage as callers see it: span invariants, part choice, caps and hostile input.
import { describe, expect, it } from 'vitest';
import type { CleanedBody } from '../core/types.js';
import { authoredForIndex, CLEANER_VERSION, cleanMessage } from './index.js';

function expectSpansCoverBody(cleaned: CleanedBody): void {
  let at = 0;
  for (const span of cleaned.spans) {
    expect(span.start).toBe(at);
    expect(span.end).toBeGreaterThanOrEqual(span.start);
    at = span.end;
  }
  expect(at).toBe(cleaned.body.length);
}

describe('cleanMessage', () => {
  it("reads a list archive's replies whose accented letters became '?', and no line of question marks", () => {
    // As Mailman's text export writes a German reply it had no charset for.
    const text = [
      'Die Platine ist durchgemessen, die Notizen stehen im Schaltplan.',
      '',
      'Gr??e,',
      'Klaus',
      '',
      '-----Urspr?ngliche Nachricht-----',
      'Von: liste-bounces at example.org [mailto:liste-bounces at example.org] Im Auftrag von Eva',
      'Gesendet: Montag, 11. Juni 2007 23:10',
      'An: Klaus',
      'Betreff: Re: Pegel',
      '',
      'Hast du die Pegel gemessen?',
    ].join('\n');
    const cleaned = cleanMessage({ text, html: null });
    expectSpansCoverBody(cleaned);
    expect(cleaned.authored).toBe('Die Platine ist durchgemessen, die Notizen stehen im Schaltplan.');
    expect(cleaned.signature).toBe('Gr??e,\nKlaus');
    expect(cleaned.quoted).toMatch(/^-----Urspr\?ngliche Nachricht-----\nVon: /);
    // Question marks alone are not a phrase of any language written that way.
    const asked = 'Geht das so?\n\n???\n\n------????------\nwirklich?';
    expect(cleanMessage({ text: asked, html: null }).authored).toBe(asked);
  });

  it('maps every part back to a span of the body', () => {
    const text =
      'Sounds good.\n\nThanks,\nAlice\n\n-- \nAlice Example\n\nOn Mon, Mar 4, 2024 at 10:12 AM Bob <bob@example.com> wrote:\n> Meet Thursday?\n';
    const cleaned = cleanMessage({ text, html: null });
    expectSpansCoverBody(cleaned);
    expect(cleaned.spans.map((s) => s.kind)).toEqual(['authored', 'signature', 'quoted']);
    // The sign-off and the name typed above the delimiter sign the message with it.
    expect(cleaned.authored).toBe('Sounds good.');
    expect(cleaned.signature).toBe('Thanks,\nAlice\n\n-- \nAlice Example');
    expect(cleaned.quoted).toBe(
      'On Mon, Mar 4, 2024 at 10:12 AM Bob <bob@example.com> wrote:\n> Meet Thursday?',
    );
    const quoted = cleaned.spans[2] as { start: number; end: number };
    expect(cleaned.body.slice(quoted.start, quoted.end).trim()).toBe(cleaned.quoted);
  });

  it('returns an empty body with source none when there is no text at all', () => {
    expect(cleanMessage({ text: null, html: '  ' })).toMatchObject({
      source: 'none',
      body: '',
      spans: [],
      authored: '',
    });
  });

  it('prefers the HTML part unless it is a stub', () => {
    const html = '<p>Full news with four words</p>';
    expect(cleanMessage({ text: 'Full news with four words', html }).source).toBe('html');
    expect(cleanMessage({ text: 'This message requires an HTML viewer.', html }).source).toBe('html');
    const longText = 'The text part carries the whole report, many more words than the html.';
    expect(cleanMessage({ text: longText, html: '<p>See report</p>' }).source).toBe('text');
  });

  it('truncates HTML at maxHtmlChars', () => {
    const cleaned = cleanMessage(
      { text: null, html: `<p>${'a'.repeat(50)}</p><p>tail</p>` },
      { maxHtmlChars: 40 },
    );
    expect(cleaned.body).not.toContain('tail');
  });

  it('keeps all text authored when nothing can be separated', () => {
    expect(cleanMessage({ text: 'Just a note.\nSecond line.', html: null }).authored).toBe(
      'Just a note.\nSecond line.',
    );
  });

  it('keeps authored text empty for a message that is all quote', () => {
    const cleaned = cleanMessage({ text: '> one\n> two', html: null });
    expect(cleaned.authored).toBe('');
    expect(cleaned.quoted).toBe('> one\n> two');
  });

  it.each([
    [
      '500 levels of quoting',
      { text: Array.from({ length: 500 }, (_, i) => `${'>'.repeat(i + 1)} l${i}`).join('\n'), html: null },
    ],
    ['a multi-megabyte single line', { text: 'word '.repeat(600_000), html: null }],
    ['500 nested blockquotes', { text: null, html: `${'<blockquote type="cite">x'.repeat(500)}` }],
    ['10,000 unclosed tags', { text: null, html: `<p>start${'<div><b>x'.repeat(5_000)}` }],
    ['malformed HTML', { text: null, html: '<div <p>>>< /a></td></table>text<!-- open <style>' }],
  ])('survives %s and keeps its spans consistent', (_case, input) => {
    const cleaned = cleanMessage(input);
    expectSpansCoverBody(cleaned);
  });

  it('leaves text beyond the cleaning cap authored and unsplit', () => {
    const head = 'Reply.\n';
    const tail = `${'> quoted line\n'.repeat(160_000)}`;
    const cleaned = cleanMessage({ text: head + tail, html: null });
    expectSpansCoverBody(cleaned);
    expect(cleaned.body.length).toBe((head + tail).length);
    expect(cleaned.spans.at(-1)?.kind).toBe('authored');
  });
});

describe('authoredForIndex', () => {
  it('caps authored text at a word boundary and leaves the stored text whole', () => {
    const cleaned = cleanMessage({ text: 'lorem ipsum '.repeat(3_000), html: null });
    const capped = authoredForIndex(cleaned, 1_000);
    expect(capped.length).toBeLessThanOrEqual(1_000);
    expect(capped.endsWith('lorem') || capped.endsWith('ipsum')).toBe(true);
    expect(cleaned.authored.length).toBeGreaterThan(30_000);
    expect(authoredForIndex(cleaned).length).toBeLessThanOrEqual(20_000);
  });
});

it('exposes a cleaner version string', () => {
  expect(CLEANER_VERSION).toMatch(/^\d+$/);
});

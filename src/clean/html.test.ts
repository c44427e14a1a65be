// HTML flattening: invisible content dropped, readable structure kept, client containers
// turned into per-line hints.
import { describe, expect, it } from 'vitest';
import { flattenHtml, htmlToText, MAX_DOM_HTML_CHARS } from './html.js';

describe('htmlToText', () => {
  it('drops preheaders, zero-size elements, MSO comments, pixels, style and script', () => {
    const html = `<html><head><style>p{color:red}</style><script>track()</script></head><body>
      <div style="display: none; max-height:0">Preheader teaser</div>
      <span style="font-size:0px">zero</span><div style="max-height:0px;overflow:hidden">spacer</div>
      <!--[if mso]><p>Outlook only</p><![endif]-->
      <p>Visible text</p><img src="https://t.example/o.gif" width="1" height="1"></body></html>`;
    expect(htmlToText(html)).toBe('Visible text');
  });

  it('keeps paragraphs, list items, link text and table cells apart', () => {
    const html =
      '<p>Intro</p><ul><li>One</li><li>Two</li></ul><p>Read <a href="https://x.example/l">the story</a>.</p><table><tr><td>Item</td><td>Qty</td></tr></table>';
    expect(htmlToText(html)).toBe('Intro\n\n- One\n- Two\n\nRead the story.\n\nItem\nQty');
  });

  it('decodes entities and never lets markup-looking text become tags', () => {
    expect(htmlToText('<p>a &lt;b&gt; &amp; c&nbsp;d</p>')).toBe('a <b> & c d');
  });

  it('strips private-use sentinel characters coming from the message', () => {
    expect(htmlToText('<p>x\uE000q y\uE001</p>')).toBe('xq y');
  });

  it('flattens HTML above the DOM budget with the linear stripper', () => {
    const html = `<div>${'<p>word &amp; word</p>'.repeat(MAX_DOM_HTML_CHARS / 20)}</div><style>x{}</style>`;
    const text = htmlToText(html);
    expect(text.startsWith('word & word\n')).toBe(true);
    expect(text).not.toContain('x{}');
  });
});

describe('container hints', () => {
  const hintsOf = (html: string): [string, string | null][] => {
    const { lines, hints } = flattenHtml(html);
    return lines.map((line, i) => [line, hints[i] ?? null]);
  };

  it('marks Gmail attribution and blockquote as quoted and its signature as signature', () => {
    const html =
      '<div>Reply</div><div class="gmail_signature">Alice</div><div class="gmail_quote"><div class="gmail_attr">On Mon, Bob wrote:</div><blockquote class="gmail_quote">Old</blockquote></div>';
    expect(hintsOf(html)).toEqual([
      ['Reply', null],
      ['Alice', 'signature'],
      ['On Mon, Bob wrote:', 'quoted'],
      ['Old', 'quoted'],
    ]);
  });

  it('marks everything after an Outlook divRplyFwdMsg header as quoted', () => {
    const html = '<div>Reply</div><hr><div id="divRplyFwdMsg"><b>From:</b> Bob</div><div>Old body</div>';
    expect(hintsOf(html)).toEqual([
      ['Reply', null],
      ['', 'quoted'],
      ['From: Bob', 'quoted'],
      ['Old body', 'quoted'],
    ]);
  });

  it.each([
    ['Apple Mail / Thunderbird', '<blockquote type="cite">Old</blockquote>'],
    ['Thunderbird prefix', '<div class="moz-cite-prefix">Old</div>'],
    ['Yahoo', '<div class="yahoo_quoted" id="yahoo_quoted_123">Old</div>'],
    ['Proton', '<div class="protonmail_quote">Old</div>'],
    ['Zimbra', '<hr id="zwchr"><div>Old</div>'],
    [
      'Outlook border-top',
      '<div style="border:none;border-top:solid #E1E1E1 1.0pt"><p>From: Bob</p></div><p>Old</p>',
    ],
    ...['Od', 'Lähettäjä', 'Feladó', 'Kimden', '差出人', '发件人', '보낸 사람', 'Από', 'Від'].map((key) => [
      `Outlook border-top, "${key}:"`,
      `<div style="border:none;border-top:solid #E1E1E1 1.0pt"><p><b>${key}:</b> Bob</p></div><p>Old</p>`,
    ]),
  ])('%s containers are quoted', (_client, quote) => {
    const { lines, hints } = flattenHtml(`<p>Reply</p>${quote}`);
    expect(hints[0]).toBeNull();
    expect(lines.at(-1)).toBe('Old');
    expect(hints.at(-1)).toBe('quoted');
  });

  it('keeps a plain author blockquote unmarked', () => {
    expect(hintsOf('<p>As the manual says:</p><blockquote>Press reset.</blockquote>')).toEqual([
      ['As the manual says:', null],
      ['', null],
      ['Press reset.', null],
    ]);
  });
});

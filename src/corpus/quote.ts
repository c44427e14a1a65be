// How each mail client quotes the message it replies to, in text and in HTML: Gmail's
// "On … wrote:" + '>' lines and gmail_quote, Outlook's original-message block and
// divRplyFwdMsg, Apple Mail's blockquote type=cite, Thunderbird's moz-cite-prefix.

import { displayMailbox, escapeHtml, localParts, type Mailbox } from './encode.js';
import type { LanguageCode, LanguagePack } from './language.js';
import type { Client } from './population.js';

/** What a reply needs to know about the message it quotes. */
export interface QuotedMessage {
  readonly from: Mailbox;
  readonly to: readonly Mailbox[];
  readonly subject: string;
  readonly date: Date;
  readonly tz: number;
  readonly messageId: string | null;
  readonly text: string;
  /** Inner HTML of the message body (no html/head/body wrapper). */
  readonly html: string;
}

/** Quoted history beyond this many characters is cut, keeping the newest part. */
const MAX_QUOTE_CHARS = 24_000;

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));

/** The date as the client of `lang` prints it in a Gmail attribution line. */
export function attributionDate(pack: LanguagePack, date: Date, tz: number): string {
  const l = localParts(date, tz);
  const wd = pack.weekdays[l.getUTCDay()] as string;
  const mon = pack.months[l.getUTCMonth()] as string;
  const d = l.getUTCDate();
  const y = l.getUTCFullYear();
  const h = l.getUTCHours();
  const hm = `${pad2(h)}:${pad2(l.getUTCMinutes())}`;
  const code: LanguageCode = pack.code;
  switch (code) {
    case 'en':
      return `${wd.slice(0, 3)}, ${mon.slice(0, 3)} ${d}, ${y} at ${h % 12 || 12}:${pad2(l.getUTCMinutes())} ${h < 12 ? 'AM' : 'PM'}`;
    case 'it':
      return `${wd} ${d} ${mon} ${y} alle ore ${hm}`;
    case 'de':
      return `${wd}, ${d}. ${mon} ${y} um ${hm} Uhr`;
    case 'fr':
      return `${wd} ${d} ${mon} ${y} à ${hm}`;
    case 'es':
      return `${wd}, ${d} ${mon} ${y} a las ${h}:${pad2(l.getUTCMinutes())}`;
    case 'pt':
      return `${wd}, ${d} de ${mon} de ${y} às ${hm}`;
    case 'nl':
      return `${wd} ${d} ${mon} ${y} om ${hm}`;
    case 'ru':
      return `${wd}, ${d} ${mon} ${y} г. в ${hm}`;
    default:
      return `${y}年${l.getUTCMonth() + 1}月${d}日(${wd}) ${hm}`;
  }
}

/** Outlook's "Sent:" value: long English form, numeric elsewhere. */
function outlookDate(pack: LanguagePack, date: Date, tz: number): string {
  const l = localParts(date, tz);
  const h = l.getUTCHours();
  if (pack.code === 'en') {
    const days = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
    return `${days[l.getUTCDay()]}, ${pack.months[l.getUTCMonth()]} ${l.getUTCDate()}, ${l.getUTCFullYear()} ${h % 12 || 12}:${pad2(l.getUTCMinutes())} ${h < 12 ? 'AM' : 'PM'}`;
  }
  return `${pad2(l.getUTCDate())}/${pad2(l.getUTCMonth() + 1)}/${l.getUTCFullYear()} ${pad2(h)}:${pad2(l.getUTCMinutes())}`;
}

function tailOf(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.indexOf('\n', text.length - max);
  return cut < 0 ? text.slice(-max) : text.slice(cut + 1);
}

export interface Quoted {
  readonly text: string;
  readonly html: string;
}

/**
 * The quoted part of a reply in `client`'s style, to append after the authored text/HTML.
 * `outlookLine` picks the newer underscore separator instead of "-----Original Message-----".
 */
export function quoteFor(
  client: Client,
  pack: LanguagePack,
  prev: QuotedMessage,
  outlookLine = false,
): Quoted {
  const who = displayMailbox(prev.from);
  const prevText = tailOf(prev.text, MAX_QUOTE_CHARS);
  const prevHtml = prev.html.length > MAX_QUOTE_CHARS * 2 ? '<div>[…]</div>' : prev.html;
  switch (client) {
    case 'outlook': {
      const [marker, fromL, sentL, toL, subjL] = pack.outlook;
      const to = prev.to.map((m) => displayMailbox(m)).join('; ');
      const sent = outlookDate(pack, prev.date, prev.tz);
      const head = `${outlookLine ? '________________________________' : marker}\n${fromL}: ${who}\n${sentL}: ${sent}\n${toL}: ${to}\n${subjL}: ${prev.subject}\n\n`;
      const htmlHead = `<hr style="display:inline-block;width:98%" tabindex="-1"><div id="divRplyFwdMsg" dir="ltr"><font face="Calibri, sans-serif" style="font-size:11pt" color="#000000"><b>${fromL}:</b> ${escapeHtml(who)}<br><b>${sentL}:</b> ${sent}<br><b>${toL}:</b> ${escapeHtml(to)}<br><b>${subjL}:</b> ${escapeHtml(prev.subject)}</font><div>&nbsp;</div></div>\n`;
      return { text: `\n\n${head}${prevText}`, html: `${htmlHead}<div>\n${prevHtml}\n</div>\n` };
    }
    case 'apple': {
      const line = pack.wrote(attributionDate(pack, prev.date, prev.tz), who);
      return {
        text: `\n\n${line}\n\n> ${prevText.replaceAll('\n', '\n> ')}`,
        html: `<div><br>\n<blockquote type="cite"><div>${escapeHtml(line)}</div><br>\n${prevHtml}\n</blockquote></div>\n`,
      };
    }
    case 'thunderbird': {
      const line = pack.wrote(attributionDate(pack, prev.date, prev.tz), who);
      const cite = prev.messageId ? ` cite="mid:${prev.messageId}"` : '';
      return {
        text: `\n\n${line}\n${prevText.replace(/^/gm, (_, o: number) => (prevText.charAt(o) === '>' ? '>' : '> '))}`,
        html: `<div class="moz-cite-prefix">${escapeHtml(line)}<br>\n</div>\n<blockquote type="cite"${cite}>\n${prevHtml}\n</blockquote>\n`,
      };
    }
    default: {
      const line = pack.wrote(attributionDate(pack, prev.date, prev.tz), who);
      return {
        text: `\n\n${line}\n\n> ${prevText.replaceAll('\n', '\n> ')}`,
        html: `<br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">${escapeHtml(line)}<br></div><blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex;border-left:1px solid rgb(204,204,204);padding-left:1ex">${prevHtml}</blockquote></div>`,
      };
    }
  }
}

/** A forwarded message block (Gmail layout, localized marker) for the text and HTML parts. */
export function forwardBlock(pack: LanguagePack, prev: QuotedMessage): Quoted {
  const [, fromL, , toL, subjL] = pack.outlook;
  const who = displayMailbox(prev.from);
  const date = attributionDate(pack, prev.date, prev.tz);
  const to = prev.to.map((m) => displayMailbox(m)).join(', ');
  const head = `${pack.forwardMarker}\n${fromL}: ${who}\nDate: ${date}\n${subjL}: ${prev.subject}\n${toL}: ${to}\n\n`;
  return {
    text: `\n\n${head}${tailOf(prev.text, MAX_QUOTE_CHARS)}`,
    html: `<br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">${escapeHtml(pack.forwardMarker)}<br>${fromL}: ${escapeHtml(who)}<br>Date: ${date}<br>${subjL}: ${escapeHtml(prev.subject)}<br>${toL}: ${escapeHtml(to)}<br></div><br><br>${prev.html}</div>`,
  };
}

const OUTLOOK_HEAD =
  '<head><meta http-equiv="Content-Type" content="text/html; charset=CHARSET"><meta name="Generator" content="Microsoft Word 15 (filtered medium)"><style><!--\n@font-face {font-family:"Cambria Math"; panose-1:2 4 5 3 5 4 6 3 2 4;}\n@font-face {font-family:Calibri; panose-1:2 15 5 2 2 2 4 3 2 4;}\np.MsoNormal, li.MsoNormal, div.MsoNormal {margin:0cm; font-size:11.0pt; font-family:"Calibri",sans-serif;}\na:link, span.MsoHyperlink {mso-style-priority:99; color:#0563C1; text-decoration:underline;}\nspan.EmailStyle17 {mso-style-type:personal-compose; font-family:"Calibri",sans-serif; color:windowtext;}\n.MsoChpDefault {mso-style-type:export-only; font-family:"Calibri",sans-serif;}\n@page WordSection1 {size:612.0pt 792.0pt; margin:72.0pt 72.0pt 72.0pt 72.0pt;}\ndiv.WordSection1 {page:WordSection1;}\n--></style></head>';

/** Wraps a message's inner HTML in its client's document skeleton. */
export function htmlDocument(client: Client, inner: string, charset: string): string {
  if (client === 'outlook') {
    return `<html xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:w="urn:schemas-microsoft-com:office:word" xmlns:m="http://schemas.microsoft.com/office/2004/12/omml" xmlns="http://www.w3.org/TR/REC-html40">\n${OUTLOOK_HEAD.replace('CHARSET', charset)}\n<body lang="EN-US" link="#0563C1" vlink="#954F72" style="word-wrap:break-word"><div class="WordSection1">\n${inner}\n</div></body></html>\n`;
  }
  if (client === 'gmail') return `<div dir="ltr">${inner}</div>\n`;
  return `<html><head><meta http-equiv="Content-Type" content="text/html; charset=${charset}"></head><body>${inner}</body></html>\n`;
}

/** Paragraphs as the HTML each client writes for them: Gmail on one line, the others broken per element. */
export function paragraphsHtml(client: Client, paragraphs: readonly string[]): string {
  let out = '';
  for (const p of paragraphs) {
    const e = escapeHtml(p).replace(/\n/g, '<br>');
    if (client === 'outlook')
      out += `<p class="MsoNormal">${e}<o:p></o:p></p>\n<p class="MsoNormal"><o:p>&nbsp;</o:p></p>\n`;
    else if (client === 'gmail') out += `<div>${e}</div><div><br></div>`;
    else out += `<div>${e}</div>\n<br>\n`;
  }
  return out;
}

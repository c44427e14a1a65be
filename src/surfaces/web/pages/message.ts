// The message page: headers, the authored text, quoted history collapsed, forwarded blocks,
// signature, disclaimer and footer dimmed, attachments (download and extracted text), and links
// to the thread and the original bytes. Only the cleaned text is shown: the mail's HTML never
// reaches the page. A citation links here with `?quote=`: the quoted passage is marked, its
// part opened, and `#cite` scrolls to it.

import type { BodySpan, CleanedBody, SpanKind } from '../../../core/types.js';
import type { StoredAttachment, StoredMessage } from '../../../store/index.js';
import { formatAddress, formatAddresses } from '../../cli/format.js';
import { type Html, html, messagePath, query, size, threadPath, time } from '../html.js';
import { layout } from '../layout.js';
import type { WebView } from '../view.js';

/** Words of a quote looked for in the body: enough to place it, few enough to survive a cut. */
const QUOTE_WORDS = 12;

/** A half-open character range of a text. */
interface Range {
  readonly start: number;
  readonly end: number;
}

/** Where `quote` sits in `body` (whitespace-insensitive), or null. */
export function findQuote(body: string, quote: string): Range | null {
  const words = quote
    .replace(/\.\.\.$|…$/, '')
    .split(/\s+/)
    .filter((w) => w !== '')
    .slice(0, QUOTE_WORDS);
  if (words.length === 0) return null;
  const pattern = new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+'), 'u');
  const match = pattern.exec(body);
  return match ? { start: match.index, end: match.index + match[0].length } : null;
}

/** The body as consecutive parts (the cleaner's spans cover it completely), same-kind runs merged. */
function parts(body: CleanedBody): BodySpan[] {
  const out: BodySpan[] = [];
  for (const span of body.spans) {
    const last = out[out.length - 1];
    if (last && last.kind === span.kind && last.end === span.start)
      out[out.length - 1] = { ...last, end: span.end };
    else out.push(span);
  }
  return out;
}

/** A part's text with the cited range, where it falls inside, in <mark id="cite">. */
function marked(body: string, part: Range, cite: Range | null): Html {
  const from = cite ? Math.max(cite.start, part.start) : 0;
  const to = cite ? Math.min(cite.end, part.end) : 0;
  if (!cite || from >= to) return html`${body.slice(part.start, part.end).trim()}`;
  const id = cite.start >= part.start ? html` id="cite"` : '';
  return html`${body.slice(part.start, from).trimStart()}<mark${id}>${body.slice(from, to)}</mark>${body
    .slice(to, part.end)
    .trimEnd()}`;
}

/** Parts in a <details>: quoted history starts closed; a forward is what the author sent, so open. */
const FOLDED: Partial<Record<SpanKind, { readonly summary: string; readonly open: boolean }>> = {
  quoted: { summary: 'Quoted history', open: false },
  forwarded: { summary: 'Forwarded message', open: true },
};
const DIMMED: Partial<Record<SpanKind, string>> = {
  signature: 'Signature',
  disclaimer: 'Disclaimer',
  footer: 'Footer',
};

export function renderBody(cleaned: CleanedBody, cite: Range | null): Html {
  if (cleaned.body.trim() === '') return html`<p class="dim">(no text)</p>`;
  return html`${parts(cleaned).map((part) => {
    const text = marked(cleaned.body, part, cite);
    const folded = FOLDED[part.kind];
    const cited = cite !== null && cite.start < part.end && cite.end > part.start;
    if (folded)
      return html`<details class="part"${folded.open || cited ? html` open` : ''}><summary>${folded.summary}</summary><div class="text">${text}</div></details>`;
    const dimmed = DIMMED[part.kind];
    if (dimmed) return html`<div class="text dim" role="note" aria-label="${dimmed}">${text}</div>`;
    return html`<div class="text authored">${text}</div>`;
  })}`;
}

/** An attachment's extracted text, when extraction produced some. */
const extractedText = (a: StoredAttachment): string | null =>
  a.extraction?.status === 'ok' && a.extraction.text.trim() !== '' ? a.extraction.text : null;

/** A quote found in attachment `n`'s extracted text. */
interface AttachmentCite extends Range {
  readonly n: number;
}

function attachments(view: WebView, message: StoredMessage, cite: AttachmentCite | null): Html {
  if (message.attachments.length === 0) return html``;
  return html`<section aria-labelledby="attachments"><h2 id="attachments">Attachments</h2><ul>${message.attachments.map(
    (a, n) => {
      const name = a.filename ?? `attachment ${n + 1}`;
      const text = extractedText(a);
      const cited = cite?.n === n ? cite : null;
      return html`<li>
  <a href="${messagePath(view.inbox, message.messageId)}/attachments/${n}" download>${name}</a>
  <span class="meta">${a.contentType} · ${size(a.size)}</span>
  ${
    text === null
      ? html`<span class="meta"> · ${a.extraction ? `no text (${a.extraction.reason ?? a.extraction.status})` : 'text not extracted yet'}</span>`
      : html`<details class="part"${cited ? html` open` : ''}><summary>Extracted text${
          a.extraction?.truncated ? ' (truncated)' : ''
        }</summary><pre>${marked(text, { start: 0, end: text.length }, cited)}</pre></details>`
  }
</li>`;
    },
  )}</ul></section>`;
}

function headers(message: StoredMessage): Html {
  const row = (name: string, value: string | Html) => html`<dt>${name}</dt><dd>${value}</dd>`;
  // A mail tree's top folder has the empty name: nothing to show.
  const folders = message.folders.filter((f) => f !== '');
  return html`<dl class="headers">
${row('From', formatAddress(message.from) || '(no sender)')}
${message.to.length > 0 ? row('To', formatAddresses(message.to)) : ''}
${message.cc.length > 0 ? row('Cc', formatAddresses(message.cc)) : ''}
${row('Date', time(message.date.toISOString()))}
${message.labels.length > 0 ? row('Labels', html`${message.labels.map((l) => html`<span class="badge">${l}</span>`)}`) : ''}
${folders.length > 0 ? row('Folders', folders.join(', ')) : ''}
${row('Message-ID', message.messageId)}
</dl>`;
}

export function messagePage(view: WebView, messageId: string, quote: string): Html {
  const message = view.api.getMessage(view.inbox, messageId);
  const cite = quote === '' ? null : findQuote(message.cleaned.body, quote);
  // An extractive answer may quote an attachment's text: looked for there when not in the body.
  const attachmentCite =
    quote === '' || cite
      ? null
      : (message.attachments
          .map((a, n) => {
            const text = extractedText(a);
            const range = text === null ? null : findQuote(text, quote);
            return range ? { ...range, n } : null;
          })
          .find((c) => c !== null) ?? null);
  const subject = message.subject.trim() === '' ? '(no subject)' : message.subject;
  const body = html`<article>
<h1>${subject}</h1>
${headers(message)}
<p class="links">
  <a href="${threadPath(view.inbox, message.threadId)}${query({ open: message.messageId })}">Thread</a> ·
  <a href="${messagePath(view.inbox, message.messageId)}/original">Original</a>
</p>
${quote !== '' && cite === null && attachmentCite === null ? html`<p class="notice">The cited passage was not found word for word in this message.</p>` : ''}
${renderBody(message.cleaned, cite)}
${attachments(view, message, attachmentCite)}
</article>`;
  return layout(view, subject, body);
}

/** The stored bytes as text in a page: what the sender sent, never interpreted. */
export function originalPage(view: WebView, messageId: string): Html {
  const message = view.api.getMessage(view.inbox, messageId);
  const raw = view.api.getRaw(view.inbox, messageId);
  const back = messagePath(view.inbox, message.messageId);
  return layout(
    view,
    `Original of ${message.subject}`,
    html`<h1>Original message</h1><p><a href="${back}">Back to the message</a> · ${size(raw.length)}</p><pre>${raw.toString('utf8')}</pre>`,
  );
}

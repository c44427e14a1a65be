// The thread page: its messages in tree order, indented by depth, each one a <details> so a
// long thread reads as a list of senders; the message the reader came from (`?open=`) is the
// one shown open, else the newest.

import type { ThreadEntry } from '../../../store/index.js';
import { formatAddress } from '../../cli/format.js';
import { type Html, html, messagePath, time } from '../html.js';
import { layout } from '../layout.js';
import type { WebView } from '../view.js';
import { renderBody } from './message.js';

/** Deeper replies are drawn at this depth: past it, indentation only narrows the text. */
const MAX_DEPTH_CLASS = 8;

function newestIndex(entries: readonly ThreadEntry[]): number {
  let best = 0;
  entries.forEach((e, i) => {
    if (e.message.date.getTime() > (entries[best]?.message.date.getTime() ?? 0)) best = i;
  });
  return best;
}

export function threadPage(view: WebView, threadId: string, open: string): Html {
  const thread = view.api.getThread(view.inbox, threadId);
  const entries = thread.entries;
  const wanted = open.replace(/^<|>$/g, '');
  const found = entries.findIndex((e) => e.message.messageId === wanted);
  const openIndex = found >= 0 ? found : newestIndex(entries);
  const first = entries[0]?.message.subject.trim() || '(no subject)';
  const body = html`<h1>${first}</h1>
<p class="meta">${entries.length} message${entries.length === 1 ? '' : 's'}</p>
<div class="tree">${entries.map((entry, i) => {
    const m = entry.message;
    const subject = m.subject.trim() || '(no subject)';
    return html`<details class="d${Math.min(entry.depth, MAX_DEPTH_CLASS)}" id="m${i}"${i === openIndex ? html` open` : ''}>
  <summary><span>${formatAddress(m.from) || '(no sender)'}</span> · ${time(m.date.toISOString())}${
    subject === first ? '' : html` · ${subject}`
  }</summary>
  <p><a href="${messagePath(view.inbox, m.messageId)}">Open message: ${subject}</a></p>
  ${renderBody(m.cleaned, null)}
</details>`;
  })}</div>`;
  return layout(view, first, body);
}

// The thread page: what the thread decided first (each decision with its evidence quotes,
// linked to their messages below), then its messages in tree order, indented by depth, each
// one a <details> so a long thread reads as a list of senders; the message the reader came
// from (`?open=`) is the one shown open, else the newest.

import type { DecisionJson } from '../../../decisions/index.js';
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

/** Most decisions shown: a 40-patch series holds 40 "Applied." decisions; the CLI lists them all. */
const MAX_DECISIONS = 20;

/**
 * The thread's decisions, newest first; each quote links to its message in the tree (`#m<i>`).
 * Statements (the LLM's too) and quotes are untrusted text, escaped like the mail.
 */
function decisionsSection(decisions: readonly DecisionJson[], entries: readonly ThreadEntry[]): Html {
  if (decisions.length === 0) return html``;
  const indexOf = new Map(entries.map((e, i) => [e.message.messageId, i]));
  return html`<section class="decisions"><h2>Decisions</h2><ol class="results">${decisions
    .slice(0, MAX_DECISIONS)
    .map(
      (d) => html`<li><p>${d.statement}</p>
<p class="meta"><span class="badge">${d.status}</span><span class="badge">${d.kind}</span>${
        d.method === 'llm' ? html`<span class="badge">phrased by the LLM</span>` : ''
      } ${time(d.decidedAt)}</p>
<ul class="evidence">${d.evidence.map((e) => {
        const at = indexOf.get(e.messageId);
        const role = at === undefined ? e.role : html`<a href="#m${at}">${e.role}</a>`;
        return html`<li>${role}: <q>${e.quote}</q></li>`;
      })}</ul></li>`,
    )}</ol></section>`;
}

export function threadPage(view: WebView, threadId: string, open: string): Html {
  const thread = view.api.getThread(view.inbox, threadId);
  const entries = thread.entries;
  const wanted = open.replace(/^<|>$/g, '');
  const found = entries.findIndex((e) => e.message.messageId === wanted);
  const openIndex = found >= 0 ? found : newestIndex(entries);
  const first = entries[0]?.message.subject.trim() || '(no subject)';
  const { decisions, nextPageToken } = view.api.listDecisions(view.inbox, {
    threadId: thread.threadId,
    limit: MAX_DECISIONS,
  });
  const body = html`<h1>${first}</h1>
<p class="meta">${entries.length} message${entries.length === 1 ? '' : 's'}</p>
${decisionsSection(decisions, entries)}${
  nextPageToken === null
    ? ''
    : html`<p class="meta">The newest ${MAX_DECISIONS} decisions; <code>mailsift decisions --thread</code> lists them all.</p>`
}
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

// The ask page: a question over one inbox, answered as `POST /v1/inboxes/{inbox}/ask` answers
// it (the configured LLM, else the best passages quoted), its citations numbered and linked to
// the cited message with the quoted passage marked. How the answer was found (retrieval mode,
// the filters the question set, what was degraded) is stated, and so is that it may be wrong.

import type { Answer, Citation } from '../../../rag/index.js';
import { type Html, html, messagePath, query, time } from '../html.js';
import { layout } from '../layout.js';
import type { WebView } from '../view.js';

/** A cited message id in the answer text: `[<id>]` as the LLM and the extractive answer write it. */
const CITED = /\[<?([^\]\s<>]+)>?\]/g;

function citationHref(inbox: string, c: Citation): string {
  return `${messagePath(inbox, c.messageId)}${query({ quote: c.quote })}#cite`;
}

/**
 * The answer's text with each `[<id>]` it cites replaced by a numbered link to the message.
 * An id cited twice (an extractive answer quoting a body and its attachment) takes the next
 * citation of that message each time, so each line links the passage it quotes.
 */
function answerText(inbox: string, answer: Answer): Html {
  const used = new Set<number>();
  const pieces: Array<string | Html> = [];
  let at = 0;
  for (const match of answer.answer.matchAll(CITED)) {
    const ofId = answer.citations.flatMap((c, i) => (c.messageId === match[1] ? [i] : []));
    const index = ofId.find((i) => !used.has(i)) ?? ofId[0];
    const citation = index === undefined ? undefined : answer.citations[index];
    if (index === undefined || !citation) continue;
    used.add(index);
    const n = index + 1;
    pieces.push(answer.answer.slice(at, match.index));
    pieces.push(
      html`<a href="${citationHref(inbox, citation)}" aria-label="Source ${n}: ${citation.subject}">[${n}]</a>`,
    );
    at = match.index + match[0].length;
  }
  pieces.push(answer.answer.slice(at));
  return html`<div class="text answer">${pieces}</div>`;
}

function sources(inbox: string, answer: Answer): Html {
  if (answer.citations.length === 0) return html``;
  return html`<h2>Sources</h2><ol class="sources">${answer.citations.map(
    (c) => html`<li>
  <a href="${citationHref(inbox, c)}">${c.subject.trim() || '(no subject)'}</a>
  <div class="meta">${c.from} · ${time(c.date)}</div>
  <blockquote class="frag">${c.quote}</blockquote>
</li>`,
  )}</ol>`;
}

function form(view: WebView, question: string): Html {
  return html`<form method="post" action="/ask" class="ask">
  <input type="hidden" name="csrf" value="${view.csrf}" />
  ${
    view.inboxes.length > 1
      ? html`<label>Inbox <select name="inbox">${view.inboxes.map(
          (name) =>
            html`<option value="${name}"${name === view.inbox ? html` selected` : ''}>${name}</option>`,
        )}</select></label>`
      : html`<input type="hidden" name="inbox" value="${view.inbox}" />`
  }
  <label for="question">Question</label>
  <textarea id="question" name="question" rows="3" maxlength="2000" required>${question}</textarea>
  <p><button type="submit">Ask</button></p>
</form>`;
}

/** How the answer was found, in words: its method, retrieval mode, filters and what degraded. */
function provenance(answer: Answer, filters: readonly string[]): Html {
  const method =
    answer.method === 'llm'
      ? 'Written by the configured language model from the sources below.'
      : 'Quoted from the best-matching passages (no language model answered).';
  return html`<ul class="meta provenance">
  <li>${method}</li>
  <li>Retrieval: ${answer.retrieval.mode}</li>
  <li>Filters: ${filters.length > 0 ? filters.join(', ') : 'none'}</li>
  ${answer.retrieval.degraded ? html`<li class="notice" role="status">Degraded: ${answer.retrieval.degraded}</li>` : ''}
  ${answer.unknownCitations.length > 0 ? html`<li class="notice">Cited messages that were not retrieved (unsupported): ${answer.unknownCitations.join(', ')}</li>` : ''}
</ul>`;
}

export interface Asked {
  readonly question: string;
  readonly answer: Answer;
  /** The hard filters the question set, in words. */
  readonly filters: readonly string[];
}

export function askPage(view: WebView, asked: Asked | null): Html {
  const body = html`<h1>Ask</h1>
${form(view, asked?.question ?? '')}
${
  asked
    ? html`<section aria-labelledby="answer"><h2 id="answer">Answer</h2>
<p class="notice" role="note">The model may be wrong: check the sources.</p>
${answerText(view.inbox, asked.answer)}
${provenance(asked.answer, asked.filters)}
${sources(view.inbox, asked.answer)}</section>`
    : ''
}`;
  return layout(view, asked ? asked.question : 'Ask', body);
}

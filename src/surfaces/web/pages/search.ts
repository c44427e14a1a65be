// The search page: one box with agent search's semantics (relevance, `**` fragments, matched
// fields), or, with the box empty, the chronological list filtered by sender, recipient,
// subject, label, dates and attachments. Everything lives in the URL, so a search is a bookmark;
// paging follows the API's opaque page tokens, so a page never repeats or skips a hit.

import type { Highlights, MessageHit, MessageItem, ThreadHit } from '../../../search/index.js';
import type { Params, ThreadItem } from '../../http/api.js';
import { fragment, type Html, html, messagePath, query, threadPath, time } from '../html.js';
import { layout } from '../layout.js';
import type { WebView } from '../view.js';

/** Results per page: a screenful with fragments. */
export const PAGE_SIZE = 20;

/** The search page's URL parameters: the box, the list filters, the kind and the page token. */
export const SEARCH_FIELDS = [
  'q',
  'kind',
  'from',
  'to',
  'subject',
  'label',
  'after',
  'before',
  'attachment',
  'page',
] as const;
export type SearchForm = Readonly<Record<(typeof SEARCH_FIELDS)[number], string>>;

export function readSearchForm(get: (name: string) => string | undefined): SearchForm {
  return Object.fromEntries(SEARCH_FIELDS.map((f) => [f, (get(f) ?? '').trim()])) as SearchForm;
}

/** Field names in the order the badges show them, with the words a reader knows. */
const FIELD_NAMES: Readonly<Record<keyof Highlights, string>> = {
  subject: 'subject',
  from: 'sender',
  recipients: 'recipients',
  text: 'text',
  attachments: 'attachment',
  quoted: 'quoted text',
};

function matched(highlights: Highlights | undefined): Html {
  if (!highlights) return html``;
  const fields = (Object.keys(FIELD_NAMES) as Array<keyof Highlights>).filter((f) => highlights[f]);
  const fragments = (['text', 'attachments', 'quoted'] as const).flatMap((f) => highlights[f] ?? []);
  return html`<div class="matched">${fields.map(
    (f) => html`<span class="badge">${FIELD_NAMES[f]}</span>`,
  )}</div>${fragments.slice(0, 2).map((f) => html`<p class="frag">${fragment(f)}</p>`)}`;
}

function subjectOf(subject: string): string {
  return subject.trim() === '' ? '(no subject)' : subject;
}

function messageRow(inbox: string, m: MessageItem | MessageHit): Html {
  const highlights = 'highlights' in m ? m.highlights : undefined;
  return html`<li>
  <a href="${messagePath(inbox, m.messageId)}">${subjectOf(m.subject)}</a>
  <div class="meta">${m.from ?? '(no sender)'} · ${time(m.timestamp)}${
    m.attachments.length > 0
      ? ` · ${m.attachments.length} attachment${m.attachments.length > 1 ? 's' : ''}`
      : ''
  }</div>
  ${highlights ? matched(highlights) : html`<p class="frag dim">${m.preview}</p>`}
</li>`;
}

function threadRow(inbox: string, t: ThreadHit | ThreadItem): Html {
  const hit = 'highlights' in t;
  const open = hit ? t.lastMessageId : t.messageId;
  const who = hit ? t.senders.join(', ') : (t.from ?? '(no sender)');
  return html`<li>
  <a href="${threadPath(inbox, t.threadId)}${query({ open })}">${subjectOf(t.subject)}</a>
  <div class="meta">${who} · ${t.messageCount} message${t.messageCount === 1 ? '' : 's'} · ${time(t.timestamp)}</div>
  ${hit ? matched(t.highlights) : html`<p class="frag dim">${t.preview}</p>`}
</li>`;
}

interface Page {
  readonly rows: Html[];
  readonly next: string | null;
  readonly degraded: readonly string[];
}

/** Whether the form sets a filter only the chronological list reads. */
const listFiltered = (form: SearchForm): boolean =>
  Boolean(form.from || form.to || form.subject || form.label || form.attachment);

/** The list filters of the form, sender and recipients under the names the list takes. */
function listFilters(form: SearchForm, names: { readonly from: string; readonly to: string }): Params {
  return {
    ...(form.from ? { [names.from]: form.from } : {}),
    ...(form.to ? { [names.to]: form.to } : {}),
    ...(form.subject ? { subject: form.subject } : {}),
    ...(form.label ? { labels: [form.label] } : {}),
    ...(form.attachment ? { hasAttachment: true } : {}),
  };
}

function run(view: WebView, form: SearchForm): Page {
  const { api, inbox } = view;
  const common: Params = {
    limit: PAGE_SIZE,
    ...(form.page ? { pageToken: form.page } : {}),
    ...(form.after ? { after: form.after } : {}),
    ...(form.before ? { before: form.before } : {}),
  };
  const threads = form.kind === 'threads';
  if (form.q !== '') {
    const params = { ...common, q: form.q };
    const result = threads ? api.searchThreads(inbox, params) : api.searchMessages(inbox, params);
    const rows =
      'threads' in result
        ? result.threads.map((t) => threadRow(inbox, t))
        : result.messages.map((m) => messageRow(inbox, m));
    return { rows, next: result.nextPageToken, degraded: result.degraded ?? [] };
  }
  if (threads) {
    const result = api.listThreads(inbox, {
      ...common,
      ...listFilters(form, { from: 'senders', to: 'recipients' }),
    });
    return { rows: result.threads.map((t) => threadRow(inbox, t)), next: result.nextPageToken, degraded: [] };
  }
  const result = api.listMessages(inbox, { ...common, ...listFilters(form, { from: 'from', to: 'to' }) });
  return { rows: result.messages.map((m) => messageRow(inbox, m)), next: result.nextPageToken, degraded: [] };
}

function filterField(form: SearchForm, name: 'from' | 'to' | 'subject' | 'label', label: string): Html {
  return html`<label>${label}<input form="search" name="${name}" value="${form[name]}" /></label>`;
}

function dateField(form: SearchForm, name: 'after' | 'before', label: string): Html {
  return html`<label>${label}<input form="search" type="date" name="${name}" value="${form[name]}" /></label>`;
}

function controls(view: WebView, form: SearchForm): Html {
  const kind = (value: string, label: string) =>
    html`<label class="check"><input form="search" type="radio" name="kind" value="${value}"${
      (form.kind === 'threads') === (value === 'threads') ? html` checked` : ''
    } />${label}</label>`;
  const inboxes =
    view.inboxes.length > 1
      ? html`<label>Inbox<select form="search" name="inbox">${view.inboxes.map(
          (name) =>
            html`<option value="${name}"${name === view.inbox ? html` selected` : ''}>${name}</option>`,
        )}</select></label>`
      : '';
  return html`<fieldset>
  <legend>Show</legend>
  <div class="filters">${kind('messages', 'Messages')}${kind('threads', 'Threads')}${inboxes}</div>
</fieldset>
<details${listFiltered(form) ? html` open` : ''}>
  <summary>Filters (chronological list: leave the search box empty; dates also narrow a search)</summary>
  <div class="filters">
    ${filterField(form, 'from', 'From')}${filterField(form, 'to', 'To')}${filterField(form, 'subject', 'Subject')}${filterField(form, 'label', 'Label')}
    ${dateField(form, 'after', 'After')}${dateField(form, 'before', 'Before')}
    <label class="check"><input form="search" type="checkbox" name="attachment" value="1"${form.attachment ? html` checked` : ''} />Has attachment</label>
  </div>
  <button form="search" type="submit">Apply filters</button>
</details>`;
}

export function searchPage(view: WebView, form: SearchForm): Html {
  if (view.inbox === '') {
    return layout(
      view,
      'Search',
      html`<h1>Search</h1><p class="notice">No inbox to show: ingest some mail first.</p>`,
    );
  }
  const page = run(view, form);
  const { page: _page, ...kept } = form;
  const here = { ...kept, ...(view.inboxes.length > 1 ? { inbox: view.inbox } : {}) };
  const heading = form.q === '' ? 'Latest mail' : 'Results';
  const body = html`<h1>${heading}</h1>
${controls(view, form)}
${page.degraded.length > 0 ? html`<p class="notice">Partial results: ${page.degraded.join(', ')} skipped.</p>` : ''}
${
  form.q !== '' && listFiltered(form)
    ? html`<p class="notice" role="status">The sender, recipient, subject, label and attachment filters apply to the chronological list: clear the search box to use them.</p>`
    : ''
}
${page.rows.length === 0 ? html`<p class="notice">Nothing matches.</p>` : html`<ol class="results" aria-label="${heading}">${page.rows}</ol>`}
<nav class="pager" aria-label="Pages of results">
  ${form.page ? html`<a href="/${query(here)}">First page</a>` : ''}
  ${page.next ? html`<a rel="next" href="/${query({ ...here, page: page.next })}">Next page</a>` : ''}
</nav>`;
  return layout(view, form.q === '' ? 'Search' : form.q, body, form.q);
}

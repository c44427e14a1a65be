// HTML building blocks: every page is made with hono's `html` tagged template, which escapes
// each interpolated string. Mail text only ever enters as a plain string (never through
// `raw`), so a subject like `<script>` is shown as text. The `**` fragment markers of search
// highlights are split here and the pieces escaped one by one, so the bold is ours, not the mail's.

import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';

export { html };

/** A piece of markup built by `html` (a promise only if a template held one; ours never do). */
export type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

/** A search fragment with `**term**` marks: the marked runs in <strong>, all of it escaped. */
export function fragment(text: string): Html {
  return html`${text.split('**').map((piece, i) => (i % 2 === 1 ? html`<strong>${piece}</strong>` : piece))}`;
}

/** An ISO instant as a <time>, its day and minute in UTC (the server does not know the reader's zone). */
export function time(iso: string): Html {
  return html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')}</time>`;
}

/** Bytes for people: 1.2 MB, 34 KB, 512 B. */
export function size(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} B`;
}

/** A path built from fixed segments and untrusted ones, each percent-encoded as one segment. */
export function path(...segments: readonly string[]): string {
  return `/${segments.map(encodeURIComponent).join('/')}`;
}

/** A query string from the non-empty values (values encoded). */
export function query(params: Readonly<Record<string, string | null | undefined>>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

export const messagePath = (inbox: string, messageId: string): string => path('m', inbox, messageId);
export const threadPath = (inbox: string, threadId: string): string => path('t', inbox, threadId);

// The frame of every page: the header's search box (so `/` can focus it anywhere), the
// navigation, and sign-out as a POST carrying the CSRF token.

import { type Html, html, query } from './html.js';
import type { WebView } from './view.js';

/** The HTML document around a page's content: our stylesheet and script only. */
function shell(title: string, content: Html): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<meta name="referrer" content="same-origin" />
<title>${title} · mailsift</title>
<link rel="stylesheet" href="/ui.css" />
<script src="/ui.js" defer></script>
</head>
<body>
${content}
</body>
</html>`;
}

export function layout(view: WebView, title: string, body: Html, q = ''): Html {
  const many = view.inboxes.length > 1;
  const inboxQuery = many ? query({ inbox: view.inbox }) : '';
  return shell(
    title,
    html`<header class="top">
  <a class="brand" href="/${inboxQuery}">mailsift</a>
  <form id="search" class="searchbar" role="search" method="get" action="/">
    <input type="search" id="q" name="q" aria-label="Search mail" placeholder="Search mail ( / )" value="${q}" />
    ${many ? html`<input type="hidden" name="inbox" value="${view.inbox}" />` : ''}
    <button type="submit">Search</button>
  </form>
  <nav aria-label="Pages">
    <a href="/ask${inboxQuery}">Ask</a>
    <a href="/status${inboxQuery}">Status</a>
  </nav>
  ${
    view.session !== null
      ? html`<form class="signout" method="post" action="/signout"><input type="hidden" name="csrf" value="${view.csrf}" /><button type="submit">Sign out</button></form>`
      : ''
  }
</header>
<main>
${body}
</main>`,
  );
}

/** A page without the header: sign-in, or an error before anyone is known. */
export function bare(title: string, body: Html): Html {
  return shell(title, html`<main>${body}</main>`);
}

/** A page of its own for an error: the message is escaped like any other text. */
export function errorPage(view: WebView | null, title: string, message: string): Html {
  const body = html`<h1>${title}</h1><p class="notice error" role="alert">${message}</p><p><a href="/">Back to search</a></p>`;
  return view ? layout(view, title, body) : bare(title, body);
}

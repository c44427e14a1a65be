// The sign-in page: one field for an API key (`mailsift keys create`). The key is checked once
// and exchanged for a session cookie; it is not kept anywhere.

import { type Html, html } from '../html.js';
import { bare } from '../layout.js';

export function signInPage(next: string, error: string | null): Html {
  return bare(
    'Sign in',
    html`<h1>Sign in to mailsift</h1>
${error ? html`<p class="notice error" role="alert">${error}</p>` : ''}
<form method="post" action="/signin">
  <input type="hidden" name="next" value="${next}" />
  <label for="key">API key</label>
  <input type="password" id="key" name="key" autocomplete="off" required />
  <p><button type="submit">Sign in</button></p>
</form>
<p class="meta">Create one with <code>mailsift keys create</code>; a key scoped to some inboxes shows only those.</p>`,
  );
}

// What a page handler knows about the request: who is asking (through the API's MailApi, so
// every inbox is checked against the key's scope exactly as /v1 checks it) and which inbox.

import type { MailApi } from '../http/api.js';

export interface WebView {
  readonly api: MailApi;
  /** Inboxes the principal may read, by name. */
  readonly inboxes: readonly string[];
  /** The inbox the page is about: `?inbox=`, else the first one visible ('' when none is). */
  readonly inbox: string;
  /** The token every POST form carries. */
  readonly csrf: string;
  /** The session cookie's value (keys on), null with --no-auth: what the CSRF token is bound to. */
  readonly session: string | null;
}

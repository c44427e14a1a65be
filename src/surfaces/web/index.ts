// The web UI for people, served by `mailsift serve` at `/` beside the API: server-rendered
// pages (hono's `html` template, every mail string escaped) that call the same MailApi as the
// /v1 routes, so a key's inbox scope, page tokens and errors mean the same in both. Every page
// carries a strict Content-Security-Policy: only our stylesheet and script load, nothing from
// elsewhere, no inline script, no mail HTML (the pages show cleaned text only).

import { type Context, Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { authenticate, type Principal, principalOfKeyId } from '../../auth/index.js';
import { type ErrorCode, isMailsiftError, MailsiftError } from '../../core/errors.js';
import type { Mailsift } from '../../engine.js';
import type { HealthReport } from '../../health/index.js';
import { indexSecret } from '../../index/index.js';
import { type Db, sql } from '../../store/index.js';
import { MailApi } from '../http/api.js';
import { contentDisposition } from '../http/app.js';
import type { RagProviders } from '../http/rag-providers.js';
import { SCRIPT, STYLES } from './assets.js';
import type { Html } from './html.js';
import { errorPage } from './layout.js';
import { askPage } from './pages/ask.js';
import { messagePage, originalPage } from './pages/message.js';
import { readSearchForm, searchPage } from './pages/search.js';
import { signInPage } from './pages/signin.js';
import { statusPage } from './pages/status.js';
import { threadPage } from './pages/thread.js';
import {
  csrfToken,
  csrfValid,
  localPath,
  SESSION_COOKIE,
  SESSION_MS,
  sessionKeyId,
  sessionValue,
} from './session.js';
import type { WebView } from './view.js';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "img-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

export interface WebOptions {
  readonly engine: Mailsift;
  /** false (--no-auth, loopback only): one local user, no sign-in. */
  readonly auth: boolean;
  readonly providers?: RagProviders;
  /** The server's (cached) health report, as /v1/health serves it. */
  readonly health: () => HealthReport;
}

const LOCAL: Principal = { keyId: 'local', inboxes: null };

/** HTTP status of an engine error shown as a page. */
const ERROR_PAGES: Partial<Record<ErrorCode, readonly [number, string]>> = {
  no_such_item: [404, 'Not found'],
  invalid_argument: [400, 'Not understood'],
  unknown_parameter: [400, 'Not understood'],
  invalid_page_token: [400, 'That page has expired'],
  index_unavailable: [503, 'The index is not ready'],
};

function secureHeaders(c: Context): void {
  c.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  c.header('X-Content-Type-Options', 'nosniff');
  // same-origin, not no-referrer: with no-referrer a browser sends `Origin: null` on our own POSTs.
  c.header('Referrer-Policy', 'same-origin');
  c.header('X-Frame-Options', 'DENY');
  // Pages hold mail: never kept by a shared cache.
  c.header('Cache-Control', 'no-store');
}

function visibleInboxes(db: Db, principal: Principal): string[] {
  const names = (sql(db, 'SELECT name FROM inboxes ORDER BY name').all() as Array<{ name: string }>).map(
    (r) => r.name,
  );
  return principal.inboxes === null ? names : names.filter((n) => principal.inboxes?.includes(n));
}

/** A POST from another site: its Origin names it (browsers send one on every POST). */
function foreignOrigin(c: Context): boolean {
  const origin = c.req.header('origin');
  return origin !== undefined && origin !== new URL(c.req.url).origin;
}

type PageResult = Html | Response;
type PageHandler = (c: Context, view: WebView) => PageResult | Promise<PageResult>;
/** Where a page reads its inbox: the query (default), the path, or a POST form's fields. */
type InboxOf = (c: Context) => string | undefined | Promise<string | undefined>;

export function webUi(options: WebOptions): Hono {
  const app = new Hono();
  const db = options.engine.archive.db;

  /** The request's principal and session cookie; null when keys are on and no live session is held. */
  const who = (c: Context): { principal: Principal; session: string | null } | null => {
    if (!options.auth) return { principal: LOCAL, session: null };
    const session = getCookie(c, SESSION_COOKIE);
    const keyId = sessionKeyId(indexSecret(db), session);
    const principal = keyId === null ? null : principalOfKeyId(db, keyId);
    return principal && session ? { principal, session } : null;
  };

  const viewOf = (principal: Principal, session: string | null, inbox: string | undefined): WebView => {
    const api = new MailApi(options.engine, principal, options.providers);
    const inboxes = visibleInboxes(db, principal);
    // An inbox the key may not see is reported as missing, as the API reports it.
    if (inbox !== undefined && inbox !== '') api.inbox(inbox);
    return {
      api,
      inboxes,
      inbox: inbox || (inboxes[0] ?? ''),
      csrf: csrfToken(indexSecret(db), session),
      session,
    };
  };

  const page =
    (handler: PageHandler, inboxOf: InboxOf = (c) => c.req.query('inbox')) =>
    async (c: Context): Promise<Response> => {
      secureHeaders(c);
      const found = who(c);
      if (!found) {
        const url = new URL(c.req.url);
        const next = c.req.method === 'GET' ? url.pathname + url.search : '/';
        return c.redirect(`/signin?next=${encodeURIComponent(next)}`, 303);
      }
      let view: WebView | null = null;
      try {
        view = viewOf(found.principal, found.session, await inboxOf(c));
        const result = await handler(c, view);
        return result instanceof Response ? result : c.html(result);
      } catch (error) {
        const known = isMailsiftError(error) ? ERROR_PAGES[error.code] : undefined;
        if (!known || !isMailsiftError(error)) throw error;
        return c.html(errorPage(view, known[1], error.message), known[0] as 404);
      }
    };

  /** A POST form's fields, after its CSRF token is checked against the page's session. */
  const form = async (c: Context, view: WebView): Promise<Record<string, unknown>> => {
    const body = await c.req.parseBody();
    if (foreignOrigin(c) || !csrfValid(indexSecret(db), view.session, body.csrf)) {
      throw new MailsiftError(
        'invalid_argument',
        'the form is stale or came from another site: reload and retry',
        {
          param: 'csrf',
        },
      );
    }
    return body;
  };

  const asset = (body: string, type: string) => (c: Context) =>
    c.body(body, 200, {
      'Content-Type': `${type}; charset=utf-8`,
      'Cache-Control': 'max-age=3600',
      'X-Content-Type-Options': 'nosniff',
    });
  app.get('/ui.css', asset(STYLES, 'text/css'));
  app.get('/ui.js', asset(SCRIPT, 'text/javascript'));

  app.get(
    '/',
    page((c, view) =>
      searchPage(
        view,
        readSearchForm((name) => c.req.query(name)),
      ),
    ),
  );

  const pathInbox = (c: Context) => c.req.param('inbox');
  app.get(
    '/m/:inbox/:messageId',
    page(
      (c, view) => messagePage(view, c.req.param('messageId') ?? '', c.req.query('quote') ?? ''),
      pathInbox,
    ),
  );
  app.get(
    '/m/:inbox/:messageId/original',
    page((c, view) => originalPage(view, c.req.param('messageId') ?? ''), pathInbox),
  );
  app.get(
    '/m/:inbox/:messageId/attachments/:n',
    page(async (c, view) => {
      const { meta, content } = await view.api.getAttachment(
        view.inbox,
        c.req.param('messageId') ?? '',
        c.req.param('n') ?? '',
      );
      return c.body(new Uint8Array(content), 200, {
        'Content-Type': meta.contentType || 'application/octet-stream',
        'Content-Disposition': contentDisposition(meta.filename),
        // Sender-controlled bytes: never run in our origin, even if opened rather than saved.
        'Content-Security-Policy': 'sandbox',
      });
    }, pathInbox),
  );
  app.get(
    '/t/:inbox/:threadId',
    page((c, view) => threadPage(view, c.req.param('threadId') ?? '', c.req.query('open') ?? ''), pathInbox),
  );

  app.get(
    '/ask',
    page((_c, view) => askPage(view, null)),
  );
  app.post(
    '/ask',
    page(
      async (c, view) => {
        const body = await form(c, view);
        const question = typeof body.question === 'string' ? body.question.trim() : '';
        const answer = await view.api.ask(view.inbox, { question });
        const { appliedFilters } = await import('../../rag/retrieve.js');
        return askPage(view, { question, answer, filters: appliedFilters(answer.retrieval.filters) });
      },
      // The form names its inbox among its fields (hono keeps the parsed body for form()).
      async (c) => {
        const inbox = (await c.req.parseBody()).inbox;
        return typeof inbox === 'string' ? inbox : undefined;
      },
    ),
  );

  app.get(
    '/status',
    page((_c, view) => statusPage(view, options.engine.status(), options.health())),
  );

  app.get('/signin', (c) => {
    secureHeaders(c);
    const next = localPath(c.req.query('next'));
    if (!options.auth || who(c)) return c.redirect(next, 303);
    return c.html(signInPage(next, null));
  });
  app.post('/signin', async (c) => {
    secureHeaders(c);
    const body = await c.req.parseBody();
    const next = localPath(body.next);
    if (!options.auth) return c.redirect(next, 303);
    const principal =
      foreignOrigin(c) || typeof body.key !== 'string' ? null : authenticate(db, body.key.trim());
    if (!principal) return c.html(signInPage(next, 'Unknown or revoked API key.'), 401);
    setCookie(c, SESSION_COOKIE, sessionValue(indexSecret(db), principal.keyId), {
      path: '/',
      httpOnly: true,
      sameSite: 'Strict',
      secure: new URL(c.req.url).protocol === 'https:',
      maxAge: SESSION_MS / 1000,
    });
    return c.redirect(next, 303);
  });
  app.post(
    '/signout',
    page(async (c, view) => {
      await form(c, view);
      deleteCookie(c, SESSION_COOKIE, { path: '/' });
      return c.redirect(view.session === null ? '/' : '/signin', 303);
    }),
  );

  return app;
}

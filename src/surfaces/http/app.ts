// The HTTP API as a Hono app: bearer-key auth, inbox scopes, strict query parsing, one
// error shape, a body limit, and one JSON log line per request. MCP over HTTP is mounted
// at /mcp by whoever composes the server (the MCP module depends on this one, not back).

import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { matchedRoutes } from 'hono/route';
import { authenticate, type Principal } from '../../auth/index.js';
import { type ErrorCode, isMailsiftError, MailsiftError } from '../../core/errors.js';
import type { Mailsift } from '../../engine.js';
import {
  checkHealth,
  DEFAULT_THRESHOLDS,
  type EmbedderProbe,
  eachCheck,
  type HealthReport,
  type HealthThresholds,
  MailsiftMetrics,
  type SummaryProbe,
  worst,
} from '../../health/index.js';
import { messageJson } from '../cli/format.js';
import { webUi } from '../web/index.js';
import type { RequestActivity } from './activity.js';
import { MailApi, type MailService } from './api.js';
import { openApiDocument } from './openapi.js';
import { queryParams } from './query.js';
import type { RagProviders } from './rag-providers.js';
import {
  decisionsQuerySchema,
  inboxPageSchema,
  listQuerySchema,
  listThreadsQuerySchema,
  noQuerySchema,
  searchQuerySchema,
} from './schemas.js';

/** Largest request body: MCP calls are a few hundred bytes; 1 MB leaves room and stops floods early. */
export const MAX_BODY_BYTES = 1024 * 1024;

export type HttpErrorCode =
  | ErrorCode
  | 'unauthorized'
  | 'payload_too_large'
  | 'not_found'
  | 'method_not_allowed';

export type LogLine = Record<string, string | number | null>;

/** Handles one MCP-over-HTTP request for an authenticated principal (see surfaces/mcp). */
export type McpHttpHandler = (api: MailService, request: Request, body: unknown) => Promise<Response>;

export interface AppOptions {
  readonly engine: Mailsift;
  /**
   * Who answers the API for a principal; default the archive's MailApi. Given (the cluster's,
   * ClusterMailApi), the web UI, which reads the archive, is not served.
   */
  readonly api?: (principal: Principal) => MailService;
  /** false only for local single-user use: every request acts with access to every inbox. */
  readonly auth: boolean;
  readonly mcp?: McpHttpHandler;
  /** Receives one line per request; omitted: no request log. */
  readonly log?: (line: LogLine) => void;
  /** The user's embedder and LLM for retrieve and ask; absent: keyword-only, extractive. */
  readonly providers?: RagProviders;
  /** Counts the requests in flight, for background work that yields to them. */
  readonly activity?: RequestActivity;
  /** Thresholds (default DEFAULT_THRESHOLDS) and the backlog probes behind /v1/health and /metrics. */
  readonly health?: {
    readonly thresholds?: HealthThresholds;
    readonly embedder?: EmbedderProbe;
    readonly summaries?: SummaryProbe;
  };
}

/** A health report is reused this long: the consistency check reads the whole FTS index. */
const HEALTH_CACHE_MS = 5000;

type Env = { Variables: { api: MailService; keyId: string | null } };

const STATUS: Partial<Record<HttpErrorCode, number>> = {
  invalid_argument: 400,
  unknown_parameter: 400,
  invalid_page_token: 400,
  unauthorized: 401,
  no_such_item: 404,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  not_supported: 501,
  index_unavailable: 503,
};

function errorResponse(c: Context, code: HttpErrorCode, message: string, param?: string): Response {
  // The engine's no_such_item is the HTTP API's not_found: one code for every 404.
  const wire = code === 'no_such_item' ? 'not_found' : code;
  const status = (STATUS[code] ?? 500) as 400;
  return c.json({ error: { code: wire, message, ...(param ? { param } : {}) } }, status);
}

const LOCAL: Principal = { keyId: 'local', inboxes: null };

/** The request body as JSON; anything else is a 400 naming the body. */
async function jsonBody(c: Context): Promise<unknown> {
  const text = await c.req.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new MailsiftError('invalid_argument', 'request body is not valid JSON', { param: 'body' });
  }
}

function bearer(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1] ?? null;
}

/** RFC 6266 filename*: only the name, never a path, UTF-8 percent-encoded. */
export function contentDisposition(filename: string | null): string {
  const name = (filename ?? 'attachment').replace(/^.*[\\/]/, '') || 'attachment';
  return `attachment; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export function createApp(options: AppOptions): Hono<Env> {
  const app = new Hono<Env>();
  const db = options.engine.archive.db;
  const metrics = new MailsiftMetrics();
  let cached: HealthReport | null = null;
  const health = (): HealthReport => {
    if (cached && Date.now() - Date.parse(cached.checkedAt) < HEALTH_CACHE_MS) return cached;
    const { embedder, summaries } = options.health ?? {};
    cached = checkHealth(options.engine, options.health?.thresholds ?? DEFAULT_THRESHOLDS, new Date(), {
      ...(embedder ? { embedder } : {}),
      ...(summaries ? { summaries } : {}),
    });
    return cached;
  };
  // The principal a request may act as, or null: health and metrics answer anonymous callers too.
  const principalOf = (c: Context): Principal | null => {
    if (!options.auth) return LOCAL;
    const key = bearer(c.req.header('authorization'));
    return key === null ? null : authenticate(db, key);
  };

  app.use(async (c, next) => {
    const started = performance.now();
    options.activity?.begin();
    try {
      await next();
    } finally {
      options.activity?.end();
    }
    // Label by route pattern, not path: one series per endpoint, whatever the ids. The
    // endpoint is the first handler from the one that answered (a 401 answers in middleware).
    const route =
      matchedRoutes(c)
        .slice(c.req.routeIndex)
        .find((r) => r.method !== 'ALL')?.path ?? 'unmatched';
    metrics.observeRequest(c.req.method, route, c.res.status, (performance.now() - started) / 1000);
    if (!options.log) return;
    const inbox = /^\/v1\/inboxes\/([^/]+)/.exec(c.req.path)?.[1] ?? null;
    options.log({
      time: new Date().toISOString(),
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      inbox,
      key: c.get('keyId') ?? null,
    });
  });

  const limitBody = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) => {
      // The unread rest of the body makes the connection unusable: tell the client not to reuse it.
      c.header('Connection', 'close');
      return errorResponse(
        c,
        'payload_too_large',
        `request body larger than ${MAX_BODY_BYTES} bytes`,
        'body',
      );
    },
  });
  // Only requests whose body a route reads: bodyLimit asks for the body, which makes the
  // node adapter build a whole fetch Request of each GET (12% of a search's CPU under wrk).
  app.use((c, next) => (c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : limitBody(c, next)));

  app.onError((error, c) => {
    if (isMailsiftError(error)) return errorResponse(c, error.code, error.message, error.param);
    process.stderr.write(`mailsift serve: ${error.stack ?? error.message}\n`);
    return errorResponse(c, 'internal', 'internal error');
  });
  app.notFound((c) => errorResponse(c, 'not_found', `no route ${c.req.method} ${c.req.path}`));

  app.get('/v1/health', (c) => {
    const report = health();
    const principal = principalOf(c);
    const visible = report.inboxes.filter((i) => principal?.inboxes?.includes(i.inbox) ?? true);
    const status = principal
      ? worst(eachCheck({ checks: report.checks, inboxes: visible }).map((s) => s.check.status))
      : report.status;
    const body = principal
      ? { ...report, status, inboxes: visible }
      : { status, checkedAt: report.checkedAt };
    return c.json(body, status === 'fail' ? 503 : 200);
  });
  app.get('/metrics', async (c) => {
    if (principalOf(c)?.inboxes !== null) {
      c.header('WWW-Authenticate', 'Bearer');
      return errorResponse(
        c,
        'unauthorized',
        'metrics need an API key with access to every inbox',
        'authorization',
      );
    }
    metrics.updateHealth(health());
    return c.body(await metrics.render(), 200, { 'Content-Type': metrics.contentType });
  });
  app.get('/openapi.json', (c) => c.json(openApiDocument()));

  const authenticated = async (c: Context<Env>, next: () => Promise<void>) => {
    let principal = LOCAL;
    if (options.auth) {
      const key = bearer(c.req.header('authorization'));
      const found = key === null ? null : authenticate(db, key);
      if (!found) {
        c.header('WWW-Authenticate', 'Bearer');
        return errorResponse(
          c,
          'unauthorized',
          key === null ? 'missing bearer API key' : 'unknown or revoked API key',
          'authorization',
        );
      }
      principal = found;
    }
    c.set('keyId', principal.keyId);
    c.set('api', options.api?.(principal) ?? new MailApi(options.engine, principal, options.providers));
    await next();
  };
  app.use('/v1/*', authenticated);
  app.use('/mcp', authenticated);

  const api = (c: Context<Env>) => c.get('api');
  const inboxOf = (c: Context<Env>) => c.req.param('inboxId') ?? '';
  const noQuery = (c: Context<Env>) => queryParams(c.req.url, noQuerySchema);

  app.get('/v1/inboxes', async (c) =>
    c.json(await api(c).listInboxes(queryParams(c.req.url, inboxPageSchema))),
  );
  app.get('/v1/inboxes/:inboxId', async (c) => c.json(await api(c).getInbox(inboxOf(c))));
  app.get('/v1/inboxes/:inboxId/messages/search', async (c) =>
    c.json(await api(c).searchMessages(inboxOf(c), queryParams(c.req.url, searchQuerySchema))),
  );
  app.get('/v1/inboxes/:inboxId/threads/search', async (c) =>
    c.json(await api(c).searchThreads(inboxOf(c), queryParams(c.req.url, searchQuerySchema))),
  );
  app.get('/v1/inboxes/:inboxId/messages', async (c) =>
    c.json(await api(c).listMessages(inboxOf(c), queryParams(c.req.url, listQuerySchema))),
  );
  app.get('/v1/inboxes/:inboxId/threads', async (c) =>
    c.json(await api(c).listThreads(inboxOf(c), queryParams(c.req.url, listThreadsQuerySchema))),
  );
  app.get('/v1/inboxes/:inboxId/messages/:messageId', async (c) => {
    noQuery(c);
    return c.json(messageJson(await api(c).getMessage(inboxOf(c), c.req.param('messageId'))));
  });
  app.get('/v1/inboxes/:inboxId/messages/:messageId/raw', async (c) => {
    noQuery(c);
    const raw = await api(c).getRaw(inboxOf(c), c.req.param('messageId'));
    return c.body(new Uint8Array(raw), 200, {
      'Content-Type': 'message/rfc822',
      'X-Content-Type-Options': 'nosniff',
    });
  });
  app.get('/v1/inboxes/:inboxId/messages/:messageId/attachments/:attachmentId', async (c) => {
    noQuery(c);
    const { meta, content } = await api(c).getAttachment(
      inboxOf(c),
      c.req.param('messageId'),
      c.req.param('attachmentId'),
    );
    return c.body(new Uint8Array(content), 200, {
      'Content-Type': meta.contentType || 'application/octet-stream',
      'Content-Disposition': contentDisposition(meta.filename),
      // Sender-controlled bytes: never let a browser run them in our origin.
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': 'sandbox',
    });
  });
  app.get('/v1/inboxes/:inboxId/threads/:threadId', async (c) => {
    noQuery(c);
    const thread = await api(c).getThread(inboxOf(c), c.req.param('threadId'));
    return c.json({
      inboxId: thread.inbox,
      threadId: thread.threadId,
      messageCount: thread.entries.length,
      messages: thread.entries.map((e) => ({ ...messageJson(e.message), depth: e.depth })),
    });
  });

  app.get('/v1/inboxes/:inboxId/decisions', async (c) =>
    c.json(await api(c).listDecisions(inboxOf(c), queryParams(c.req.url, decisionsQuerySchema))),
  );

  app.post('/v1/inboxes/:inboxId/retrieve', async (c) => {
    noQuery(c);
    return c.json(await api(c).retrieve(inboxOf(c), await jsonBody(c)));
  });
  app.post('/v1/inboxes/:inboxId/ask', async (c) => {
    noQuery(c);
    return c.json(await api(c).ask(inboxOf(c), await jsonBody(c)));
  });

  app.post('/mcp', async (c) => {
    if (!options.mcp) return errorResponse(c, 'not_found', 'MCP is not enabled on this server');
    return options.mcp(api(c), c.req.raw, await jsonBody(c));
  });
  app.on(['GET', 'DELETE'], '/mcp', (c) =>
    errorResponse(c, 'method_not_allowed', 'this MCP endpoint is stateless: POST JSON-RPC requests only'),
  );

  // The web UI for people, on the same port (after the API's routes, which it never shadows).
  if (!options.api) app.route('/', webUi({ ...options, health }));

  return app;
}

// Relevance search over messages or threads: validate, plan, rank in two phases (exact,
// then fuzzy fill when exact matching leaves the page short), attribute, and page.

import { isLanguage, parseQuery, type QueryGroup } from '../analysis/index.js';
import { MailsiftError } from '../core/errors.js';
import { assertIndexReady, type Column, indexedLanguages, indexSecret } from '../index/index.js';
import { type Db, inboxByName } from '../store/index.js';
import { typoVariants } from './fuzzy.js';
import { type MessageHit, messageHit, type Scored, scoreDetails, type ThreadHit, threadHit } from './hits.js';
import { exactExpression, fuzzyExpression, highlightTerms } from './match.js';
import {
  decodePageToken,
  encodePageToken,
  fingerprint,
  type KeysetPosition,
  type PagePayload,
} from './page-token.js';
import { type SearchRequest, validateSearchParams } from './params.js';
import { cachedRanking } from './rank-cache.js';
import {
  columnContributions,
  type RankContext,
  type RankedRow,
  rankMessages,
  rankThreads,
  recencyFactor,
  recencyOrigin,
} from './ranked-query.js';

/** Time fuzzy fill may spend finding typo candidates before it is skipped (and reported). */
export const FUZZY_BUDGET_MS = 40;

export interface SearchEnvelope {
  readonly count: number;
  readonly limit: number;
  readonly nextPageToken: string | null;
  /** Optional stages skipped this time (e.g. 'fuzzy_fill' over its time budget). */
  readonly degraded?: string[];
}

export interface MessageSearchResult extends SearchEnvelope {
  readonly messages: MessageHit[];
}

export interface ThreadSearchResult extends SearchEnvelope {
  readonly threads: ThreadHit[];
}

type Mode = 'messages' | 'threads';
type Phase = 'exact' | 'fuzzy';

interface Planned {
  readonly request: SearchRequest;
  readonly groups: QueryGroup[];
  readonly ctx: RankContext;
  readonly print: string;
  readonly secret: string;
  readonly start: { readonly phase: Phase; readonly position: KeysetPosition | null };
}

interface PageRow extends RankedRow {
  readonly phase: Phase;
  readonly match: string;
}

function plan(db: Db, params: unknown, mode: Mode): Planned {
  const request = validateSearchParams(params);
  if (request.q.trim() === '')
    throw new MailsiftError('invalid_argument', 'q is empty: give words or an identifier to search for', {
      param: 'q',
    });
  assertIndexReady(db);
  const inboxId = request.inbox === null ? 0 : inboxByName(db, request.inbox).id;
  const groups = parseQuery(request.q, { languages: indexedLanguages(db).filter(isLanguage) });
  const print = fingerprint([
    mode,
    groups.map((g) => [g.parts, g.compound]),
    request.after,
    request.before,
    request.recency.maxBoost,
    request.recency.halfLifeDays,
  ]);
  const secret = indexSecret(db);
  let token: PagePayload | null = null;
  if (request.pageToken !== null) {
    token = decodePageToken(secret, request.pageToken, {
      kinds: [`${mode}:exact`, `${mode}:fuzzy`],
      fingerprint: print,
      inbox: inboxId,
    });
  }
  const watermark =
    token?.watermark ??
    (db.prepare('SELECT max(id) AS n FROM messages').get() as { n: number | null }).n ??
    0;
  const ctx: RankContext = {
    inboxId,
    after: request.after,
    before: request.before,
    origin: token?.origin ?? recencyOrigin(),
    watermark,
    maxBoost: request.recency.maxBoost,
    halfLifeDays: request.recency.halfLifeDays,
  };
  const start = token
    ? {
        phase: token.kind.endsWith(':fuzzy') ? ('fuzzy' as const) : ('exact' as const),
        position: token.position,
      }
    : { phase: 'exact' as const, position: null };
  return { request, groups, ctx, print, secret, start };
}

const RANK_MESSAGES = cachedRanking('messages', rankMessages);
const RANK_THREADS = cachedRanking('threads', rankThreads);

/** Ranks one page: exact hits first, then fuzzy fill if the exact ones run out. */
function rankPage(db: Db, planned: Planned, mode: Mode) {
  const { groups, ctx, request, start } = planned;
  const rank = mode === 'messages' ? RANK_MESSAGES : RANK_THREADS;
  const limit = request.limit;
  const degraded: string[] = [];
  const rows: PageRow[] = [];
  let more = false;
  let variants = new Map<number, string[]>();
  if (groups.length > 0) {
    if (start.phase === 'exact') {
      const match = exactExpression(groups);
      const found = rank(db, ctx, match, start.position, limit + 1);
      more = found.length > limit;
      for (const row of found.slice(0, limit)) rows.push({ ...row, phase: 'exact', match });
    }
    if (!more && rows.length < limit) {
      const fuzzy = typoVariants(db, groups, Date.now() + FUZZY_BUDGET_MS);
      if (!fuzzy.complete) degraded.push('fuzzy_fill');
      else if (fuzzy.variants.size > 0) {
        variants = fuzzy.variants;
        const match = fuzzyExpression(groups, variants);
        const position = start.phase === 'fuzzy' ? start.position : null;
        const need = limit - rows.length;
        const found = rank(db, ctx, match, position, need + 1);
        more = found.length > need;
        for (const row of found.slice(0, need)) rows.push({ ...row, phase: 'fuzzy', match });
      }
    }
  }
  const last = rows[rows.length - 1];
  const nextPageToken =
    more && last
      ? encodePageToken(planned.secret, {
          kind: `${mode}:${last.phase}`,
          fingerprint: planned.print,
          inbox: ctx.inboxId,
          origin: ctx.origin,
          watermark: ctx.watermark,
          position: { score: last.score, date: last.date, rowid: last.rowid },
        })
      : null;
  return { rows, nextPageToken, degraded, terms: highlightTerms(groups, variants) };
}

function details(db: Db, planned: Planned, page: ReturnType<typeof rankPage>): Scored[] {
  const contributions = new Map<number, Record<Column, number>>();
  if (planned.request.explain) {
    const byMatch = new Map<string, number[]>();
    for (const row of page.rows) byMatch.set(row.match, [...(byMatch.get(row.match) ?? []), row.rowid]);
    for (const [match, ids] of byMatch) {
      for (const [id, c] of columnContributions(db, match, planned.ctx.watermark, ids))
        contributions.set(id, c);
    }
  }
  return page.rows.map((row) =>
    scoreDetails(
      db,
      row,
      page.terms,
      planned.request.explain
        ? {
            contributions: contributions.get(row.rowid),
            recency: recencyFactor(planned.ctx, row.date),
            match: row.phase,
          }
        : null,
    ),
  );
}

function envelope(planned: Planned, page: ReturnType<typeof rankPage>, count: number): SearchEnvelope {
  return {
    count,
    limit: planned.request.limit,
    nextPageToken: page.nextPageToken,
    ...(page.degraded.length > 0 ? { degraded: page.degraded } : {}),
  };
}

/** Relevance search returning messages. Params: see searchParamsSchema. */
export function searchMessages(db: Db, params: unknown): MessageSearchResult {
  return db.transaction(() => {
    const planned = plan(db, params, 'messages');
    const page = rankPage(db, planned, 'messages');
    const messages = details(db, planned, page).map(messageHit);
    return { ...envelope(planned, page, messages.length), messages };
  })();
}

/** Relevance search returning threads, each scored by (and highlighted from) its best message. */
export function searchThreads(db: Db, params: unknown): ThreadSearchResult {
  return db.transaction(() => {
    const planned = plan(db, params, 'threads');
    const page = rankPage(db, planned, 'threads');
    const threads = details(db, planned, page).map((scored) => threadHit(db, scored));
    return { ...envelope(planned, page, threads.length), threads };
  })();
}

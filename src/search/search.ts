// Relevance search over messages or threads: validate, plan, rank in two phases (exact,
// then fuzzy fill when exact matching leaves the page short), attribute, and page through
// an order frozen when the phase began and extended as paging reaches its end (snapshot.ts).

import { isLanguage, parseQuery, type QueryGroup } from '../analysis/index.js';
import { MailsiftError } from '../core/errors.js';
import { assertIndexReady, type Column, indexedLanguages, indexSecret } from '../index/index.js';
import { type Db, inboxByName, sql } from '../store/index.js';
import { typoVariants } from './fuzzy.js';
import {
  type HitContext,
  type HitSource,
  highlightKey,
  hitSources,
  type MessageHit,
  messageHit,
  type Scored,
  scoreDetails,
  type ThreadHit,
  threadHit,
} from './hits.js';
import { exactMatch, fuzzyMatch, type HighlightTerms, highlightTerms, type Match } from './match.js';
import {
  decodePageToken,
  encodePageToken,
  fingerprint,
  type KeysetPosition,
  type PagePayload,
} from './page-token.js';
import { type SearchRequest, validateSearchParams } from './params.js';
import {
  columnContributions,
  type RankContext,
  type RankedRow,
  rankMessages,
  rankThreads,
  recencyFactor,
  recencyOrigin,
  topMessages,
  topThreads,
} from './ranked-query.js';
import { publishHeads } from './shared-heads.js';
import { loadSnapshot, SNAPSHOT_PAGES, type SnapshotDraft, saveSnapshot, snapshotId } from './snapshot.js';
import { type Mode, snapshotPage } from './snapshot-page.js';
import { archiveState } from './state-cache.js';

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

type Phase = 'exact' | 'fuzzy';

/** Where a token says to continue: a phase, and a frozen order's offset or a live keyset position. */
interface Cursor {
  readonly phase: Phase;
  readonly position: KeysetPosition;
  readonly snapshot: string | null;
  readonly offset: number;
}

interface Planned {
  readonly request: SearchRequest;
  readonly groups: QueryGroup[];
  readonly ctx: RankContext;
  readonly print: string;
  readonly secret: string;
  readonly start: { readonly phase: Phase; readonly cursor: Cursor | null };
}

interface PageRow extends RankedRow {
  readonly phase: Phase;
  readonly match: Match;
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
    token?.watermark ?? (sql(db, 'SELECT max(id) AS n FROM messages').get() as { n: number | null }).n ?? 0;
  const ctx: RankContext = {
    inboxId,
    after: request.after,
    before: request.before,
    origin: token?.origin ?? recencyOrigin(),
    watermark,
    maxBoost: request.recency.maxBoost,
    halfLifeDays: request.recency.halfLifeDays,
  };
  const phase: Phase = token?.kind.endsWith(':fuzzy') ? 'fuzzy' : 'exact';
  const cursor = token
    ? { phase, position: token.position, snapshot: token.snapshot, offset: token.offset }
    : null;
  return { request, groups, ctx, print, secret, start: { phase, cursor } };
}

/** A phase's rows for this page, and how the next page continues it. */
interface PhaseRows {
  readonly rows: RankedRow[];
  readonly next: { readonly offset: number; readonly snapshot: string | null } | null;
  /** The order to freeze, when this page starts a phase that goes on. */
  readonly draft: SnapshotDraft | null;
}

/**
 * One phase's rows. At its start the head of the order is ranked once and, when it goes
 * past this page, drafted for freezing; a token naming a snapshot reads from it (extending
 * it when the page reaches its end); a token without one (the archive could not be
 * written) continues live.
 */
function phaseRows(
  db: Db,
  planned: Planned,
  mode: Mode,
  phase: Phase,
  match: Match,
  cursor: Cursor | null,
  n: number,
): PhaseRows {
  const { ctx } = planned;
  const kind = `${mode}:${phase}`;
  if (cursor === null) {
    // One row past the last frozen page, so that page knows whether another follows.
    const top = (mode === 'messages' ? topMessages : topThreads)(db, ctx, match, n * SNAPSHOT_PAGES + 1);
    if (top.rows.length <= n && !top.more) return { rows: top.rows, next: null, draft: null };
    const draft: SnapshotDraft = {
      inboxId: ctx.inboxId,
      kind,
      fingerprint: planned.print,
      rows: top.rows,
      threads: mode === 'threads' ? top.rows.map((r) => r.thread as string) : null,
      complete: !top.more,
    };
    return { rows: top.rows.slice(0, n), next: { offset: n, snapshot: snapshotId(draft) }, draft };
  }
  if (cursor.snapshot === null) {
    const rank = mode === 'messages' ? rankMessages : rankThreads;
    const found = rank(db, ctx, match, cursor.position, n + 1);
    return {
      rows: found.slice(0, n),
      next: found.length > n ? { offset: 0, snapshot: null } : null,
      draft: null,
    };
  }
  const frozen = loadSnapshot(db, cursor.snapshot, {
    kind,
    inboxId: ctx.inboxId,
    fingerprint: planned.print,
  });
  const slice = snapshotPage(db, ctx, mode, match, frozen, cursor.offset, n);
  const order = slice.extended ?? frozen;
  return {
    rows: slice.rows,
    next: slice.more ? { offset: slice.offset, snapshot: order.id } : null,
    draft: slice.extended,
  };
}

interface RankedPage {
  readonly rows: PageRow[];
  readonly degraded: string[];
  readonly terms: HighlightTerms;
  readonly next: (Omit<Cursor, 'position'> & { readonly draft: SnapshotDraft | null }) | null;
}

/** Ranks one page: exact hits first, then fuzzy fill if the exact ones run out. */
function rankPage(db: Db, planned: Planned, mode: Mode): RankedPage {
  const { groups, request, start } = planned;
  const limit = request.limit;
  const degraded: string[] = [];
  const rows: PageRow[] = [];
  let next: RankedPage['next'] = null;
  let variants = new Map<number, string[]>();
  if (groups.length > 0) {
    if (start.phase === 'exact') {
      const match = exactMatch(groups);
      const part = phaseRows(db, planned, mode, 'exact', match, start.cursor, limit);
      for (const row of part.rows) rows.push({ ...row, phase: 'exact', match });
      if (part.next) next = { phase: 'exact', ...part.next, draft: part.draft };
    }
    if (next === null && rows.length < limit) {
      const fuzzy = typoVariants(db, groups, Date.now() + FUZZY_BUDGET_MS);
      if (!fuzzy.complete) degraded.push('fuzzy_fill');
      else if (fuzzy.variants.size > 0) {
        variants = fuzzy.variants;
        const match = fuzzyMatch(groups, variants);
        const cursor = start.phase === 'fuzzy' ? start.cursor : null;
        const part = phaseRows(db, planned, mode, 'fuzzy', match, cursor, limit - rows.length);
        for (const row of part.rows) rows.push({ ...row, phase: 'fuzzy', match });
        if (part.next) next = { phase: 'fuzzy', ...part.next, draft: part.draft };
      }
    }
  }
  return { rows, next, degraded, terms: highlightTerms(groups, variants) };
}

/**
 * The next page's token. A drafted order is frozen here, after the page's read
 * transaction; when the archive cannot be written (read-only, or busy past the wait),
 * the token continues on live scores and the page says `stable_paging` was skipped.
 */
function nextToken(db: Db, planned: Planned, mode: Mode, page: RankedPage): string | null {
  const last = page.rows[page.rows.length - 1];
  const next = page.next;
  if (!next || !last) return null;
  let snapshot = next.snapshot;
  if (next.draft && snapshot !== null && !saveSnapshot(db, snapshot, next.draft)) {
    snapshot = null;
    page.degraded.push('stable_paging');
  }
  const { ctx } = planned;
  return encodePageToken(planned.secret, {
    kind: `${mode}:${next.phase}`,
    fingerprint: planned.print,
    inbox: ctx.inboxId,
    origin: ctx.origin,
    watermark: ctx.watermark,
    position: { score: last.score, date: last.date, rowid: last.rowid },
    snapshot,
    offset: snapshot === null ? 0 : next.offset,
  });
}

/** The page's rows loaded and attributed, under the archive state `state`. */
function details(db: Db, planned: Planned, page: RankedPage, state: string): Scored[] {
  const hit: HitContext = { state, terms: page.terms, termsKey: highlightKey(page.terms) };
  const contributions = new Map<number, Record<Column, number>>();
  if (planned.request.explain) {
    const byMatch = new Map<Match, number[]>();
    for (const row of page.rows) byMatch.set(row.match, [...(byMatch.get(row.match) ?? []), row.rowid]);
    for (const [match, ids] of byMatch) {
      for (const [id, c] of columnContributions(db, match, planned.ctx.watermark, ids))
        contributions.set(id, c);
    }
  }
  const sources = hitSources(
    db,
    state,
    page.rows.map((row) => row.rowid),
  );
  return page.rows.map((row, i) =>
    scoreDetails(
      db,
      sources[i] as HitSource,
      row,
      hit,
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

function envelope(
  planned: Planned,
  page: RankedPage,
  nextPageToken: string | null,
  count: number,
): SearchEnvelope {
  return {
    count,
    limit: planned.request.limit,
    nextPageToken,
    ...(page.degraded.length > 0 ? { degraded: page.degraded } : {}),
  };
}

/** Relevance search returning messages. Params: see searchParamsSchema. */
export function searchMessages(db: Db, params: unknown): MessageSearchResult {
  const { planned, page, messages } = db.transaction(() => {
    const planned = plan(db, params, 'messages');
    const page = rankPage(db, planned, 'messages');
    return { planned, page, messages: details(db, planned, page, archiveState(db)).map(messageHit) };
  })();
  publishHeads(db);
  const token = nextToken(db, planned, 'messages', page);
  return { ...envelope(planned, page, token, messages.length), messages };
}

/** Relevance search returning threads, each scored by (and highlighted from) its best message. */
export function searchThreads(db: Db, params: unknown): ThreadSearchResult {
  const { planned, page, threads } = db.transaction(() => {
    const planned = plan(db, params, 'threads');
    const page = rankPage(db, planned, 'threads');
    const state = archiveState(db);
    return {
      planned,
      page,
      threads: details(db, planned, page, state).map((scored) => threadHit(db, state, scored)),
    };
  })();
  publishHeads(db);
  const token = nextToken(db, planned, 'threads', page);
  return { ...envelope(planned, page, token, threads.length), threads };
}

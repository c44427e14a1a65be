// Agent search and filtered lists answered by an OpenSearch cluster: the same parameters,
// validation and result shapes as the SQLite backend (src/search), the same query plan
// (every token required; per token, the identifier, exact-text and stem alternatives of
// `match.ts`), the same field weights and bounded recency, the same highlighter.
//
// Where scoring differs, and why that is acceptable:
// - OpenSearch scores each column with its own BM25 (per-field length norms, k1 1.2, b 0.75)
//   and adds the weighted field scores; FTS5's bm25 (and our postings, which reproduce it)
//   does the same sum with its own constants. Same inputs, same weights: the order of clear
//   winners agrees, near-ties may swap.
// - Corpus statistics: dfs_query_then_fetch gathers every shard's term statistics first, so
//   idf is global as in one SQLite file (without it, small shards rank by local idf).
// - Prefix matches on identifier fields score as a term of the edge n-gram sub-field (its own
//   idf over prefixes), where the postings add up the expansions' scores; prefix matches of
//   compounds in text fields score as a constant. Both only decide order among matches.
// - Ties on score and date break on a document id hash, not on arrival order (rowid).
// - No typo-tolerant fill (fuzzy) and no explanation: this backend answers exact matches.
// - Pages after the first follow an order frozen in the cluster (orders.ts), as SQLite's follow
//   one frozen beside the archive; an order is extended past its end by leaving out its
//   threads (collapse refuses search_after). A thread's summary reads at most THREAD_MESSAGES
//   of its messages.

import { isLanguage, type Language, parseQuery, type QueryGroup } from '../../analysis/index.js';
import { MailsiftError } from '../../core/errors.js';
import type { FieldTexts } from '../../index/index.js';
import { type Column, EXCLUDED_LABELS, IDENTIFIER_COLUMNS } from '../../index/index.js';
import { buildHighlights } from '../../search/highlights.js';
import type {
  Highlights,
  ListResult,
  MessageHit,
  MessageItem,
  MessageSearchResult,
  ThreadHit,
  ThreadSearchResult,
} from '../../search/index.js';
import { hiddenLabels } from '../../search/list.js';
import { alternatives, highlightTerms, identifierPhrases, type Phrase } from '../../search/match.js';
import { fingerprint } from '../../search/page-token.js';
import {
  type ListRequest,
  type SearchRequest,
  validateListParams,
  validateSearchParams,
} from '../../search/params.js';
import { recencyOrigin } from '../../search/ranked-query.js';
import { SNAPSHOT_PAGES } from '../../search/snapshot.js';
import { BULK_FACTOR, COLUMN_WEIGHTS } from '../../search/weights.js';
import { assertComplete, type OpenSearchClient, type ShardSummary } from './client.js';
import { PREFIX_FIELD } from './mapping.js';
import { type FrozenOrder, loadOrder, type OrderEntry, saveOrder } from './orders.js';

const DAY_MS = 86_400_000;

export interface OpenSearchTarget {
  readonly client: OpenSearchClient;
  readonly index: string;
}

type Clause = Record<string, unknown>;

interface Hit<S> {
  readonly _id: string;
  readonly _score: number | null;
  readonly _source: S;
  readonly sort: readonly unknown[];
  readonly fields?: Record<string, readonly unknown[]>;
}

interface SearchResponse<S> {
  readonly timed_out: boolean;
  readonly _shards: ShardSummary;
  readonly hits: { readonly hits: readonly Hit<S>[] };
}

/**
 * What the next page needs: a list's keyset position (the last hit's sort values), or the
 * frozen order a relevance search follows (orders.ts), how far into it the pages got, and
 * the recency origin they share.
 */
type PageState =
  | { readonly kind: 'list'; readonly fingerprint: string; readonly after: readonly unknown[] }
  | {
      readonly kind: Mode;
      readonly fingerprint: string;
      readonly order: string;
      readonly offset: number;
      readonly origin: number;
      readonly watermark: number;
    };

function encodeToken(state: PageState): string {
  return Buffer.from(JSON.stringify(state)).toString('base64url');
}

function decodeToken<K extends PageState['kind']>(
  token: string,
  kind: K,
  print: string,
): Extract<PageState, { kind: K }> {
  let state: Record<string, unknown> | undefined;
  try {
    state = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    state = undefined;
  }
  const valid =
    state?.kind === kind &&
    state.fingerprint === print &&
    (kind === 'list'
      ? Array.isArray(state.after)
      : typeof state.order === 'string' &&
        Number.isSafeInteger(state.offset) &&
        (state.offset as number) >= 0 &&
        typeof state.origin === 'number' &&
        typeof state.watermark === 'number');
  if (!valid)
    throw new MailsiftError('invalid_page_token', 'the page token is malformed or belongs to another query', {
      param: 'pageToken',
    });
  return state as Extract<PageState, { kind: K }>;
}

/** One search of the index; any failed or missing shard is index_unavailable (a short page never is). */
async function run<S>(
  target: OpenSearchTarget,
  body: Clause,
  options: { dfs: boolean },
): Promise<readonly Hit<S>[]> {
  const params = `allow_partial_search_results=false${options.dfs ? '&search_type=dfs_query_then_fetch' : ''}`;
  const response = await target.client.request<SearchResponse<S>>(
    'POST',
    `/${target.index}/_search?${params}`,
    { track_total_hits: false, ...body },
  );
  assertComplete(response);
  return response.hits.hits;
}

/** The languages the documents were stemmed in (recorded by the sync), read once per target. */
const languageCache = new WeakMap<OpenSearchTarget, Promise<Language[]>>();

function indexedLanguages(target: OpenSearchTarget): Promise<Language[]> {
  let languages = languageCache.get(target);
  if (!languages) {
    languages = target.client
      .request<Record<string, { mappings?: { _meta?: { languages?: string[] } } }>>(
        'GET',
        `/${target.index}/_mapping`,
      )
      .then((m) => Object.values(m)[0]?.mappings?._meta?.languages?.filter(isLanguage) ?? []);
    languageCache.set(target, languages);
    languages.catch(() => languageCache.delete(target));
  }
  return languages;
}

/** One phrase of `match.ts` on one column: a token, a token's prefix, or adjacent tokens. */
function phraseClause(column: Column, phrase: Phrase, boost: number): Clause {
  const value = phrase.terms.join(' ');
  if (phrase.terms.length > 1)
    return {
      [phrase.prefix ? 'match_phrase_prefix' : 'match_phrase']: { [column]: { query: value, boost } },
    };
  if (!phrase.prefix) return { term: { [column]: { value, boost } } };
  // Identifier columns hold every token's prefixes (edge n-grams): a prefix is one term there.
  if (IDENTIFIER_COLUMNS.includes(column))
    return { term: { [`${column}.${PREFIX_FIELD}`]: { value, boost } } };
  return { prefix: { [column]: { value, boost } } };
}

/** One query token: any of its alternatives in any of their columns, weighted by column. */
function groupClause(group: QueryGroup): Clause {
  const should: Clause[] = [];
  for (const alternative of alternatives(group, { prefix: true }))
    for (const phrase of alternative.phrases)
      for (const column of alternative.columns)
        if (COLUMN_WEIGHTS[column] > 0) should.push(phraseClause(column, phrase, COLUMN_WEIGHTS[column]));
  return { bool: { should, minimum_should_match: 1 } };
}

/** An identifier filter (list's from, to, subject): every token of `value` in `column`, the last by prefix. */
function identifierFilter(column: Column, value: string): Clause[] {
  return parseQuery(value).map((group) => ({
    bool: {
      should: identifierPhrases(group, true).map((p) => phraseClause(column, p, 1)),
      minimum_should_match: 1,
    },
  }));
}

function dateRange(after: number | null, before: number | null): Clause[] {
  if (after === null && before === null) return [];
  return [
    {
      range: {
        date: { ...(after !== null ? { gte: after } : {}), ...(before !== null ? { lt: before } : {}) },
      },
    },
  ];
}

interface SearchSource {
  readonly item: MessageItem;
  readonly texts: FieldTexts;
  readonly language: string | null;
  readonly inbox: string;
  readonly threadKey: string;
  readonly threadAliases: readonly string[];
}

const SEARCH_SOURCE = ['item', 'texts', 'language', 'inbox', 'threadKey', 'threadAliases'];

type Mode = 'search' | 'threads';

/** A hit a page shows: its document and the score it ranked by (a frozen one on later pages). */
interface PageHit {
  readonly source: SearchSource;
  readonly score: number;
}

/** A relevance page: its hits with highlights, and the token of the next one. */
interface RankedPage {
  readonly request: SearchRequest;
  readonly hits: ReadonlyArray<{ readonly hit: PageHit; readonly highlights: Highlights }>;
  readonly nextPageToken: string | null;
}

/** What one relevance search ranks by: its query (every token required) and sort. */
interface Ranking {
  readonly mode: Mode;
  readonly print: string;
  /** When page 1 was served: later stages leave out what arrived since (arrivedBy). */
  readonly watermark: number;
  /** The scored query, restricted by `filter` clauses added to its own. */
  readonly query: (filter?: readonly Clause[]) => Clause;
}

const RANK_SORT = [{ _score: 'desc' }, { date: 'desc' }, { uid: 'desc' }];

/** The frozen entry a ranked hit becomes: its sort values, and its thread in thread mode. */
function entryOf(hit: Hit<unknown>, mode: Mode): OrderEntry {
  const [score, date, uid] = hit.sort as [number, number, string];
  const threadKey = hit.fields?.threadKey?.[0];
  return mode === 'threads' && typeof threadKey === 'string'
    ? { score, date, uid, threadKey }
    : { score, date, uid };
}

/**
 * The ranked order from the top, or its extension past `frozen` entries, as SQLite extends
 * one (snapshot-page.ts): the live ranking without the frozen entries, deep enough to double
 * the order (at least SNAPSHOT_PAGES pages), and one entry more. Nothing frozen is served
 * twice, and nothing that matched when page 1 was served is skipped. Sources are not read:
 * an entry is its sort values.
 */
async function rankOrder(
  target: OpenSearchTarget,
  ranking: Ranking,
  limit: number,
  frozen: readonly OrderEntry[],
): Promise<{ entries: OrderEntry[]; complete: boolean }> {
  const size = Math.max(frozen.length, SNAPSHOT_PAGES * limit);
  const exclude: Clause[] =
    frozen.length === 0
      ? []
      : [
          arrivedBy(ranking.watermark),
          {
            bool: {
              must_not:
                ranking.mode === 'threads'
                  ? [{ terms: { threadKey: frozen.map((e) => e.threadKey ?? '') } }]
                  : [{ ids: { values: frozen.map((e) => e.uid) } }],
            },
          },
        ];
  const hits = await run(
    target,
    {
      query: ranking.query(exclude),
      sort: RANK_SORT,
      size: size + 1,
      _source: false,
      ...(ranking.mode === 'threads'
        ? { collapse: { field: 'threadKey' }, docvalue_fields: ['threadKey'] }
        : {}),
    },
    { dfs: true },
  );
  const entries = hits.slice(0, size).map((hit) => entryOf(hit, ranking.mode));
  return { entries, complete: hits.length <= size };
}

/** The documents of `uids` that still exist and may be shown (not since marked spam, trash or untrusted). */
async function visibleSources(
  target: OpenSearchTarget,
  uids: readonly string[],
): Promise<Map<string, SearchSource>> {
  const hits = await run<SearchSource>(
    target,
    {
      query: {
        bool: {
          filter: [{ ids: { values: uids } }, { term: { untrusted: false } }],
          must_not: [{ terms: { labels: EXCLUDED_LABELS } }],
        },
      },
      size: uids.length,
      _source: SEARCH_SOURCE,
    },
    { dfs: false },
  );
  return new Map(hits.map((hit) => [hit._id, hit._source]));
}

/**
 * Messages the archive stored by `watermark` (and those written before documents carried
 * their arrival): an extension of a frozen order never takes in mail that arrived after the
 * first page, as SQLite's watermark keeps it out. First pages do not filter by it: a writer
 * host's clock ahead of this one's would hide new mail.
 */
function arrivedBy(watermark: number): Clause {
  return {
    bool: {
      should: [
        { range: { arrived: { lte: watermark } } },
        { bool: { must_not: [{ exists: { field: 'arrived' } }] } },
      ],
      minimum_should_match: 1,
    },
  };
}

/** The thread a key names, or the one it was merged into (whose messages carry its old id). */
function threadClause(key: string): Clause {
  const split = key.indexOf('\u0000');
  return {
    bool: {
      should: [
        { term: { threadKey: key } },
        {
          bool: {
            filter: [
              { term: { inbox: key.slice(0, split) } },
              { term: { threadAliases: key.slice(split + 1) } },
            ],
          },
        },
      ],
      minimum_should_match: 1,
    },
  };
}

/** The best message of a frozen thread still matching, when the one it was frozen by is gone. */
async function threadMember(
  target: OpenSearchTarget,
  ranking: Ranking,
  key: string,
): Promise<SearchSource | undefined> {
  const [hit] = await run<SearchSource>(
    target,
    {
      query: ranking.query([threadClause(key), arrivedBy(ranking.watermark)]),
      sort: RANK_SORT,
      size: 1,
      _source: SEARCH_SOURCE,
    },
    { dfs: true },
  );
  return hit?._source;
}

/** Keys a thread is known by: its own and those of the threads merged into it. */
const threadKeys = (source: SearchSource): string[] => [
  source.threadKey,
  ...source.threadAliases.map((id) => `${source.inbox}\u0000${id}`),
];

const CHUNK = 256;

/**
 * Up to `limit` entries of a frozen order from `offset`, as search/snapshot-page.ts reads
 * one: messages deleted or since hidden are passed over; a thread keeps its place while any
 * message of it still matches, and one merged into a thread already served is passed over.
 */
async function orderSlice(
  target: OpenSearchTarget,
  ranking: Ranking,
  order: FrozenOrder,
  offset: number,
  limit: number,
): Promise<{ hits: PageHit[]; more: boolean; offset: number }> {
  const seen = new Set(order.entries.slice(0, offset).map((e) => e.threadKey ?? ''));
  const hits: PageHit[] = [];
  let at = offset;
  let next = offset;
  while (at < order.entries.length) {
    const chunk = order.entries.slice(at, at + Math.min(CHUNK, Math.max(limit + 1, 32)));
    const sources = await visibleSources(
      target,
      chunk.map((e) => e.uid),
    );
    for (const entry of chunk) {
      at++;
      let source = sources.get(entry.uid);
      if (ranking.mode === 'threads') {
        const key = entry.threadKey ?? '';
        if (seen.has(key) || (source && threadKeys(source).some((k) => seen.has(k)))) continue;
        source ??= await threadMember(target, ranking, key);
        if (source && threadKeys(source).some((k) => seen.has(k))) continue;
        seen.add(key);
        if (source) for (const k of threadKeys(source)) seen.add(k);
      }
      if (!source) continue;
      if (hits.length === limit) return { hits, more: true, offset: next };
      hits.push({ source, score: entry.score });
      next = at;
    }
  }
  return { hits, more: false, offset: order.entries.length };
}

/**
 * A page of a frozen order from `offset`, extending the order from the live ranking (and
 * storing the longer one) when the page reaches its end while the ranking goes on.
 */
async function frozenPage(
  target: OpenSearchTarget,
  ranking: Ranking,
  order: FrozenOrder,
  offset: number,
  limit: number,
): Promise<{ hits: PageHit[]; token: { order: string; offset: number } | null }> {
  let current = order;
  let id: string | null = null;
  for (;;) {
    const slice = await orderSlice(target, ranking, current, offset, limit);
    if (slice.more || current.complete) {
      if (!slice.more) return { hits: slice.hits, token: null };
      id ??= await saveOrder(target.client, target.index, current);
      return { hits: slice.hits, token: { order: id, offset: slice.offset } };
    }
    const extension = await rankOrder(target, ranking, limit, current.entries);
    current = {
      ...current,
      entries: [...current.entries, ...extension.entries],
      complete: extension.complete,
    };
    id = null;
  }
}

/**
 * One page of agent search: every token required, weighted columns, bounded recency and the
 * bulk factor, spam/trash/blocked and unauthenticated mail left out. Thread mode collapses
 * the hits on their thread: a thread ranks by its best message, as on SQLite. A first page
 * with a next one freezes the head of its order for the pages after it.
 */
async function rankedPage(target: OpenSearchTarget, params: unknown, mode: Mode): Promise<RankedPage> {
  const request = validateSearchParams(params);
  if (request.q.trim() === '')
    throw new MailsiftError('invalid_argument', 'q is empty: give words or an identifier to search for', {
      param: 'q',
    });
  const groups = parseQuery(request.q, { languages: await indexedLanguages(target) });
  // Nothing searchable (only syntax characters): no match, as on SQLite. A bool query without
  // `must` clauses would match every message.
  if (groups.length === 0) return { request, hits: [], nextPageToken: null };
  const print = fingerprint([
    `opensearch:${mode}`,
    groups.map((g) => [g.parts, g.compound]),
    request.inbox,
    request.after,
    request.before,
    request.recency.maxBoost,
    request.recency.halfLifeDays,
  ]);
  const state = request.pageToken === null ? null : decodeToken(request.pageToken, mode, print);
  const origin = state?.origin ?? recencyOrigin();
  const watermark = state?.watermark ?? Date.now();
  const filter: Clause[] = [
    { term: { untrusted: false } },
    ...(request.inbox !== null ? [{ term: { inbox: request.inbox } }] : []),
    ...dateRange(request.after, request.before),
  ];
  const ranking: Ranking = {
    mode,
    print,
    watermark,
    query: (extra = []) => ({
      function_score: {
        query: {
          bool: {
            must: groups.map(groupClause),
            filter: [...filter, ...extra],
            must_not: [{ terms: { labels: EXCLUDED_LABELS } }],
          },
        },
        functions: [
          {
            // Bounded recency, as ranked-query.ts: 1 + (M − 1)·2^(−age/halfLife), age from an
            // origin floored to the hour and carried by the token, so pages agree.
            script_score: {
              script: {
                source:
                  "double age = Math.max(0, params.origin - doc['date'].value.toInstant().toEpochMilli()); return 1 + params.boost * Math.pow(2, -age / params.halfLife);",
                params: {
                  origin,
                  boost: request.recency.maxBoost - 1,
                  halfLife: request.recency.halfLifeDays * DAY_MS,
                },
              },
            },
          },
          { filter: { term: { bulk: true } }, weight: BULK_FACTOR },
        ],
        score_mode: 'multiply',
        boost_mode: 'multiply',
      },
    }),
  };
  const limit = request.limit;
  let page: { hits: PageHit[]; token: { order: string; offset: number } | null };
  if (state) {
    const order = await loadOrder(target.client, target.index, state.order, {
      kind: mode,
      fingerprint: print,
    });
    page = await frozenPage(target, ranking, order, state.offset, limit);
  } else {
    // One scored search: the order's sort values ten pages deep, without sources; page 1 is
    // read from it by id, as every later page is, and the order is stored only when there is
    // a next page. (A page search beside the order's cost a word query at 1M messages a second
    // scored search with its DFS phase.)
    const ranked = await rankOrder(target, ranking, limit, []);
    page = await frozenPage(target, ranking, { kind: mode, fingerprint: print, ...ranked }, 0, limit);
  }
  const terms = highlightTerms(groups, new Map());
  const hits = page.hits.map((hit) => {
    const language = hit.source.language;
    const highlights = buildHighlights(
      hit.source.texts,
      language !== null && isLanguage(language) ? language : null,
      terms,
    );
    return { hit, highlights };
  });
  return {
    request,
    hits,
    nextPageToken: page.token
      ? encodeToken({ kind: mode, fingerprint: print, ...page.token, origin, watermark })
      : null,
  };
}

/** Message-mode agent search (params as `searchMessages`). */
export async function searchMessages(
  target: OpenSearchTarget,
  params: unknown,
): Promise<MessageSearchResult> {
  const { request, hits, nextPageToken } = await rankedPage(target, params, 'search');
  const messages: MessageHit[] = hits.map(({ hit, highlights }) => ({
    ...hit.source.item,
    highlights,
    score: hit.score,
  }));
  return { count: messages.length, limit: request.limit, nextPageToken, messages };
}

interface ThreadMember {
  readonly threadKey: string;
  readonly date: number;
  readonly item: Pick<MessageItem, 'from' | 'to' | 'cc' | 'subject' | 'messageId'>;
}

/** Most messages of one thread read for its summary. */
const THREAD_MESSAGES = 10_000;

/**
 * Who took part in each thread, how long it is, its first subject and last message: every
 * message of the thread, spam and trash included, as SQLite's thread summary counts them.
 */
async function threadSummaries(
  target: OpenSearchTarget,
  keys: readonly string[],
): Promise<Map<string, ThreadMember[]>> {
  const members = new Map<string, ThreadMember[]>(keys.map((k) => [k, []]));
  if (keys.length === 0) return members;
  const response = await target.client.request<SearchResponse<ThreadMember>>(
    'POST',
    `/${target.index}/_search?allow_partial_search_results=false`,
    {
      size: THREAD_MESSAGES,
      query: { terms: { threadKey: keys } },
      sort: [{ date: 'asc' }, { uid: 'asc' }],
      _source: ['threadKey', 'date', 'item.from', 'item.to', 'item.cc', 'item.subject', 'item.messageId'],
    },
  );
  assertComplete(response);
  for (const hit of response.hits.hits) members.get(hit._source.threadKey)?.push(hit._source);
  return members;
}

/** Thread-mode agent search (params as `searchThreads`). */
export async function searchThreads(target: OpenSearchTarget, params: unknown): Promise<ThreadSearchResult> {
  const { request, hits, nextPageToken } = await rankedPage(target, params, 'threads');
  const summaries = await threadSummaries(
    target,
    hits.map(({ hit }) => hit.source.threadKey),
  );
  const threads: ThreadHit[] = hits.map(({ hit, highlights }) => {
    const best = hit.source.item;
    const members = summaries.get(hit.source.threadKey) ?? [];
    const last = members.at(-1);
    return {
      threadId: best.threadId,
      subject: members[0]?.item.subject ?? best.subject,
      senders: [...new Set(members.flatMap((m) => (m.item.from ? [m.item.from] : [])))],
      recipients: [...new Set(members.flatMap((m) => [...m.item.to, ...m.item.cc]))],
      messageCount: members.length,
      lastMessageId: last?.item.messageId ?? best.messageId,
      timestamp: last ? new Date(last.date).toISOString() : best.timestamp,
      preview: best.preview,
      highlights,
      score: hit.score,
    };
  });
  return { count: threads.length, limit: request.limit, nextPageToken, threads };
}

function listFilters(request: ListRequest): Clause[] {
  if (request.attachmentType !== null)
    throw new MailsiftError(
      'invalid_argument',
      'attachmentType: not supported by the OpenSearch backend yet',
      {
        param: 'attachmentType',
      },
    );
  return [
    ...(request.inbox !== null ? [{ term: { inbox: request.inbox } }] : []),
    ...identifierFilter('ident_from', request.from ?? ''),
    ...identifierFilter('ident_recipients', request.to ?? ''),
    ...identifierFilter('ident_subject', request.subject ?? ''),
    ...request.labels.map((label) => ({ term: { labels: label } })),
    ...(request.hasAttachment !== null ? [{ term: { hasAttachment: request.hasAttachment } }] : []),
    ...(request.threadId !== null ? [{ term: { threadId: request.threadId } }] : []),
    ...dateRange(request.after, request.before),
  ];
}

/** Filtered list, newest first unless ascending (params as `listMessages`). */
export async function listMessages(target: OpenSearchTarget, params: unknown): Promise<ListResult> {
  const request = validateListParams(params);
  const print = fingerprint([
    'opensearch:list',
    request.inbox,
    request.from,
    request.to,
    request.subject,
    request.labels,
    request.hasAttachment,
    request.threadId,
    request.after,
    request.before,
    request.ascending,
    request.includeSpam,
    request.includeTrash,
  ]);
  const state = request.pageToken === null ? null : decodeToken(request.pageToken, 'list', print);
  const order = request.ascending ? 'asc' : 'desc';
  // Keyset pages on (date, uid) of the live index: a list is never scored, so a message that
  // arrives or goes between pages cannot move the ones after the position (as on SQLite).
  const hits = await run<{ item: MessageItem }>(
    target,
    {
      query: {
        bool: { filter: listFilters(request), must_not: [{ terms: { labels: hiddenLabels(request) } }] },
      },
      sort: [{ date: order }, { uid: order }],
      size: request.limit + 1,
      _source: ['item'],
      ...(state ? { search_after: state.after } : {}),
    },
    { dfs: false },
  );
  const shown = hits.slice(0, request.limit);
  const last = shown.at(-1);
  return {
    count: shown.length,
    limit: request.limit,
    nextPageToken:
      hits.length > request.limit && last
        ? encodeToken({ kind: 'list', fingerprint: print, after: last.sort })
        : null,
    messages: shown.map((hit) => hit._source.item),
  };
}

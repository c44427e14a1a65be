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
// - Thread mode pages by offset into the point in time (collapse refuses search_after), and
//   a thread's summary reads at most THREAD_MESSAGES of its messages.

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
import { BULK_FACTOR, COLUMN_WEIGHTS } from '../../search/weights.js';
import { assertComplete, type OpenSearchClient, type ShardSummary } from './client.js';
import { PREFIX_FIELD } from './mapping.js';

/** A point in time lives this long between two pages (renewed by every page). */
const PIT_KEEP_ALIVE = '5m';
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
}

interface SearchResponse<S> {
  readonly pit_id?: string;
  readonly timed_out: boolean;
  readonly _shards: ShardSummary;
  readonly hits: { readonly hits: readonly Hit<S>[] };
}

/** What the next page needs: the point in time every page reads, and where the last one stopped. */
interface PageState {
  readonly kind: 'search' | 'threads' | 'list';
  readonly fingerprint: string;
  readonly pit: string;
  /** The sort values of the last hit served (search_after), or the hits served so far (collapsed pages). */
  readonly after: readonly unknown[] | number;
  readonly origin: number;
}

function encodeToken(state: PageState): string {
  return Buffer.from(JSON.stringify(state)).toString('base64url');
}

function decodeToken(token: string, kind: PageState['kind'], print: string): PageState {
  let state: PageState | undefined;
  try {
    state = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as PageState;
  } catch {
    state = undefined;
  }
  if (
    state?.kind !== kind ||
    state.fingerprint !== print ||
    typeof state.pit !== 'string' ||
    !(Array.isArray(state.after) || Number.isSafeInteger(state.after)) ||
    typeof state.origin !== 'number'
  )
    throw new MailsiftError('invalid_page_token', 'the page token is malformed or belongs to another query', {
      param: 'pageToken',
    });
  return state;
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

/**
 * Runs one page against a point in time: the token's, or a new one for a first page.
 * Asks one hit more than the page to know whether another page follows. Pages continue
 * after the last hit's sort values, or, when hits are collapsed (thread mode: OpenSearch
 * refuses search_after with collapse), from an offset into the same point in time.
 */
async function page<S>(
  target: OpenSearchTarget,
  body: Clause,
  limit: number,
  state: PageState | null,
  options: { dfs: boolean },
): Promise<{ hits: readonly Hit<S>[]; pit: string; more: boolean }> {
  const { client, index } = target;
  let pit = state?.pit;
  if (pit === undefined) {
    // A partial point in time would serve short pages for its whole life.
    const created = await client.request<{ pit_id: string; _shards: ShardSummary }>(
      'POST',
      `/${index}/_search/point_in_time?keep_alive=${PIT_KEEP_ALIVE}&allow_partial_pit_creation=false`,
    );
    assertComplete(created);
    pit = created.pit_id;
  }
  const params = `allow_partial_search_results=false${options.dfs ? '&search_type=dfs_query_then_fetch' : ''}`;
  const response = await client.request<SearchResponse<S>>('POST', `/_search?${params}`, {
    ...body,
    size: limit + 1,
    track_total_hits: false,
    pit: { id: pit, keep_alive: PIT_KEEP_ALIVE },
    ...(typeof state?.after === 'number'
      ? { from: state.after }
      : state
        ? { search_after: state.after }
        : {}),
  });
  assertComplete(response);
  const more = response.hits.hits.length > limit;
  const nextPit = response.pit_id ?? pit;
  // The last page: nobody will read this point in time again.
  if (!more) await client.request('DELETE', '/_search/point_in_time', { pit_id: [nextPit] }).catch(() => {});
  return { hits: response.hits.hits.slice(0, limit), pit: nextPit, more };
}

interface SearchSource {
  readonly item: MessageItem;
  readonly texts: FieldTexts;
  readonly language: string | null;
  readonly threadKey: string;
}

type Mode = 'search' | 'threads';

/** A relevance page: its hits with highlights, and the token of the next one. */
interface RankedPage {
  readonly request: SearchRequest;
  readonly hits: ReadonlyArray<{ readonly hit: Hit<SearchSource>; readonly highlights: Highlights }>;
  readonly nextPageToken: string | null;
}

/**
 * One page of agent search: every token required, weighted columns, bounded recency and the
 * bulk factor, spam/trash/blocked and unauthenticated mail left out. Thread mode collapses
 * the hits on their thread: a thread ranks by its best message, as on SQLite.
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
  const filter: Clause[] = [
    { term: { untrusted: false } },
    ...(request.inbox !== null ? [{ term: { inbox: request.inbox } }] : []),
    ...dateRange(request.after, request.before),
  ];
  const body = {
    query: {
      function_score: {
        query: {
          bool: {
            must: groups.map(groupClause),
            filter,
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
    },
    sort: [{ _score: 'desc' }, { date: 'desc' }, { uid: 'desc' }],
    _source: ['item', 'texts', 'language', 'threadKey'],
    ...(mode === 'threads' ? { collapse: { field: 'threadKey' } } : {}),
  };
  const result = await page<SearchSource>(target, body, request.limit, state, { dfs: true });
  const terms = highlightTerms(groups, new Map());
  const hits = result.hits.map((hit) => {
    const language = hit._source.language;
    const highlights = buildHighlights(
      hit._source.texts,
      language !== null && isLanguage(language) ? language : null,
      terms,
    );
    return { hit, highlights };
  });
  const last = result.hits.at(-1);
  const served = typeof state?.after === 'number' ? state.after : 0;
  const after = mode === 'threads' ? served + result.hits.length : (last?.sort ?? []);
  return {
    request,
    hits,
    nextPageToken:
      result.more && last
        ? encodeToken({ kind: mode, fingerprint: print, pit: result.pit, after, origin })
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
    ...hit._source.item,
    highlights,
    score: hit._score ?? 0,
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
    hits.map(({ hit }) => hit._source.threadKey),
  );
  const threads: ThreadHit[] = hits.map(({ hit, highlights }) => {
    const best = hit._source.item;
    const members = summaries.get(hit._source.threadKey) ?? [];
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
      score: hit._score ?? 0,
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
  const body = {
    query: {
      bool: { filter: listFilters(request), must_not: [{ terms: { labels: hiddenLabels(request) } }] },
    },
    sort: [{ date: order }, { uid: order }],
    _source: ['item'],
  };
  const result = await page<{ item: MessageItem }>(target, body, request.limit, state, { dfs: false });
  const last = result.hits.at(-1);
  return {
    count: result.hits.length,
    limit: request.limit,
    nextPageToken:
      result.more && last
        ? encodeToken({ kind: 'list', fingerprint: print, pit: result.pit, after: last.sort, origin: 0 })
        : null,
    messages: result.hits.map((hit) => hit._source.item),
  };
}

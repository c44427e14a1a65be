// A small OpenSearch REST client over Node's fetch: JSON in and out, the next node on a
// connection failure, and the one rule the backend lives by: an answer that may be
// incomplete is an error. OpenSearch answers 200 with some shards missing (a node that
// left is not even counted as failed), so every search response is checked here.

import { MailsiftError } from '../../core/errors.js';

export interface ClientOptions {
  /** Base URLs of the nodes (http://127.0.0.1:9200 …); any of them can answer. */
  readonly nodes: readonly string[];
  /** Per request, per node. */
  readonly timeoutMs?: number;
}

/** The shard summary of a search response. */
export interface ShardSummary {
  readonly total: number;
  readonly successful: number;
  readonly skipped?: number;
  readonly failed: number;
}

interface ErrorCause {
  readonly type?: string;
  readonly reason?: string;
}

interface ErrorBody {
  readonly error?: (ErrorCause & { readonly root_cause?: readonly ErrorCause[] }) | string;
  readonly status?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const NOT_FOUND = Symbol('not found');

/** A 4xx answer other than a missing index or 429: a bug in the request we built, not an outage. */
export class OpenSearchRequestError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    reason: string,
  ) {
    super(`OpenSearch ${status} ${type}: ${reason}`);
    this.name = 'OpenSearchRequestError';
  }
}

const unavailable = (message: string, cause?: unknown): MailsiftError =>
  new MailsiftError('index_unavailable', message, { param: 'opensearch', cause });

/** JSON, or the text itself: a proxy in front of a cluster may answer an HTML error page. */
function parseBody(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return { error: text.slice(0, 300) };
  }
}

function errorOf(body: unknown): { type: string; reason: string } {
  const error = (body as ErrorBody | null)?.error;
  if (typeof error === 'string') return { type: 'error', reason: error };
  const reason = error?.reason ?? JSON.stringify(body).slice(0, 300);
  // A search phase's own reason is only "all shards failed": what failed is its root cause
  // (a circuit breaker and its numbers, a rejected execution, a script error).
  const cause = error?.root_cause?.[0];
  const because =
    cause?.reason && cause.reason !== reason ? ` (${cause.type ?? 'cause'}: ${cause.reason})` : '';
  return { type: error?.type ?? 'error', reason: `${reason}${because}` };
}

/**
 * Throws index_unavailable unless every shard of the searched indices answered: failed
 * shards, shards missing from the count (a node that left: OpenSearch then reports
 * `failed: 0` with `successful < total`) and timeouts all mean a short page.
 */
export function assertComplete(response: { _shards?: ShardSummary; timed_out?: boolean }): void {
  const shards = response._shards;
  if (!shards) return;
  const answered = shards.successful + (shards.skipped ?? 0);
  if (shards.failed > 0 || answered < shards.total || response.timed_out === true)
    throw unavailable(
      `OpenSearch answered from ${answered} of ${shards.total} shards${response.timed_out ? ' (timed out)' : ''}: results would be incomplete`,
    );
}

export class OpenSearchClient {
  /** Base URLs, as requests use them: an archive that feeds the cluster records them. */
  readonly nodes: readonly string[];
  private readonly timeoutMs: number;
  /** Requests start at successive nodes, so that one process spreads its load. */
  private next = 0;

  constructor(options: ClientOptions) {
    if (options.nodes.length === 0)
      throw new MailsiftError('invalid_argument', 'no OpenSearch node given', { param: 'nodes' });
    this.nodes = options.nodes.map((n) => n.replace(/\/+$/, ''));
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /**
   * Sends a request to one node after another until one answers. `body` is JSON, or an
   * NDJSON string (bulk). A 5xx or 429 answer, or no node answering, is index_unavailable; a
   * missing index too (the cluster holds no copy of the archive to answer from).
   */
  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    return (await this.send<T>(method, path, body)) as T;
  }

  /** Whether `path` exists (HEAD: 200 or 404). */
  async exists(path: string): Promise<boolean> {
    return (await this.send('HEAD', path, undefined, true)) !== NOT_FOUND;
  }

  /** GET `path`, or undefined when it (a document, or its whole index) does not exist. */
  async find<T>(path: string): Promise<T | undefined> {
    const found = await this.send<T>('GET', path, undefined, true);
    return found === NOT_FOUND ? undefined : found;
  }

  /** `missing`: a 404 answers NOT_FOUND instead of throwing. */
  private async send<T>(
    method: string,
    path: string,
    body: unknown,
    missing = false,
  ): Promise<T | typeof NOT_FOUND> {
    const ndjson = typeof body === 'string';
    const init: RequestInit = {
      method,
      headers: { 'content-type': ndjson ? 'application/x-ndjson' : 'application/json' },
      ...(body === undefined ? {} : { body: ndjson ? body : JSON.stringify(body) }),
    };
    const start = this.next++ % this.nodes.length;
    let lastError: unknown;
    for (let i = 0; i < this.nodes.length; i++) {
      const node = this.nodes[(start + i) % this.nodes.length] as string;
      let response: Response;
      try {
        response = await fetch(`${node}${path}`, { ...init, signal: AbortSignal.timeout(this.timeoutMs) });
      } catch (error) {
        // Refused, reset or timed out: this node is down or hung, another may answer.
        lastError = error;
        continue;
      }
      if (missing && response.status === 404) return NOT_FOUND;
      const text = await response.text();
      const parsed = parseBody(text);
      if (response.ok) return parsed as T;
      const { type, reason } = errorOf(parsed);
      // 429: the cluster is refusing work for now (a full search queue, a circuit breaker
      // guarding its heap, too many open search contexts): an outage the caller may retry,
      // not a request to fix.
      if (response.status >= 500 || response.status === 429)
        throw unavailable(`OpenSearch ${response.status} ${type}: ${reason}`);
      if (type === 'index_not_found_exception')
        throw unavailable(`the OpenSearch index is missing; run \`mailsift reindex --backend opensearch\``);
      throw new OpenSearchRequestError(response.status, type, reason);
    }
    throw unavailable(`no OpenSearch node answered (${this.nodes.join(', ')})`, lastError);
  }
}

// The HTTP client of OpenAI-compatible providers (embeddings, chat): JSON POST with a
// timeout, retries with exponential backoff on 429 (honouring Retry-After), 5xx and
// network failures, and errors that name the endpoint and quote the server's message.

import { setTimeout as sleepFor } from 'node:timers/promises';
import { MailsiftError } from '../core/errors.js';

export interface EndpointOptions {
  /** Base URL of the API, e.g. http://127.0.0.1:11434/v1 (a full …/embeddings URL also works). */
  readonly url: string;
  readonly apiKey?: string;
  /** Per request; default 30 s. */
  readonly timeoutMs?: number;
  /** Retries after the first attempt; default 4. */
  readonly maxRetries?: number;
  /** First backoff delay; doubles per retry (with jitter). Default 500 ms. */
  readonly retryBaseMs?: number;
  /** Longest wait accepted from a Retry-After header; default 60 s. */
  readonly maxRetryAfterMs?: number;
  /** Injected by tests to observe the waits without waiting. */
  readonly sleep?: (ms: number) => Promise<void>;
}

/** A provider failure; `status` is the HTTP status when there was one. */
export class ProviderError extends MailsiftError {
  constructor(
    message: string,
    param: string,
    readonly status: number | null,
    cause?: unknown,
  ) {
    super('internal', message, { param, cause });
    this.name = 'ProviderError';
  }
}

const delay = (ms: number, signal?: AbortSignal): Promise<void> => sleepFor(ms, undefined, { signal });

/** Joins a base URL and an API path, unless the URL already ends with that path. */
export function endpointUrl(base: string, path: string): string {
  const trimmed = base.replace(/\/+$/, '');
  if (trimmed.endsWith(path)) return trimmed;
  return `${trimmed}${path}`;
}

/** Retry-After as seconds or an HTTP date, in ms; null when absent or unreadable. */
function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (header === null) return null;
  const seconds = Number(header);
  if (header.trim() !== '' && Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

function serverMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: string } | string; message?: string };
    if (typeof body.error === 'string') return body.error;
    return body.error?.message ?? body.message ?? text.slice(0, 200);
  } catch {
    return text.slice(0, 200);
  }
}

/**
 * POSTs `body` as JSON to `url` and returns the parsed JSON answer. `param` names the provider
 * in errors. `signal` ends the request and its retries at once (rejecting with its reason).
 */
export async function postJson(
  options: EndpointOptions,
  url: string,
  body: unknown,
  param: string,
  signal?: AbortSignal,
): Promise<unknown> {
  const retries = options.maxRetries ?? 4;
  const base = options.retryBaseMs ?? 500;
  const sleep = options.sleep ?? ((ms: number) => delay(ms, signal));
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  let last: Retryable | null = null;
  for (let attempt = 0; attempt <= retries; attempt++) {
    if (attempt > 0) {
      const backoff = base * 2 ** (attempt - 1) * (1 + Math.random() * 0.25);
      await sleep(last?.retryAfter ?? backoff);
      signal?.throwIfAborted();
    }
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: signal
          ? AbortSignal.any([AbortSignal.timeout(options.timeoutMs ?? 30_000), signal])
          : AbortSignal.timeout(options.timeoutMs ?? 30_000),
      });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      const timedOut = (error as Error).name === 'TimeoutError';
      last = retryable(
        new ProviderError(
          `${param} at ${url} ${timedOut ? `did not answer within ${options.timeoutMs ?? 30_000} ms` : `is unreachable: ${(error as Error).message}`}`,
          param,
          null,
          error,
        ),
        null,
      );
      continue;
    }
    const text = await response.text();
    if (response.ok) {
      try {
        return JSON.parse(text) as unknown;
      } catch (error) {
        throw new ProviderError(
          `${param} at ${url} answered with invalid JSON`,
          param,
          response.status,
          error,
        );
      }
    }
    const failure = new ProviderError(
      `${param} at ${url} answered ${response.status}: ${serverMessage(text)}`,
      param,
      response.status,
    );
    if (response.status !== 429 && response.status < 500) throw failure;
    const after = response.status === 429 ? retryAfterMs(response.headers.get('retry-after')) : null;
    if (after !== null && after > (options.maxRetryAfterMs ?? 60_000)) throw failure;
    last = retryable(failure, after);
  }
  throw last as ProviderError;
}

type Retryable = ProviderError & { retryAfter?: number };
function retryable(error: ProviderError, after: number | null): Retryable {
  const r = error as Retryable;
  if (after !== null) r.retryAfter = after;
  return r;
}

/** Runs `tasks` with at most `limit` in flight; results in task order. */
export async function withConcurrency<T>(
  tasks: ReadonlyArray<() => Promise<T>>,
  limit: number,
): Promise<T[]> {
  const results = new Array<T>(tasks.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await (tasks[i] as () => Promise<T>)();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, tasks.length)) }, worker));
  return results;
}

// The operations the HTTP API and the MCP server share (`MailService`), seen through one
// principal: every inbox is checked against the key's scope (an inbox the key may not see is
// reported exactly like one that does not exist) and every page token is bound to the key.
// `MailApi` answers them from the archive; `ClusterMailApi` (cluster-api.ts) from an
// OpenSearch cluster.

import type { z } from 'zod';
import type { Principal } from '../../auth/index.js';
import { MailsiftError } from '../../core/errors.js';
import {
  type DecisionParams,
  type DecisionsJson,
  decisionsJson,
  findDecisions,
} from '../../decisions/index.js';
import type { Mailsift, ThreadView } from '../../engine.js';
import { indexSecret } from '../../index/index.js';
import type { Answer, AskOptions, RetrievalResult } from '../../rag/index.js';
import {
  DEFAULT_LIMIT,
  type ListResult,
  listMessages,
  MAX_LIMIT,
  type MessageItem,
  type MessageSearchResult,
  searchMessages,
  searchThreads,
  type ThreadSearchResult,
} from '../../search/index.js';
import { type Db, type StoredMessage, sql } from '../../store/index.js';
import {
  type AttachmentContent,
  loadAttachment,
  type ThreadAttachment,
  threadAttachment,
} from './attachments.js';
import { type InboxList, type InboxSummary, inboxSummary, listInboxes } from './inboxes.js';
import { KeyPageTokens } from './page-tokens.js';
import { parseWith } from './param-schemas.js';
import { boundedProviders, questionProviders, type RagProviders } from './rag-providers.js';
import { askBodySchema, retrieveBodySchema } from './rag-schemas.js';
import { decisionsQuerySchema } from './schemas.js';

/** Pages of matching messages list_threads reads for one page of threads before returning a shorter page (with a token). */
const MAX_THREAD_SCAN_PAGES = 20;

export type Params = Record<string, unknown>;

export interface ThreadItem {
  readonly inboxId: string;
  readonly threadId: string;
  /** The thread's newest (oldest when ascending) message that matched the filters. */
  readonly messageId: string;
  readonly subject: string;
  readonly timestamp: string;
  readonly from: string | null;
  readonly to: readonly string[];
  readonly labels: readonly string[];
  readonly preview: string;
  readonly messageCount: number;
}

export interface ThreadList {
  readonly count: number;
  readonly limit: number;
  readonly nextPageToken: string | null;
  readonly threads: ThreadItem[];
}

type Awaitable<T> = T | Promise<T>;

/** What the HTTP routes and MCP tools call, whichever backend answers. */
export interface MailService {
  readonly principal: Principal;
  listInboxes(params: { limit?: number; pageToken?: string }): Awaitable<InboxList>;
  getInbox(name: string): Awaitable<InboxSummary>;
  searchMessages(inbox: string, params: Params): Awaitable<MessageSearchResult>;
  searchThreads(inbox: string, params: Params): Awaitable<ThreadSearchResult>;
  listMessages(inbox: string, params: Params): Awaitable<ListResult>;
  listThreads(inbox: string, params: Params): Awaitable<ThreadList>;
  getMessage(inbox: string, messageId: string): Awaitable<StoredMessage>;
  getRaw(inbox: string, messageId: string): Awaitable<Buffer>;
  getThread(inbox: string, threadId: string): Awaitable<ThreadView>;
  getAttachment(inbox: string, messageId: string, attachmentId: string): Promise<AttachmentContent>;
  getThreadAttachment(inbox: string, threadId: string, attachmentId: string): Promise<ThreadAttachment>;
  listDecisions(inbox: string, params: Params): Awaitable<DecisionsJson>;
  retrieve(inbox: string, body: unknown): Promise<RetrievalResult>;
  ask(inbox: string, body: unknown): Promise<Answer>;
}

export class MailApi implements MailService {
  readonly db: Db;
  private readonly tokens: KeyPageTokens;
  private readonly providers: ReturnType<typeof boundedProviders>;

  constructor(
    readonly engine: Mailsift,
    readonly principal: Principal,
    providers: RagProviders = {},
  ) {
    this.db = engine.archive.db;
    this.tokens = new KeyPageTokens(indexSecret(this.db), principal.keyId);
    this.providers = boundedProviders(providers);
  }

  /** Resolves an inbox name the principal may read; anything else is 'no such inbox'. */
  inbox(name: string): { id: number; name: string } {
    const scope = this.principal.inboxes;
    const hidden = scope !== null && !scope.includes(name);
    const row = hidden
      ? undefined
      : (sql(this.db, 'SELECT id, name FROM inboxes WHERE name = ?').get(name) as
          | { id: number; name: string }
          | undefined);
    if (!row)
      throw new MailsiftError('no_such_item', `no inbox named '${name.slice(0, 200)}'`, { param: 'inboxId' });
    return row;
  }

  listInboxes(params: { limit?: number; pageToken?: string }): InboxList {
    return listInboxes(this.db, { ...params, visible: this.principal.inboxes });
  }

  getInbox(name: string): InboxSummary {
    return inboxSummary(this.db, this.inbox(name));
  }

  searchMessages(inbox: string, params: Params): MessageSearchResult {
    this.inbox(inbox);
    const result = searchMessages(this.db, this.tokens.inner(params, inbox));
    return { ...result, nextPageToken: this.tokens.wrap(result.nextPageToken) };
  }

  searchThreads(inbox: string, params: Params): ThreadSearchResult {
    this.inbox(inbox);
    const result = searchThreads(this.db, this.tokens.inner(params, inbox));
    return { ...result, nextPageToken: this.tokens.wrap(result.nextPageToken) };
  }

  listMessages(inbox: string, params: Params): ListResult {
    this.inbox(inbox);
    const result = listMessages(this.db, this.tokens.inner(params, inbox));
    return { ...result, nextPageToken: this.tokens.wrap(result.nextPageToken) };
  }

  /**
   * Threads whose messages match every filter, each listed once at its newest matching
   * message (oldest when ascending), paged by the underlying message list's token.
   */
  listThreads(inbox: string, params: Params): ThreadList {
    const { id: inboxId } = this.inbox(inbox);
    const { senders, recipients, limit = DEFAULT_LIMIT, pageToken, ...rest } = params;
    const filters: Params = { ...rest, inbox };
    if (senders !== undefined) filters.from = senders;
    if (recipients !== undefined) filters.to = recipients;
    if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
      throw new MailsiftError('invalid_argument', `limit: must be an integer from 1 to ${MAX_LIMIT}`, {
        param: 'limit',
      });
    }
    let token = pageToken === undefined ? undefined : this.tokens.unwrap(pageToken);
    const threads: ThreadItem[] = [];
    for (let scanned = 0; scanned < MAX_THREAD_SCAN_PAGES && threads.length < limit; scanned++) {
      const page = listMessages(this.db, {
        ...filters,
        limit: limit - threads.length,
        ...(token ? { pageToken: token } : {}),
      });
      for (const message of page.messages) {
        const lead = listMessages(this.db, { ...filters, threadId: message.threadId, limit: 1 }).messages[0];
        if (lead?.messageId === message.messageId) threads.push(this.threadItem(inboxId, message));
      }
      token = page.nextPageToken ?? undefined;
      if (!token) break;
    }
    return { count: threads.length, limit, nextPageToken: this.tokens.wrap(token ?? null), threads };
  }

  getMessage(inbox: string, messageId: string): StoredMessage {
    this.inbox(inbox);
    return this.engine.getMessage(messageId, { inbox });
  }

  getRaw(inbox: string, messageId: string): Buffer {
    this.inbox(inbox);
    return this.engine.getRaw(messageId, { inbox });
  }

  getThread(inbox: string, threadId: string): ThreadView {
    this.inbox(inbox);
    return this.engine.getThread(threadId, { inbox });
  }

  getAttachment(inbox: string, messageId: string, attachmentId: string): Promise<AttachmentContent> {
    return loadAttachment(this.db, this.getMessage(inbox, messageId), attachmentId);
  }

  /** Metadata and text of an attachment addressed within a thread as `<ordinal>:<messageId>`. */
  getThreadAttachment(inbox: string, threadId: string, attachmentId: string): Promise<ThreadAttachment> {
    return threadAttachment(this.getThread(inbox, threadId), attachmentId, (message, ordinal) =>
      loadAttachment(this.db, message, ordinal),
    );
  }

  /** A page of what the inbox's threads decided, newest first, each with its verbatim evidence. */
  listDecisions(inbox: string, params: Params): DecisionsJson {
    const { name } = this.inbox(inbox);
    // The schema is built from DECISION_PARAMS, so what it lets through is their type.
    const { pageToken, ...checked } = parseWith(decisionsQuerySchema, params) as DecisionParams;
    const found = decisionsJson(
      findDecisions(this.db, {
        ...checked,
        inbox: name,
        ...(pageToken === undefined ? {} : { pageToken: this.tokens.unwrap(pageToken) }),
      }),
    );
    return { ...found, nextPageToken: this.tokens.wrap(found.nextPageToken) };
  }

  /** The context pack for a question over one inbox (keyword-only without an embedder, `degraded` when it failed). */
  retrieve(inbox: string, body: unknown): Promise<RetrievalResult> {
    const { name } = this.inbox(inbox);
    const params = parseWith(retrieveBodySchema, body, 'body');
    return this.engine.retrieve(params.question, this.questionOptions(name, params));
  }

  /** A cited answer over one inbox: the LLM's when one is configured and answers, else extractive. */
  ask(inbox: string, body: unknown): Promise<Answer> {
    const { name } = this.inbox(inbox);
    const params = parseWith(askBodySchema, body, 'body');
    return this.engine.ask(params.question, {
      ...this.questionOptions(name, params),
      ...(params.passages === undefined ? {} : { passages: params.passages }),
      ...(this.providers.llm ? { llm: this.providers.llm } : {}),
    });
  }

  private questionOptions(inbox: string, params: z.output<typeof retrieveBodySchema>): AskOptions {
    return {
      inbox,
      ...(params.limit === undefined ? {} : { limit: params.limit }),
      ...(params.tokenBudget === undefined ? {} : { budget: params.tokenBudget }),
      ...(params.mode === undefined ? {} : { mode: params.mode }),
      ...questionProviders(this.providers, this.db),
    };
  }

  private threadItem(inboxId: number, message: MessageItem): ThreadItem {
    const messageCount = (
      sql(this.db, 'SELECT count(*) AS n FROM messages WHERE inbox_id = ? AND thread_id = ?').get(
        inboxId,
        message.threadId,
      ) as {
        n: number;
      }
    ).n;
    const { inboxId: inbox, threadId, messageId, subject, timestamp, from, to, labels, preview } = message;
    return {
      inboxId: inbox,
      threadId,
      messageId,
      subject,
      timestamp,
      from,
      to,
      labels,
      preview,
      messageCount,
    };
  }
}

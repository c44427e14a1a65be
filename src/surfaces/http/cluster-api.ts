// The shared API operations answered by an OpenSearch cluster (MAILSIFT_BACKEND=opensearch):
// search, lists, messages, threads and attachments read from the cluster's documents, so
// `serve` and `mcp` need no copy of the mail on their host. The principal and its inbox scope
// come from the API keys of the local archive (which may hold nothing else). What the
// cluster does not hold (the RAG tables behind retrieve and ask, the thread decisions) is
// `not_supported`, named, rather than an answer from an empty local archive.

import type { Principal } from '../../auth/index.js';
import * as reader from '../../backend/opensearch/reader.js';
import type { OpenSearchTarget } from '../../backend/opensearch/search.js';
import * as cluster from '../../backend/opensearch/search.js';
import { MailsiftError } from '../../core/errors.js';
import type { DecisionsJson } from '../../decisions/index.js';
import type { Answer, RetrievalResult } from '../../rag/index.js';
import type { ListResult, MessageSearchResult, ThreadSearchResult } from '../../search/index.js';
import type { StoredMessage, ThreadView } from '../../store/index.js';
import type { MailService, Params, ThreadList } from './api.js';
import {
  type AttachmentContent,
  attachmentOrdinal,
  type ThreadAttachment,
  threadAttachment,
} from './attachments.js';
import { type InboxList, type InboxSummary, inboxPage } from './inboxes.js';
import { KeyPageTokens } from './page-tokens.js';

const notSupported = (what: string): MailsiftError =>
  new MailsiftError(
    'not_supported',
    `${what} is not served by the OpenSearch backend yet: ask a server over the archive`,
    {
      param: 'backend',
    },
  );

export class ClusterMailApi implements MailService {
  private readonly tokens: KeyPageTokens;

  /** `secret` signs page tokens (the local archive's, as MailApi's). */
  constructor(
    private readonly target: OpenSearchTarget,
    readonly principal: Principal,
    secret: string,
  ) {
    this.tokens = new KeyPageTokens(secret, principal.keyId);
  }

  /** An inbox the principal may read; its existence is the cluster's to say (an unknown one holds nothing). */
  private inbox(name: string): string {
    const scope = this.principal.inboxes;
    if (scope !== null && !scope.includes(name))
      throw new MailsiftError('no_such_item', `no inbox named '${name.slice(0, 200)}'`, { param: 'inboxId' });
    return name;
  }

  /** Each inbox's message and thread counts (threads: see `inboxCounts`). */
  private async summaries(inbox?: string): Promise<Map<string, InboxSummary>> {
    const counts = await reader.inboxCounts(this.target, inbox);
    return new Map(
      [...counts].map(([name, c]) => [
        name,
        { inboxId: name, messageCount: c.messages, threadCount: c.threads },
      ]),
    );
  }

  async listInboxes(params: { limit?: number; pageToken?: string }): Promise<InboxList> {
    const summaries = await this.summaries();
    return inboxPage(
      [...summaries.keys()],
      { ...params, visible: this.principal.inboxes },
      (name) => summaries.get(name) as InboxSummary,
    );
  }

  async getInbox(name: string): Promise<InboxSummary> {
    const summary = (await this.summaries(this.inbox(name))).get(name);
    if (!summary)
      throw new MailsiftError('no_such_item', `no inbox named '${name.slice(0, 200)}'`, { param: 'inboxId' });
    return summary;
  }

  async searchMessages(inbox: string, params: Params): Promise<MessageSearchResult> {
    const result = await cluster.searchMessages(this.target, this.tokens.inner(params, this.inbox(inbox)));
    return { ...result, nextPageToken: this.tokens.wrap(result.nextPageToken) };
  }

  async searchThreads(inbox: string, params: Params): Promise<ThreadSearchResult> {
    const result = await cluster.searchThreads(this.target, this.tokens.inner(params, this.inbox(inbox)));
    return { ...result, nextPageToken: this.tokens.wrap(result.nextPageToken) };
  }

  async listMessages(inbox: string, params: Params): Promise<ListResult> {
    const result = await cluster.listMessages(this.target, this.tokens.inner(params, this.inbox(inbox)));
    return { ...result, nextPageToken: this.tokens.wrap(result.nextPageToken) };
  }

  listThreads(): Promise<ThreadList> {
    return Promise.reject(notSupported('the thread list'));
  }

  getMessage(inbox: string, messageId: string): Promise<StoredMessage> {
    return reader.getMessage(this.target, messageId, { inbox: this.inbox(inbox) });
  }

  getRaw(inbox: string, messageId: string): Promise<Buffer> {
    return reader.getRaw(this.target, messageId, { inbox: this.inbox(inbox) });
  }

  getThread(inbox: string, threadId: string): Promise<ThreadView> {
    return reader.getThread(this.target, threadId, { inbox: this.inbox(inbox) });
  }

  async getAttachment(inbox: string, messageId: string, attachmentId: string): Promise<AttachmentContent> {
    const { ordinal, attachment, content } = await reader.getAttachment(
      this.target,
      messageId,
      attachmentOrdinal(attachmentId),
      { inbox: this.inbox(inbox) },
    );
    return { attachmentId: String(ordinal), meta: attachment, content };
  }

  getThreadAttachment(inbox: string, threadId: string, attachmentId: string): Promise<ThreadAttachment> {
    return threadAttachment(this.getThread(inbox, threadId), attachmentId, (message, ordinal) =>
      this.getAttachment(inbox, message.messageId, ordinal),
    );
  }

  listDecisions(): Promise<DecisionsJson> {
    return Promise.reject(notSupported('decisions'));
  }

  retrieve(): Promise<RetrievalResult> {
    return Promise.reject(notSupported('retrieve'));
  }

  ask(): Promise<Answer> {
    return Promise.reject(notSupported('ask'));
  }
}

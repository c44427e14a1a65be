// Wire schemas of the HTTP API and MCP tools. Request schemas are derived from the search
// layer's own parameter specs (one source of truth; only dates narrow to the string a
// URL or JSON carries); response schemas describe what the API emits, for the OpenAPI document.

import { z } from 'zod';
import { DECISION_KINDS, DECISION_PARAMS, EVIDENCE_ROLES } from '../../decisions/index.js';
import { MAX_LIMIT, SEARCH_PARAMS } from '../../search/index.js';
import { decisionParamsSchema, listParamsSchema, searchParamsSchema } from './param-schemas.js';
import { askBodySchema, decisionFields, retrieveBodySchema } from './rag-schemas.js';

const wireDate = z.string().describe(SEARCH_PARAMS.before.description);

export const searchQuerySchema = searchParamsSchema
  .omit({ inbox: true, recency: true })
  .extend({ before: wireDate.optional(), after: wireDate.optional() });

export const listQuerySchema = listParamsSchema
  .omit({ inbox: true })
  .extend({ before: wireDate.optional(), after: wireDate.optional() });

export const listThreadsQuerySchema = listQuerySchema
  .omit({ from: true, to: true, hasAttachment: true, attachmentType: true, threadId: true })
  .extend({
    senders: listParamsSchema.shape.from.describe(
      'prefix match on the sender name and address tokens of a message of the thread',
    ),
    recipients: listParamsSchema.shape.to.describe(
      'prefix match on the recipient tokens of a message of the thread',
    ),
  });

export const decisionsQuerySchema = decisionParamsSchema.extend({
  before: wireDate.optional().describe(DECISION_PARAMS.before.description),
  after: wireDate.optional().describe(DECISION_PARAMS.after.description),
});

export const inboxPageSchema = z.strictObject({
  limit: z.number().int().min(1).max(MAX_LIMIT).optional().describe(`inboxes per page, 1–${MAX_LIMIT}`),
  pageToken: searchParamsSchema.shape.pageToken,
});

/** Endpoints that take no query parameters still reject unknown ones. */
export const noQuerySchema = z.strictObject({});

const inboxId = z.string().min(1).describe('inbox name');

/** MCP tool inputs: AgentMail's tool parameter names, the search layer's validation. */
export const toolInputs = {
  list_inboxes: inboxPageSchema,
  get_inbox: z.strictObject({ inboxId }),
  search_messages: searchQuerySchema
    .pick({ q: true, limit: true, pageToken: true, before: true, after: true })
    .extend({ inboxId }),
  search_threads: searchQuerySchema
    .pick({ q: true, limit: true, pageToken: true, before: true, after: true })
    .extend({ inboxId }),
  list_messages: listQuerySchema
    .pick({
      from: true,
      to: true,
      subject: true,
      labels: true,
      before: true,
      after: true,
      hasAttachment: true,
      attachmentType: true,
      ascending: true,
      includeSpam: true,
      includeTrash: true,
      limit: true,
      pageToken: true,
    })
    .extend({ inboxId }),
  list_threads: listThreadsQuerySchema.extend({ inboxId }),
  get_thread: z.strictObject({
    inboxId,
    threadId: z.string().min(1).describe('thread id, or the Message-ID of one of its messages'),
  }),
  get_attachment: z.strictObject({
    inboxId,
    threadId: z.string().min(1),
    attachmentId: z.string().min(1).describe("'<n>:<messageId>' as listed on the thread's messages"),
  }),
  get_message: z.strictObject({
    inboxId,
    messageId: z.string().min(1).describe('Message-ID, angle brackets optional'),
  }),
  retrieve_context: retrieveBodySchema
    .pick({ question: true, limit: true, tokenBudget: true })
    .extend({ inboxId }),
  ask_question: askBodySchema.pick({ question: true, limit: true }).extend({ inboxId }),
  list_decisions: decisionsQuerySchema.extend({ inboxId }),
} as const;

// ---- responses ----

export const errorSchema = z.object({
  error: z.object({
    code: z
      .string()
      .describe(
        'machine-readable code: invalid_argument, unknown_parameter, invalid_page_token, not_found, unauthorized, …',
      ),
    message: z.string(),
    param: z.string().optional().describe('the parameter that was wrong'),
  }),
});

const page = {
  count: z.number().int(),
  limit: z.number().int(),
  nextPageToken: z.string().nullable(),
};

const attachmentSummary = z.object({
  filename: z.string().nullable(),
  contentType: z.string(),
  size: z.number().int(),
  inline: z.boolean(),
});

const highlights = z
  .record(z.string(), z.array(z.string()))
  .describe('per field, fragments with matches wrapped in **');

const messageItem = z.object({
  inboxId: z.string(),
  threadId: z.string(),
  messageId: z.string(),
  labels: z.array(z.string()),
  timestamp: z.string(),
  from: z.string().nullable(),
  to: z.array(z.string()),
  cc: z.array(z.string()),
  subject: z.string(),
  preview: z.string(),
  attachments: z.array(attachmentSummary),
  inReplyTo: z.string().nullable(),
  references: z.array(z.string()),
});

const scoring = {
  highlights,
  score: z.number(),
  explain: z.record(z.string(), z.unknown()).optional(),
};

const degraded = z
  .array(z.string())
  .optional()
  .describe('optional stages skipped this time, e.g. fuzzy_fill');

export const messageSearchSchema = z.object({
  ...page,
  degraded,
  messages: z.array(messageItem.extend(scoring)),
});

export const threadSearchSchema = z.object({
  ...page,
  degraded,
  threads: z.array(
    z.object({
      threadId: z.string(),
      subject: z.string(),
      senders: z.array(z.string()),
      recipients: z.array(z.string()),
      messageCount: z.number().int(),
      lastMessageId: z.string(),
      timestamp: z.string(),
      preview: z.string(),
      ...scoring,
    }),
  ),
});

export const messageListSchema = z.object({ ...page, messages: z.array(messageItem) });

export const threadListSchema = z.object({
  ...page,
  threads: z.array(
    messageItem
      .pick({
        inboxId: true,
        threadId: true,
        messageId: true,
        subject: true,
        timestamp: true,
        from: true,
        to: true,
        labels: true,
        preview: true,
      })
      .extend({ messageCount: z.number().int() }),
  ),
});

const address = z.object({ name: z.string(), address: z.string() });

export const messageSchema = z.object({
  inboxId: z.string(),
  threadId: z.string(),
  messageId: z.string(),
  variantOf: z.string().optional(),
  labels: z.array(z.string()),
  folders: z.array(z.string()),
  timestamp: z.string(),
  from: address.nullable(),
  to: z.array(address),
  cc: z.array(address),
  bcc: z.array(address),
  replyTo: z.array(address),
  subject: z.string(),
  inReplyTo: z.string().nullable(),
  references: z.array(z.string()),
  auth: z.object({ dmarc: z.string().optional(), spf: z.string().optional(), dkim: z.string().optional() }),
  attachments: z.array(
    z.object({
      attachmentId: z.string().describe('0-based number within the message: /attachments/{attachmentId}'),
      filename: z.string().nullable(),
      contentType: z.string(),
      size: z.number().int(),
      sha256: z.string(),
      contentId: z.string().nullable(),
      inline: z.boolean(),
      extraction: z
        .object({
          status: z.enum(['ok', 'skipped', 'failed']),
          reason: z.string().nullable().describe('why it was skipped or failed'),
          format: z.string(),
          language: z.string().nullable(),
          truncated: z.boolean(),
          textLength: z.number().int().describe('characters of extracted text (get_attachment returns it)'),
        })
        .nullable()
        .describe('text extraction outcome; null for messages ingested before extraction existed'),
    }),
  ),
  authored: z.string().describe('what the sender wrote, without quoted history, signature or footers'),
  quoted: z.string(),
  forwarded: z.array(
    z.object({
      from: z.string().nullable(),
      date: z.string().nullable(),
      subject: z.string().nullable(),
      text: z.string(),
    }),
  ),
  signature: z.string(),
  disclaimer: z.string(),
  footer: z.string(),
  warnings: z.array(z.string()).optional(),
});

export const threadSchema = z.object({
  inboxId: z.string(),
  threadId: z.string(),
  messageCount: z.number().int(),
  messages: z.array(
    messageSchema.extend({ depth: z.number().int().describe('0 for roots, +1 per reply level') }),
  ),
});

export const decisionListSchema = z.object({
  ...page,
  decisions: z
    .array(
      z.object({
        ...decisionFields,
        kind: z.enum(DECISION_KINDS),
        evidence: z.array(
          z.object({
            messageId: z.string(),
            quote: z.string().describe("verbatim from that message's authored text"),
            role: z.enum(EVIDENCE_ROLES),
          }),
        ),
        participants: z.array(z.string()).describe('everyone whose message is evidence, proposer first'),
        confidence: z.number().describe('0..1: the cue, who said it and where'),
        supersededBy: z
          .string()
          .nullable()
          .describe('the proposal message of the later decision that revised this one'),
        method: z
          .enum(['rules', 'llm'])
          .describe("'llm' when the configured LLM validated the decision and phrased its statement"),
      }),
    )
    .describe('newest first (by the date of the settling message)'),
});

export const inboxListSchema = z.object({
  ...page,
  inboxes: z.array(
    z.object({ inboxId: z.string(), messageCount: z.number().int(), threadCount: z.number().int() }),
  ),
});

const checkStatusSchema = z.enum(['ok', 'warn', 'fail']);
const healthCheckSchema = z.object({
  name: z.enum([
    'sync',
    'source_count',
    'unindexed',
    'embedding_backlog',
    'summary_backlog',
    'cleaner',
    'index_consistency',
    'ingest_failures',
  ]),
  status: checkStatusSchema,
  message: z.string(),
  value: z
    .number()
    .nullable()
    .describe(
      'the figure judged: age in seconds or a count (embedding_backlog: chunks waiting plus threads awaiting chunks; summary_backlog: thread summaries waiting for the llm; cleaner: the cleaner version the oldest stored messages were cleaned with)',
    ),
});

export const healthSchema = z.object({
  status: checkStatusSchema.describe('the worst check; the response is 503 when it is fail'),
  checkedAt: z.string(),
  checks: z
    .array(healthCheckSchema)
    .optional()
    .describe('archive-wide checks; detail is given to callers with a key, or when auth is off'),
  inboxes: z
    .array(
      z.object({
        inbox: z.string(),
        messages: z.number().int(),
        unindexed: z.number().int(),
        embeddingBacklog: z
          .number()
          .int()
          .nullable()
          .describe('chunks waiting for the embedder; null: no embedder configured'),
        threadsAwaitingChunks: z
          .number()
          .int()
          .nullable()
          .describe(
            'changed threads whose chunks are not built yet (not in embeddingBacklog); null: no embedder',
          ),
        summaryBacklog: z
          .number()
          .int()
          .nullable()
          .describe('thread summaries waiting for the llm (extractive meanwhile); null: no llm configured'),
        summariesFailing: z
          .number()
          .int()
          .nullable()
          .describe(
            'of those, the ones whose last attempt failed, each retried after a backoff; null: no llm',
          ),
        failuresByReason: z.array(z.object({ reason: z.string(), count: z.number().int() })),
        checks: z.array(healthCheckSchema),
        sources: z.array(
          z.object({
            path: z.string(),
            kind: z.string(),
            lastSyncAt: z.string().nullable(),
            lastSyncAgeSeconds: z.number().nullable(),
            seenAtSource: z.number().int().nullable(),
            stored: z.number().int(),
            failed: z.number().int(),
            skipped: z.number().int().describe('files its last complete run passed over as not mail'),
            checks: z.array(healthCheckSchema),
          }),
        ),
      }),
    )
    .optional()
    .describe("per inbox (only the key's inboxes) and per source"),
});

// Person-to-person conversations: a thread opens with a new message, replies quote their
// parent in the replier's client style and carry In-Reply-To/References, and the owner
// sometimes forwards a message to a colleague.

import { MailsiftError } from '../core/errors.js';
import { greeting, makeSlots, paragraphs, signOff, subjectLine } from './body.js';
import type { AttachmentSpec } from './compose.js';
import {
  type Context,
  type Draft,
  messageIdFor,
  pickCharset,
  pickPerson,
  pickTransferEncoding,
  traceHeaders,
} from './context.js';
import { type Charset, canEncode } from './encode.js';
import type { LanguageCode } from './language.js';
import { PACKS } from './phrases.js';
import type { Person } from './population.js';
import { forwardBlock, htmlDocument, paragraphsHtml, type QuotedMessage, quoteFor } from './quote.js';

export interface ThreadState {
  readonly key: string;
  readonly lang: LanguageCode;
  readonly baseSubject: string;
  readonly participants: readonly Person[];
  readonly charset: Charset;
  readonly maxDepth: number;
  /** Gmail thread id (decimal), for threads whose mail went through Gmail. */
  readonly gmThrid: string | null;
  readonly threadIndex: Buffer;
  depth: number;
  /** The newest message, which the next reply quotes; null only while the first is composed. */
  last: QuotedMessage | null;
  lastSender: Person;
  references: string[];
}

/** References kept per reply: root plus the newest ids, as clients trim long chains. */
const MAX_REFS = 20;

const FILE_STEMS = [
  'delivery-schedule',
  'Q3-budget',
  'contract-draft',
  'price-list',
  'invoice',
  'shipment-report',
  'meeting-notes',
  'forecast',
];

function maybeAttachments(ctx: Context): AttachmentSpec[] | undefined {
  const r = ctx.rng;
  if (!r.chance(0.14)) return undefined;
  const a = r.pick(ctx.attachments);
  const ext = a.kind === 'pdf' ? 'pdf' : a.kind;
  const filename = `${r.pick(FILE_STEMS)}-${r.int(1, 52)}.${ext}`;
  return [{ filename, contentType: a.contentType, content: a.content, base64: a.base64 }];
}

function threadIndexHeader(base: Buffer, depth: number): string {
  // Outlook's Thread-Index: 22 bytes for the conversation plus 5 per reply (MS-OXOMSG 2.2.1.3).
  return `Thread-Index: ${Buffer.concat([base, Buffer.alloc(depth * 5, depth)]).toString('base64')}`;
}

function composeDraft(
  ctx: Context,
  thread: ThreadState,
  from: Person,
  to: readonly Person[],
  cc: readonly Person[],
  subject: string,
  date: Date,
  authored: readonly string[],
  quote: { text: string; html: string } | null,
  kind: string,
): { draft: Draft; quoted: QuotedMessage; terminal: boolean } {
  const r = ctx.rng;
  const fromOwner = from === ctx.pop.owner;
  // ~2% of all mail lacks a Message-ID; only incoming mail can, since our own client always sets one.
  const noId = !fromOwner && r.chance(0.035);
  const messageId = noId ? null : messageIdFor(ctx, from.client, from.domain);
  const textAuthored = authored.join('\n\n');
  const text = quote ? textAuthored + quote.text : textAuthored;
  const innerHtml = paragraphsHtml(from.client, authored) + (quote ? quote.html : '');
  const charset = canEncode(text, thread.charset) ? thread.charset : 'utf-8';
  const htmlOnly = from.client === 'outlook' && r.chance(0.05);
  const textOnly = !htmlOnly && (from.client === 'thunderbird' ? r.chance(0.5) : r.chance(0.05));
  const extra: string[] = [];
  if (from.client === 'outlook')
    extra.push(
      threadIndexHeader(thread.threadIndex, thread.depth),
      'X-MS-Has-Attach: ',
      'Content-Language: en-US',
    );
  else if (from.client === 'apple') extra.push('X-Mailer: iPhone Mail (21F90)');
  else if (from.client === 'thunderbird') extra.push('User-Agent: Mozilla Thunderbird');
  if (thread.gmThrid) extra.push(`X-GM-THRID: ${thread.gmThrid}`);
  const isReply = thread.depth > 0;
  const parentId = isReply ? (thread.last?.messageId ?? null) : null;
  const draft: Draft = {
    kind,
    threadKey: thread.key,
    lang: thread.lang,
    fromOwner,
    spec: {
      from,
      to,
      cc,
      subject,
      date,
      tzOffset: from.tz,
      messageId,
      inReplyTo: parentId,
      references: parentId ? thread.references : [],
      charset,
      transferEncoding: pickTransferEncoding(ctx, charset),
      subjectEncoding: r.chance(0.7) ? 'B' : 'Q',
      text: htmlOnly ? null : text,
      html: textOnly ? null : htmlDocument(from.client, innerHtml, charset),
      attachments: maybeAttachments(ctx),
      boundary: `0000000000${r.hex(16)}`,
      trace: fromOwner ? [] : traceHeaders(ctx, from.address, date, 'pass'),
      extra,
    },
  };
  const quoted: QuotedMessage = { from, to, subject, date, tz: from.tz, messageId, text, html: innerHtml };
  return { draft, quoted, terminal: messageId === null };
}

function body(
  ctx: Context,
  lang: LanguageCode,
  from: Person,
  to: Person,
  date: Date,
  maxParas: number,
  withGreeting: boolean,
): string[] {
  const c = PACKS[lang];
  const slots = makeSlots(ctx.rng, c, to, date);
  const paras = paragraphs(ctx.rng, c, slots, maxParas);
  if (withGreeting) paras.unshift(greeting(ctx.rng, c, slots));
  paras.push(signOff(ctx.rng, c, from, from.mobile && ctx.rng.chance(0.4)));
  return paras;
}

function lastOf(thread: ThreadState): QuotedMessage {
  if (!thread.last)
    throw new MailsiftError('internal', `thread ${thread.key} has no message yet`, { param: 'thread' });
  return thread.last;
}

/** Opens a conversation between the owner and a correspondent; returns its first message. */
export function startThread(
  ctx: Context,
  key: string,
  date: Date,
): { thread: ThreadState; draft: Draft; open: boolean } {
  const r = ctx.rng;
  const { owner, colleagues } = ctx.pop;
  const other = pickPerson(ctx);
  const ownerStarts = r.chance(0.35);
  const from = ownerStarts ? owner : other;
  const to = ownerStarts ? other : owner;
  const cc: Person[] = [];
  if (r.chance(0.3)) cc.push(r.pick(colleagues));
  if (r.chance(0.15)) cc.push(pickPerson(ctx));
  const lang = other.lang;
  const c = PACKS[lang];
  const slots = makeSlots(r, c, to, date);
  const thread: ThreadState = {
    key,
    lang,
    baseSubject: subjectLine(r, c, slots),
    participants: [from, to, ...cc],
    charset: pickCharset(ctx, lang),
    maxDepth: Math.min(30, 1 + Math.floor(-Math.log(1 - r.next()) * 4)),
    gmThrid: r.chance(0.3)
      ? String(1_700_000_000_000_000_000n + BigInt(r.int(0, 2 ** 30)) * 1_000_003n)
      : null,
    threadIndex: Buffer.from(r.hex(44), 'hex'),
    depth: 0,
    last: null,
    lastSender: from,
    references: [],
  };
  const paras = body(ctx, lang, from, to, date, 5, true);
  const out = composeDraft(
    ctx,
    thread,
    from,
    [to],
    cc,
    thread.baseSubject,
    date,
    paras,
    null,
    'conversation',
  );
  thread.last = out.quoted;
  if (out.draft.spec.messageId) thread.references = [out.draft.spec.messageId];
  return { thread, draft: out.draft, open: !out.terminal };
}

/** The next reply in `thread`; the state moves on to it. Returns whether the thread continues. */
export function replyInThread(
  ctx: Context,
  thread: ThreadState,
  date: Date,
): { draft: Draft; open: boolean } {
  const r = ctx.rng;
  const owner = ctx.pop.owner;
  const prevSender = thread.lastSender;
  const others = thread.participants.filter((p) => p !== prevSender);
  const from = prevSender !== owner && r.chance(0.5) ? owner : (r.pick(others) as Person);
  const to = [prevSender];
  const cc = thread.participants.filter((p) => p !== from && p !== prevSender);
  const pack = PACKS[thread.lang].pack;
  const prefix = from.client === 'outlook' && pack.code === 'en' ? 'RE: ' : pack.replyPrefix;
  const subject = prefix + thread.baseSubject;
  thread.depth++;
  const paras = body(ctx, thread.lang, from, prevSender, date, 3, r.chance(0.5));
  const prev = lastOf(thread);
  const quote = r.chance(0.9) ? quoteFor(from.client, pack, prev, r.chance(0.4)) : null;
  const out = composeDraft(ctx, thread, from, to, cc, subject, date, paras, quote, 'reply');
  thread.last = out.quoted;
  thread.lastSender = from;
  if (out.draft.spec.messageId) {
    const refs = [...thread.references, out.draft.spec.messageId];
    thread.references = refs.length > MAX_REFS ? [refs[0] as string, ...refs.slice(-(MAX_REFS - 1))] : refs;
  }
  return { draft: out.draft, open: !out.terminal && thread.depth < thread.maxDepth };
}

/** The owner forwards the latest message of `thread` to a colleague: a new one-message thread. */
export function forwardFromThread(ctx: Context, thread: ThreadState, key: string, date: Date): Draft {
  const r = ctx.rng;
  const owner = ctx.pop.owner;
  const to = r.pick(ctx.pop.colleagues);
  const pack = PACKS[thread.lang].pack;
  const fwdThread: ThreadState = { ...thread, key, depth: 0, gmThrid: null, charset: 'utf-8' };
  const paras = body(ctx, 'en', owner, to, date, 1, true);
  const prev = lastOf(thread);
  const block = forwardBlock(pack, prev);
  return composeDraft(
    ctx,
    fwdThread,
    owner,
    [to],
    [],
    `${pack.forwardPrefix}${prev.subject}`,
    date,
    paras,
    block,
    'forward',
  ).draft;
}

// The toolkit the hand-written sample mailbox is written with: a cast member type, dates with
// their zone, and a Thread that turns authored text into replies quoted the way each client does.

import type { AttachmentSpec, MessageSpec } from '../compose.js';
import { composeMessage } from '../compose.js';
import { type Context, createContext, traceHeaders } from '../context.js';
import { type Charset, canEncode, type Mailbox, type TransferEncoding } from '../encode.js';
import type { LanguageCode, LanguagePack } from '../language.js';
import { PACKS } from '../phrases.js';
import type { Client } from '../population.js';
import { forwardBlock, htmlDocument, paragraphsHtml, type QuotedMessage, quoteFor } from '../quote.js';

export type { QuotedMessage };

import type { MailboxEntry } from '../writers.js';

/** Where a sample message is stored: the Maildir++ tree, the Takeout mbox, or both. */
export type Where = 'maildir' | 'mbox' | 'both';

export interface SampleMessage extends MailboxEntry {
  readonly messageId: string | null;
  readonly threadKey: string;
  readonly kind: string;
  readonly language: string;
  readonly subject: string;
  readonly where: Where;
  /** 'story' for the hand-written threads, 'background' for generated filler. */
  readonly origin: 'story' | 'background';
}

export interface Who extends Mailbox {
  readonly client: Client;
  /** Minutes east of UTC. */
  readonly tz: number;
}

export const OWNER: Who = {
  name: 'Laura Bianchi',
  address: 'laura.bianchi@acme-corp.com',
  client: 'gmail',
  tz: 60,
};

/**
 * RNG for the few random parts (trace headers) and a boundary counter, reset by beginSample
 * so every build of the sample, in any process, writes the same bytes.
 */
let sampleContext: Context | null = null;
let boundarySerial = 0;

export function beginSample(): void {
  sampleContext = createContext(20240101, 'acme-corp.com', OWNER);
  boundarySerial = 0;
}

/** Built on first use, so importing the corpus module costs nothing until a sample is built. */
function context(): Context {
  if (!sampleContext) beginSample();
  return sampleContext as Context;
}

/** '2024-03-04 09:12 +0100' → the instant and its zone offset. */
export function at(stamp: string): { date: Date; tz: number } {
  const m = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d)(?::(\d\d))? ([+-])(\d\d)(\d\d)$/.exec(stamp);
  if (!m) throw new Error(`bad sample date ${stamp}`);
  const [, day, hm, sec = '00', sign, hh, mm] = m as unknown as string[];
  const tz = (sign === '-' ? -1 : 1) * (Number(hh) * 60 + Number(mm));
  return { date: new Date(`${day}T${hm}:${sec}${sign}${hh}:${mm}`), tz };
}

export interface Post {
  readonly id: string | null;
  readonly from: Who;
  readonly to: readonly Who[];
  readonly cc?: readonly Who[];
  readonly at: string;
  /** Authored text; paragraphs separated by blank lines. */
  readonly body: string;
  /** Overrides the reply-prefixed thread subject. */
  readonly subject?: string;
  /** Quote the previous message (default: yes for replies). */
  readonly quote?: boolean;
  readonly charset?: Charset;
  readonly cte?: TransferEncoding;
  readonly attachments?: readonly AttachmentSpec[];
  readonly folder?: string;
  readonly flags?: string;
  readonly where?: Where;
  readonly parts?: 'text' | 'html' | 'both';
  readonly extra?: readonly string[];
  /** Forward the previous message instead of replying: a new conversation, Fwd: subject. */
  readonly forward?: boolean;
  /** Failing SPF/DKIM/DMARC verdicts (spoofed sender). */
  readonly spoofed?: boolean;
}

/** English Outlook writes "RE:"; other clients and languages use their pack's prefix. */
function replyPrefix(from: Who, pack: LanguagePack): string {
  return from.client === 'outlook' && pack.code === 'en' ? 'RE: ' : pack.replyPrefix;
}

/** Builds one sample message from a complete spec, with trace headers for incoming mail. */
export function single(
  spec: Omit<MessageSpec, 'boundary' | 'trace' | 'tzOffset' | 'date'> & { at: string },
  meta: {
    threadKey: string;
    kind: string;
    language: LanguageCode;
    folder?: string;
    flags?: string;
    where?: Where;
    spoofed?: boolean;
  },
): SampleMessage {
  const { date, tz } = at(spec.at);
  const incoming = spec.from.address !== OWNER.address;
  const full: MessageSpec = {
    ...spec,
    date,
    tzOffset: tz,
    boundary: `----=_Part_${String(++boundarySerial).padStart(4, '0')}_mailsift`,
    trace: incoming ? traceHeaders(context(), spec.from.address, date, meta.spoofed ? 'fail' : 'pass') : [],
  };
  return {
    bytes: composeMessage(full),
    messageId: spec.messageId,
    threadKey: meta.threadKey,
    kind: meta.kind,
    language: meta.language,
    subject: spec.subject,
    date,
    folder: meta.folder ?? (incoming ? 'INBOX' : 'Sent'),
    flags: meta.flags ?? 'S',
    where: meta.where ?? 'maildir',
    origin: 'story',
  };
}

/** A conversation: each post replies to the one before it unless it forwards it. */
export class Thread {
  private last: QuotedMessage | null = null;
  private refs: string[] = [];
  readonly messages: SampleMessage[] = [];

  constructor(
    readonly key: string,
    readonly subject: string,
    readonly lang: LanguageCode,
    readonly charset: Charset = 'utf-8',
  ) {}

  /** Makes `message` the latest one, for threads that start by forwarding or answering it. */
  startFrom(message: QuotedMessage): this {
    this.last = message;
    return this;
  }

  /** A new conversation that starts from this one's latest message (to forward it elsewhere). */
  branch(key: string, subject: string): Thread {
    const t = new Thread(key, subject, this.lang, this.charset);
    t.last = this.last;
    return t;
  }

  post(p: Post): SampleMessage {
    const pack = PACKS[this.lang].pack;
    const prev = this.last;
    const reply = prev !== null && !p.forward;
    const subject =
      p.subject ??
      (p.forward
        ? `${pack.forwardPrefix}${prev?.subject}`
        : reply
          ? `${replyPrefix(p.from, pack)}${this.subject}`
          : this.subject);
    const paras = p.body.trim().split(/\n{2,}/);
    const q =
      prev && p.forward
        ? forwardBlock(pack, prev)
        : prev && reply && p.quote !== false
          ? quoteFor(p.from.client, pack, prev)
          : null;
    const text = p.body.trim() + (q ? q.text : '');
    const inner = paragraphsHtml(p.from.client, paras) + (q ? q.html : '');
    const wanted = p.charset ?? this.charset;
    const charset = canEncode(text, wanted) ? wanted : 'utf-8';
    const parts = p.parts ?? (p.from.client === 'thunderbird' ? 'text' : 'both');
    const inReplyTo = reply ? prev.messageId : null;
    const msg = single(
      {
        from: p.from,
        to: p.to,
        cc: p.cc,
        subject,
        at: p.at,
        messageId: p.id,
        inReplyTo,
        references: inReplyTo ? this.refs : [],
        charset,
        transferEncoding: p.cte ?? (charset === 'iso-2022-jp' ? '7bit' : 'quoted-printable'),
        text: parts === 'html' ? null : text,
        html: parts === 'text' ? null : htmlDocument(p.from.client, inner, charset),
        attachments: p.attachments,
        extra: p.extra,
      },
      {
        threadKey: this.key,
        kind: p.forward ? 'forward' : reply ? 'reply' : 'conversation',
        language: this.lang,
        ...p,
      },
    );
    const { date, tz } = at(p.at);
    this.last = { from: p.from, to: p.to, subject, date, tz, messageId: p.id, text, html: inner };
    if (p.id) this.refs = [...this.refs, p.id];
    this.messages.push(msg);
    return msg;
  }
}

/** An attachment from text content. */
export function textFile(filename: string, contentType: string, content: string): AttachmentSpec {
  return { filename, contentType, content: Buffer.from(content, 'utf8') };
}

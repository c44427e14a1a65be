// The bulk corpus generator: a deterministic stream of realistic messages in arrival order.
// Conversations stay open in a pool and receive replies over time; a few messages are held
// back so their replies arrive first, and ~1% are delivered to a second folder byte for byte.

import { MailsiftError } from '../core/errors.js';
import { composeMessage } from './compose.js';
import { type Context, createContext, type Draft } from './context.js';
import { forwardFromThread, replyInThread, startThread, type ThreadState } from './conversation.js';
import type { Mailbox } from './encode.js';
import { weightedPicker } from './prng.js';
import { github, newsletter, shippingNotice, spam, stripeReceipt } from './services.js';

export interface CorpusOptions {
  readonly seed: number;
  readonly messages: number;
  readonly startDate?: Date;
  readonly endDate?: Date;
  /** Domain of the mailbox owner; default 'acme-corp.com'. */
  readonly inboxDomain?: string;
  /** The mailbox owner; default a generated person at inboxDomain. */
  readonly owner?: Mailbox;
}

export interface GeneratedMessage {
  readonly bytes: Buffer;
  readonly messageId: string | null;
  /** Decoded subject, as written before RFC 2047 encoding. */
  readonly subject: string;
  readonly threadKey: string;
  /** 'INBOX', 'Sent', 'Archive' or 'Spam'. */
  readonly folder: string;
  /** Maildir info flags in ASCII order, e.g. 'S', 'RS', 'FS', ''. */
  readonly flags: string;
  readonly date: Date;
  readonly language: string;
  /** 'conversation', 'reply', 'forward', 'newsletter', 'notification', 'receipt' or 'spam'. */
  readonly kind: string;
}

const DEFAULT_START = new Date('2023-01-01T00:00:00Z');
const DEFAULT_END = new Date('2025-06-30T00:00:00Z');
/** Open conversations at once; recent ones are likelier to get the next reply. */
const MAX_OPEN_THREADS = 400;

const pickAction = weightedPicker({
  reply: 40,
  start: 22,
  forward: 2,
  newsletter: 14,
  github: 10,
  receipt: 5,
  shipping: 4,
  spam: 1,
});

function validate(o: CorpusOptions): { start: number; span: number; domain: string } {
  if (!Number.isInteger(o.messages) || o.messages < 0)
    throw new MailsiftError(
      'invalid_argument',
      `messages must be a non-negative integer, got ${o.messages}`,
      { param: 'messages' },
    );
  if (!Number.isFinite(o.seed))
    throw new MailsiftError('invalid_argument', 'seed must be a finite number', { param: 'seed' });
  const start = (o.startDate ?? DEFAULT_START).getTime();
  const end = (o.endDate ?? DEFAULT_END).getTime();
  if (Number.isNaN(start))
    throw new MailsiftError('invalid_argument', 'startDate is not a valid date', { param: 'startDate' });
  if (Number.isNaN(end) || end <= start)
    throw new MailsiftError('invalid_argument', 'endDate must be a valid date after startDate', {
      param: 'endDate',
    });
  const domain = o.inboxDomain ?? 'acme-corp.com';
  if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(domain))
    throw new MailsiftError('invalid_argument', `inboxDomain is not a domain name: ${domain}`, {
      param: 'inboxDomain',
    });
  return { start, span: end - start, domain: domain.toLowerCase() };
}

function placement(ctx: Context, d: Draft): { folder: string; flags: string } {
  const r = ctx.rng;
  if (d.fromOwner) return { folder: 'Sent', flags: 'S' };
  if (d.kind === 'spam') return { folder: r.chance(0.7) ? 'Spam' : 'INBOX', flags: '' };
  const folder = r.chance(d.kind === 'newsletter' ? 0.5 : 0.25) ? 'Archive' : 'INBOX';
  const u = r.next();
  const replied = d.kind === 'conversation' || d.kind === 'reply' ? 0.25 : 0;
  const flags = u < replied ? 'RS' : u < replied + 0.04 ? 'FS' : u < replied + 0.16 ? '' : 'S';
  return { folder, flags };
}

/** Yields exactly `options.messages` messages; the same options always yield the same bytes. */
export function* generateCorpus(options: CorpusOptions): Generator<GeneratedMessage> {
  const { start, span, domain } = validate(options);
  const total = options.messages;
  const ctx = createContext(options.seed, domain, options.owner);
  const r = ctx.rng;
  const open: ThreadState[] = [];
  /** Messages held back until `release` (a count of produced messages). */
  const held: { release: number; msg: GeneratedMessage }[] = [];
  let urgent: ThreadState | null = null;
  let produced = 0;
  let yielded = 0;
  let threads = 0;
  const slot = span / Math.max(total, 1);

  while (yielded < total) {
    if (produced < total) {
      const date = new Date(Math.floor(start + slot * (produced + 0.2 + r.next() * 0.6)));
      let draft: Draft;
      let hold = false;
      let action = pickAction(r);
      if (urgent) action = 'reply';
      if (action === 'reply' && open.length === 0) action = 'start';
      if (action === 'forward' && open.length === 0) action = 'start';
      if (action === 'reply') {
        const u = urgent ? open.indexOf(urgent) : -1;
        const idx = u >= 0 ? u : open.length - 1 - Math.floor(open.length * r.next() ** 3);
        const thread = open[idx] as ThreadState;
        urgent = null;
        const out = replyInThread(ctx, thread, date);
        draft = out.draft;
        if (!out.open) open.splice(idx, 1);
      } else if (action === 'start') {
        const t = startThread(ctx, `t${++threads}`, date);
        draft = t.draft;
        if (t.open) {
          open.push(t.thread);
          if (open.length > MAX_OPEN_THREADS) open.shift();
          // Hold a few openers back so their first reply is delivered before them.
          if (draft.spec.messageId && r.chance(0.015)) {
            hold = true;
            urgent = t.thread;
          }
        }
      } else if (action === 'forward') draft = forwardFromThread(ctx, r.pick(open), `t${++threads}`, date);
      else if (action === 'newsletter') draft = newsletter(ctx, date);
      else if (action === 'github') draft = github(ctx, date);
      else if (action === 'receipt') draft = stripeReceipt(ctx, date);
      else if (action === 'shipping') draft = shippingNotice(ctx, date);
      else draft = spam(ctx, date);

      const { folder, flags } = placement(ctx, draft);
      const msg: GeneratedMessage = {
        bytes: composeMessage(draft.spec),
        messageId: draft.spec.messageId,
        subject: draft.spec.subject,
        threadKey: draft.threadKey,
        folder,
        flags,
        date: draft.spec.date,
        language: draft.lang,
        kind: draft.kind,
      };
      produced++;
      if (hold) held.push({ release: produced + r.int(1, 4), msg });
      else {
        yield msg;
        yielded++;
        // The same bytes delivered again to another folder (a Gmail label, a copied message).
        if (!draft.fromOwner && draft.kind !== 'spam' && produced < total && r.chance(0.015)) {
          yield { ...msg, folder: folder === 'INBOX' ? 'Archive' : 'INBOX' };
          yielded++;
          produced++;
        }
      }
    }
    for (let i = 0; i < held.length; ) {
      const h = held[i] as { release: number; msg: GeneratedMessage };
      if (h.release <= produced || produced >= total) {
        held.splice(i, 1);
        yield h.msg;
        yielded++;
      } else i++;
    }
  }
}

// Machine-sent mail: newsletters (List-Id, List-Unsubscribe, hidden preheader, tracking
// pixel, unsubscribe footer), GitHub notifications, Stripe receipts with INV- numbers,
// shipping notices, and spoofed spam that fails DMARC.

import { makePdf } from './attachments.js';
import { makeSlots, paragraphs, sentence } from './body.js';
import type { MessageSpec } from './compose.js';
import { type Context, type Draft, messageIdFor, traceHeaders } from './context.js';
import { escapeHtml, type Mailbox } from './encode.js';
import type { LanguageCode } from './language.js';
import { PACKS } from './phrases.js';

const NEWSLETTERS = [
  {
    name: 'The Supply Chain Brief',
    address: 'digest@supplychainbrief.com',
    list: 'weekly.supplychainbrief.com',
    lang: 'en',
  },
  {
    name: 'SaaS Finance Weekly',
    address: 'hello@saasfinanceweekly.com',
    list: 'newsletter.saasfinanceweekly.com',
    lang: 'en',
  },
  {
    name: 'Logistik Aktuell',
    address: 'news@logistik-aktuell.de',
    list: 'newsletter.logistik-aktuell.de',
    lang: 'de',
  },
  { name: 'Stripe', address: 'product-updates@stripe.com', list: 'product-updates.stripe.com', lang: 'en' },
  { name: 'GitHub', address: 'noreply@github.com', list: 'changelog.github.com', lang: 'en' },
  {
    name: 'Il Sole Logistica',
    address: 'newsletter@sole-logistica.it',
    list: 'newsletter.sole-logistica.it',
    lang: 'it',
  },
  {
    name: 'Procurement Today',
    address: 'editors@procurementtoday.com',
    list: 'daily.procurementtoday.com',
    lang: 'en',
  },
] as const;

const base = (
  ctx: Context,
  from: Mailbox,
  subject: string,
  date: Date,
  lang: LanguageCode,
): Omit<MessageSpec, 'text' | 'html'> => ({
  from,
  to: [ctx.pop.owner],
  subject,
  date,
  tzOffset: 0,
  messageId: ctx.rng.chance(0.025)
    ? null
    : messageIdFor(ctx, 'service', from.address.split('@')[1] as string),
  charset: 'utf-8',
  transferEncoding: lang === 'en' ? 'quoted-printable' : ctx.rng.chance(0.5) ? 'quoted-printable' : 'base64',
  boundary: `----=_Part_${ctx.rng.int(100000, 999999)}_${ctx.rng.int(1e8, 9e8)}`,
  trace: traceHeaders(ctx, from.address, date, 'pass'),
});

export function newsletter(ctx: Context, date: Date): Draft {
  const r = ctx.rng;
  const n = r.pick(NEWSLETTERS);
  const lang = n.lang as LanguageCode;
  const c = PACKS[lang];
  const slots = makeSlots(r, c, ctx.pop.owner, date);
  const headline = sentence(r, c, slots).replace(/[.。]$/, '');
  const issue = r.int(100, 400);
  const host = n.list.split('.').slice(1).join('.');
  const track = (i: number): string => `https://click.${host}/ls/click?upn=${r.token(48)}&i=${issue}-${i}`;
  const unsubscribe = `https://${host}/unsubscribe?u=${r.token(24)}&id=${r.token(10)}`;
  let html = `<!DOCTYPE html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(n.name)}</title><style>body{margin:0;padding:0;background:#f4f4f4}table{border-collapse:collapse}td{font-family:Helvetica,Arial,sans-serif}.btn{background:#635bff;color:#ffffff;border-radius:4px;padding:12px 24px;text-decoration:none}</style></head><body>`;
  html += `<div style="display:none;max-height:0;overflow:hidden;opacity:0;font-size:1px;line-height:1px;color:#f4f4f4">${escapeHtml(headline)} &#847; &zwnj; &nbsp; &#847; &zwnj; &nbsp; &#847; &zwnj; &nbsp;</div>`;
  html += `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" bgcolor="#f4f4f4"><tr><td align="center"><table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" bgcolor="#ffffff">`;
  html += `<tr><td style="padding:24px 32px"><a href="${track(0)}"><img src="https://cdn.${host}/logo.png" width="180" height="40" alt="${escapeHtml(n.name)}" style="display:block;border:0"></a></td></tr>`;
  let text = `${n.name} - #${issue}\n\n${headline}\n\n`;
  const sections = r.int(3, 7);
  for (let i = 1; i <= sections; i++) {
    const title = sentence(r, c, slots).replace(/[.。]$/, '');
    const paras = paragraphs(r, c, slots, 3);
    const link = track(i);
    html += `<tr><td style="padding:16px 32px;font-size:15px;line-height:24px;color:#333333"><h2 style="font-size:20px;line-height:28px;margin:0 0 8px 0;color:#111111">${escapeHtml(title)}</h2>`;
    for (const p of paras) html += `<p style="margin:0 0 12px 0">${escapeHtml(p)}</p>`;
    html += `<p style="margin:0"><a class="btn" href="${link}" style="color:#635bff;font-weight:bold">Read more &rarr;</a></p></td></tr>`;
    text += `${title}\n\n${paras.join('\n\n')}\n\nRead more: ${link}\n\n`;
  }
  html += `<tr><td style="padding:24px 32px;font-size:12px;line-height:18px;color:#888888;border-top:1px solid #eeeeee">You are receiving this email because you subscribed to ${escapeHtml(n.name)}.<br><a href="${unsubscribe}" style="color:#888888">Unsubscribe</a> &middot; <a href="${track(99)}" style="color:#888888">Manage preferences</a><br>${escapeHtml(n.name)}, 548 Market St, San Francisco, CA 94104</td></tr>`;
  html += `</table></td></tr></table><img src="https://click.${host}/open/${r.token(32)}.gif" width="1" height="1" alt="" style="display:none;width:1px;height:1px;border:0"></body></html>\n`;
  text += `--\nYou are receiving this email because you subscribed to ${n.name}.\nUnsubscribe: ${unsubscribe}\n${n.name}, 548 Market St, San Francisco, CA 94104\n`;
  const spec: MessageSpec = {
    ...base(ctx, { name: n.name, address: n.address }, `${headline} | ${n.name} #${issue}`, date, lang),
    text,
    html,
    extra: [
      `List-Id: ${n.name} <${n.list}>`,
      `List-Unsubscribe: <${unsubscribe}>, <mailto:unsubscribe@${host}?subject=unsubscribe>`,
      'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
      'Precedence: bulk',
      `X-Campaign-Id: ${r.token(12)}`,
    ],
  };
  return {
    spec,
    kind: 'newsletter',
    threadKey: `nl-${n.list}-${issue}-${ctx.serial}`,
    lang,
    fromOwner: false,
  };
}

const REPOS = ['billing-service', 'warehouse-api', 'web', 'mobile-app', 'infra'];
const ISSUE_TITLES = [
  'Delivery schedule export fails for orders over 500 lines',
  'Invoice PDF is missing the VAT number',
  'Flaky test in shipment tracker',
  'Upgrade Node to 20 LTS',
  'Budget dashboard shows Q2 numbers in Q3 view',
  'Add retry to the Stripe webhook handler',
  'Customs form generator crashes on empty address',
  'Pagination skips rows when new orders arrive',
  'Translate the supplier portal to Italian',
  'Rate limit the public API',
];
const COMMENTS = [
  'I can reproduce this on main.',
  'The stack trace points to the invoice renderer.',
  'LGTM, merging once CI passes.',
  'Could you add a test for the empty case?',
  'This was fixed in the last release, closing.',
  'I pushed a fix to the branch, please take another look.',
  'We hit the same problem in production yesterday.',
  'The root cause is a timezone conversion in the scheduler.',
  'Can we ship this before the Q3 freeze?',
  'Approved, thanks for the quick turnaround.',
];

/** GitHub issue/PR notification; comments on the same issue share its root Message-ID. */
export function github(ctx: Context, date: Date): Draft {
  const r = ctx.rng;
  const org = ctx.inboxDomain.split('.')[0] as string;
  const repo = r.pick(REPOS);
  const num = r.int(1, 400);
  const isPr = num % 3 === 0;
  const title = ISSUE_TITLES[num % ISSUE_TITLES.length] as string;
  const actor = ctx.pop.colleagues[num % ctx.pop.colleagues.length] ?? ctx.pop.owner;
  const login = actor.address.split('@')[0]?.replace(/\./g, '-') ?? 'dev';
  const root = `${org}/${repo}/${isPr ? 'pull' : 'issues'}/${num}@github.com`;
  const commentId = r.int(1_000_000_000, 2_000_000_000);
  const url = `https://github.com/${org}/${repo}/${isPr ? 'pull' : 'issues'}/${num}#issuecomment-${commentId}`;
  const comment = `${r.pick(COMMENTS)} ${r.pick(COMMENTS)}`;
  const text = `${comment}\n\n—\nReply to this email directly, view it on GitHub:\n${url}\nYou are receiving this because you ${r.pick(['were mentioned', 'are subscribed to this thread', 'authored the thread', 'were assigned'])}.\n\nMessage ID: <${org}/${repo}/${isPr ? 'pull' : 'issues'}/${num}/c${commentId}@github.com>\n`;
  const html = `<p></p><p dir="auto">${escapeHtml(comment)}</p>\n<p style="font-size:small;-webkit-text-size-adjust:none;color:#666;">&mdash;<br />Reply to this email directly, <a href="${url}">view it on GitHub</a>, or <a href="https://github.com/notifications/unsubscribe-auth/${r.token(26)}">unsubscribe</a>.<br />You are receiving this because you are subscribed to this thread.<img src="https://github.com/notifications/beacon/${r.token(40)}.gif" height="1" width="1" alt="" /></p>\n`;
  const spec: MessageSpec = {
    ...base(
      ctx,
      { name: login, address: 'notifications@github.com' },
      `Re: [${org}/${repo}] ${title} (${isPr ? 'PR' : 'Issue'} #${num})`,
      date,
      'en',
    ),
    messageId: `${org}/${repo}/${isPr ? 'pull' : 'issues'}/${num}/c${commentId}@github.com`,
    inReplyTo: root,
    references: [root],
    replyTo: { name: `${org}/${repo}`, address: `reply+${r.token(40)}@reply.github.com` },
    to: [{ name: `${org}/${repo}`, address: `${repo}@noreply.github.com` }],
    cc: [{ name: '', address: ctx.pop.owner.address }],
    text,
    html,
    extra: [
      `List-ID: ${org}/${repo} <${repo}.${org}.github.com>`,
      `List-Unsubscribe: <https://github.com/notifications/unsubscribe/${r.token(20)}>`,
      `X-GitHub-Reason: ${r.pick(['subscribed', 'mention', 'author'])}`,
      `X-GitHub-Sender: ${login}`,
      'Precedence: list',
    ],
  };
  return { spec, kind: 'notification', threadKey: `gh-${repo}-${num}`, lang: 'en', fromOwner: false };
}

const VENDORS = [
  'Acme Cloud Hosting',
  'Linear',
  'Notion Labs',
  'Figma',
  'Vercel',
  'Northwind SaaS',
  'DataDog Europe',
];

/** Stripe receipt or invoice e-mail; some carry the invoice as a small real PDF. */
export function stripeReceipt(ctx: Context, date: Date): Draft {
  const r = ctx.rng;
  const vendor = r.pick(VENDORS);
  const invoice = `INV-${r.int(10000, 99999)}`;
  const receipt = `${r.int(1000, 9999)}-${r.int(1000, 9999)}`;
  const amount = `€${r.int(19, 4999)}.${String(r.int(0, 99)).padStart(2, '0')}`;
  const failed = r.chance(0.08);
  const subject = failed
    ? `Payment failed for invoice ${invoice}`
    : r.chance(0.5)
      ? `Your receipt from ${vendor} #${receipt}`
      : `Invoice ${invoice} from ${vendor}`;
  const rows = [
    `Invoice number: ${invoice}`,
    `Receipt number: ${receipt}`,
    `Amount ${failed ? 'due' : 'paid'}: ${amount}`,
    `Date: ${date.toISOString().slice(0, 10)}`,
    `Payment method: ${r.pick(['Visa', 'Mastercard', 'Amex'])} - ${r.int(1000, 9999)}`,
  ];
  const intro = failed
    ? `We were unable to charge your card for ${vendor}. Please update your payment method.`
    : `Thank you for your payment to ${vendor}.`;
  const text = `${intro}\n\n${rows.join('\n')}\n\nQuestions? Contact ${vendor} at billing@${vendor.toLowerCase().replace(/[^a-z]+/g, '')}.com.\n\nStripe, 510 Townsend Street, San Francisco, CA 94103\n`;
  const html = `<html><body style="background:#f6f9fc"><table width="100%"><tr><td align="center"><table width="480" style="background:#ffffff;font-family:-apple-system,Helvetica,Arial,sans-serif"><tr><td style="padding:24px;font-size:16px">${escapeHtml(intro)}</td></tr>${rows.map((x) => `<tr><td style="padding:4px 24px;font-size:14px;color:#525f7f">${escapeHtml(x)}</td></tr>`).join('')}<tr><td style="padding:24px;font-size:12px;color:#8898aa">Stripe, 510 Townsend Street, San Francisco, CA 94103</td></tr></table></td></tr></table></body></html>\n`;
  const withPdf = !failed && r.chance(0.4);
  const pdf = withPdf
    ? makePdf(`Invoice ${invoice}`, [`${vendor}`, ...rows, 'Thank you for your business.'])
    : null;
  const spec: MessageSpec = {
    ...base(ctx, { name: vendor, address: 'billing@stripe.com' }, subject, date, 'en'),
    text,
    html,
    attachments: pdf
      ? [{ filename: `Invoice-${invoice}.pdf`, contentType: 'application/pdf', content: pdf }]
      : undefined,
    extra: ['X-Stripe-Template: receipt'],
  };
  return { spec, kind: 'receipt', threadKey: `stripe-${invoice}`, lang: 'en', fromOwner: false };
}

/** Carrier or shop shipping notice with an order and a tracking number. */
export function shippingNotice(ctx: Context, date: Date): Draft {
  const r = ctx.rng;
  const order = `${r.int(100, 999)}-${r.int(1000000, 9999999)}-${r.int(1000000, 9999999)}`;
  const tracking = `${r.int(1000000000, 9999999999)}`;
  const carrier = r.pick([
    { name: 'DHL Express', address: 'noreply@dhl.com' },
    { name: 'Amazon.com', address: 'shipment-tracking@amazon.com' },
    { name: 'FedEx', address: 'trackingupdates@fedex.com' },
  ]);
  const subject =
    carrier.name === 'Amazon.com'
      ? `Your order #${order} has shipped`
      : `${carrier.name} shipment ${tracking}: ${r.pick(['out for delivery', 'delayed', 'delivered', 'in transit'])}`;
  const text = `Order #${order}\nTracking number: ${tracking}\nEstimated delivery: ${new Date(date.getTime() + r.int(1, 6) * 86_400_000).toISOString().slice(0, 10)}\n\nTrack your package: https://track.example-carrier.com/${tracking}\n`;
  const spec: MessageSpec = {
    ...base(ctx, carrier, subject, date, 'en'),
    text,
    html: `<html><body><pre>${escapeHtml(text)}</pre></body></html>\n`,
  };
  return { spec, kind: 'notification', threadKey: `ship-${order}`, lang: 'en', fromOwner: false };
}

const SPOOFS = [
  { name: 'PayPal', address: 'service@paypal.com', subject: 'Your account has been limited' },
  {
    name: 'Stripe Billing',
    address: 'billing@stripe.com',
    subject: 'Invoice INV-{n} overdue - immediate action required',
  },
  { name: 'Microsoft 365', address: 'no-reply@microsoft.com', subject: 'Password expires today' },
  { name: 'DHL Express', address: 'noreply@dhl.com', subject: 'You have (3) pending deliveries' },
];

/** Phishing that claims a real sender's domain and fails SPF, DKIM and DMARC. */
export function spam(ctx: Context, date: Date): Draft {
  const r = ctx.rng;
  const s = r.pick(SPOOFS);
  const subject = s.subject.replace('{n}', String(r.int(10000, 99999)));
  const link = `http://${r.token(8).toLowerCase()}.secure-verify-${r.token(4).toLowerCase()}.top/login`;
  const text = `Dear customer,\n\n${subject}. To avoid suspension, verify your details within 24 hours:\n${link}\n\nThank you,\n${s.name} Security Team\n`;
  const spec: MessageSpec = {
    ...base(ctx, s, subject, date, 'en'),
    trace: traceHeaders(ctx, s.address, date, 'fail'),
    text,
    html: `<html><body><p>Dear customer,</p><p>${escapeHtml(subject)}. To avoid suspension, <a href="${link}">verify your details</a> within 24 hours.</p><p>${escapeHtml(s.name)} Security Team</p></body></html>\n`,
  };
  return { spec, kind: 'spam', threadKey: `spam-${ctx.serial}`, lang: 'en', fromOwner: false };
}

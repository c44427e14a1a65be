// Machine mail and odd cases in the sample: Stripe invoices INV-4471..4474, forwarded invoices
// (inline and as message/rfc822), an HTML-only Outlook memo, a scanner mail without a
// Message-ID, and spoofed DMARC-fail spam. GitHub and newsletters come from story-feeds.ts.

import { makePdf } from '../attachments.js';
import { escapeHtml } from '../encode.js';
import { at, type SampleMessage, single, Thread } from './kit.js';
import { laura, priya, sarah } from './people.js';
import { githubStream, newsletter } from './story-feeds.js';

const STRIPE = { name: 'CloudNorth Hosting', address: 'billing@stripe.com' };

interface Invoice {
  readonly number: string;
  readonly receipt: string;
  readonly amount: string;
  readonly at: string;
  readonly failed?: boolean;
}

export const INVOICES: readonly Invoice[] = [
  { number: 'INV-4471', receipt: '2817-4471', amount: '€1,250.00', at: '2024-03-01 06:02 +0000' },
  { number: 'INV-4472', receipt: '2817-4472', amount: '€1,250.00', at: '2024-04-01 06:01 +0000' },
  {
    number: 'INV-4473',
    receipt: '2817-4473',
    amount: '€1,480.00',
    at: '2024-05-01 06:03 +0000',
    failed: true,
  },
  { number: 'INV-4473', receipt: '2817-4473', amount: '€1,480.00', at: '2024-05-03 09:15 +0000' },
  { number: 'INV-4474', receipt: '2817-4474', amount: '€1,480.00', at: '2024-06-01 06:02 +0000' },
];

function stripeMail(inv: Invoice): SampleMessage {
  const subject = inv.failed
    ? `Payment failed for invoice ${inv.number}`
    : `Your receipt from CloudNorth Hosting #${inv.receipt}`;
  const rows = [
    `Invoice number: ${inv.number}`,
    `Receipt number: ${inv.receipt}`,
    `Amount ${inv.failed ? 'due' : 'paid'}: ${inv.amount}`,
    `Date: ${inv.at.slice(0, 10)}`,
    'Payment method: Visa - 4242',
    'Item: CloudNorth Business plan (monthly), 5 servers',
  ];
  const intro = inv.failed
    ? 'We were unable to charge your Visa ending in 4242 for CloudNorth Hosting. We will retry in 2 days; please update your card to avoid an interruption.'
    : 'Thank you for your payment to CloudNorth Hosting.';
  const text = `${intro}\n\n${rows.join('\n')}\n\nQuestions? Contact CloudNorth Hosting at billing@cloudnorth.io.\n\nStripe, 510 Townsend Street, San Francisco, CA 94103\n`;
  const html = `<html><body style="background:#f6f9fc"><table width="100%"><tr><td align="center"><table width="480" style="background:#ffffff;font-family:-apple-system,Helvetica,Arial,sans-serif"><tr><td style="padding:24px;font-size:16px">${escapeHtml(intro)}</td></tr>${rows.map((r) => `<tr><td style="padding:4px 24px;font-size:14px;color:#525f7f">${escapeHtml(r)}</td></tr>`).join('')}<tr><td style="padding:24px;font-size:12px;color:#8898aa">Stripe, 510 Townsend Street, San Francisco, CA 94103</td></tr></table></td></tr></table></body></html>\n`;
  const pdf = inv.failed
    ? []
    : [
        {
          filename: `Invoice-${inv.number}.pdf`,
          contentType: 'application/pdf',
          content: makePdf(`CloudNorth Hosting - Invoice ${inv.number}`, [
            'Billed to: Acme Corp, Via Tortona 25, 20144 Milano',
            ...rows,
            'Paid with Stripe',
          ]),
        },
      ];
  const id = `0100018e${inv.receipt.replace('-', '')}${inv.failed ? 'f' : 'p'}-stripe@email.stripe.com`;
  return single(
    {
      from: STRIPE,
      to: [laura],
      subject,
      at: inv.at,
      messageId: id,
      charset: 'utf-8',
      transferEncoding: 'quoted-printable',
      text,
      html,
      attachments: pdf,
      extra: ['X-Stripe-Template: receipt'],
    },
    {
      threadKey: `stripe-${inv.number}`,
      kind: 'receipt',
      language: 'en',
      folder: 'INBOX',
      where: inv.number === 'INV-4471' ? 'both' : 'maildir',
    },
  );
}

function forwards(first: SampleMessage): SampleMessage[] {
  const receipt = at('2024-03-01 06:02 +0000');
  const inline = new Thread('fwd-inv-4471', first.subject, 'en').startFrom({
    from: STRIPE,
    to: [laura],
    subject: first.subject,
    date: receipt.date,
    tz: receipt.tz,
    messageId: first.messageId,
    text: 'Thank you for your payment to CloudNorth Hosting.\n\nInvoice number: INV-4471\nReceipt number: 2817-4471\nAmount paid: €1,250.00\nDate: 2024-03-01\nPayment method: Visa - 4242',
    html: '<p>Thank you for your payment to CloudNorth Hosting.</p><p>Invoice number: INV-4471<br>Receipt number: 2817-4471<br>Amount paid: €1,250.00<br>Date: 2024-03-01<br>Payment method: Visa - 4242</p>',
  });
  inline.post({
    id: 'CAH7Lb2q0fwd4471@mail.gmail.com',
    forward: true,
    from: laura,
    to: [priya],
    at: '2024-03-04 09:30 +0100',
    body: 'Priya, CloudNorth receipt for March (INV-4471), please book it on cost centre 4410 (IT hosting).',
  });
  const asAttachment = single(
    {
      from: sarah,
      to: [priya],
      cc: [laura],
      subject: 'FW: Invoice INV-4473 - payment failed',
      at: '2024-05-02 08:20 -0500',
      messageId: 'BN6PR11MB7781FWINV4473@BN6PR11MB7781.namprd11.prod.outlook.com',
      charset: 'utf-8',
      transferEncoding: 'quoted-printable',
      text: 'Priya, the card on the CloudNorth account was declined (see attached mail). Can you update it before the retry tomorrow?\n\nSarah',
      html: null,
      attachments: [
        {
          filename: 'Payment failed for invoice INV-4473.eml',
          contentType: 'message/rfc822',
          content: stripeMail(INVOICES[2] as Invoice).bytes,
        },
      ],
    },
    { threadKey: 'fwd-inv-4473', kind: 'forward', language: 'en' },
  );
  return [...inline.messages, asAttachment];
}

function oddities(): SampleMessage[] {
  const memo = single(
    {
      from: sarah,
      to: [{ name: 'Acme Milan Staff', address: 'milan-staff@acme-corp.com' }],
      cc: [laura],
      subject: 'Warehouse shutdown 23-24 August (inventory count)',
      at: '2024-08-05 10:00 -0500',
      messageId: 'BN6PR11MB7781SHUTDOWN0805@BN6PR11MB7781.namprd11.prod.outlook.com',
      charset: 'windows-1252',
      transferEncoding: 'quoted-printable',
      text: null,
      html: `<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1252"></head><body lang="EN-US"><div class="WordSection1"><p class="MsoNormal">Hi all,</p><p class="MsoNormal">the Milan warehouse will be closed on <b>Friday 23 and Saturday 24 August</b> for the annual inventory count. No inbound or outbound deliveries on those days – please tell your suppliers and carriers.</p><p class="MsoNormal">Deliveries already booked for those dates (Forniture Italia, Transports Durand) must be moved to Monday 26 August.</p><p class="MsoNormal">Thanks,<br>Sarah</p><p class="MsoNormal" style="color:#7f7f7f;font-size:8pt">Sarah Johnson · Operations Director · Acme Corp</p></div></body></html>\n`,
      extra: ['Thread-Index: AdrnF1x2QkV0dGVyU2h1dGRvd24=', 'X-MS-Has-Attach: '],
    },
    { threadKey: 'memo-shutdown', kind: 'conversation', language: 'en' },
  );
  const scanner = single(
    {
      from: { name: 'MFP-3F Milano', address: 'scanner@acme-corp.com' },
      to: [laura],
      subject: 'Scan from MFP-3F',
      at: '2024-04-18 14:32 +0200',
      messageId: null,
      charset: 'utf-8',
      transferEncoding: '7bit',
      text: 'Scanned document attached (1 page).\n',
      html: null,
      attachments: [
        {
          filename: 'scan_20240418_143201.pdf',
          contentType: 'application/pdf',
          content: makePdf('Delivery note LS-2024-0877', [
            'Nordwind Logistik GmbH',
            'Delivery note LS-2024-0877 for PO-7731',
            '324 pallet racks NR-2400 delivered 28.03.2024',
            'Received by: M. Rossi',
          ]),
        },
      ],
    },
    { threadKey: 'scan-0418', kind: 'notification', language: 'en', folder: 'Archive' },
  );
  const spoof = (
    subject: string,
    at: string,
    from: { name: string; address: string },
    body: string,
    folder: string,
  ): SampleMessage =>
    single(
      {
        from,
        to: [laura],
        subject,
        at,
        messageId: `${at.replace(/\D/g, '')}.spoof@${from.address.split('@')[1]}`,
        charset: 'utf-8',
        transferEncoding: '7bit',
        text: body,
        html: null,
      },
      { threadKey: `spam-${at}`, kind: 'spam', language: 'en', folder, flags: '', spoofed: true },
    );
  return [
    memo,
    scanner,
    spoof(
      'Invoice INV-4471 overdue - immediate action required',
      '2024-03-05 03:12 +0000',
      { name: 'Stripe Billing', address: 'billing@stripe.com' },
      'Dear customer,\n\nInvoice INV-4471 is overdue. To avoid suspension of your account, pay now at http://stripe-billing-secure.top/pay/INV-4471\n\nStripe Billing Team\n',
      'Spam',
    ),
    spoof(
      'DHL: your parcel is on hold',
      '2024-06-12 22:40 +0000',
      { name: 'DHL Express', address: 'noreply@dhl.com' },
      'Your parcel could not be delivered. Pay the 2.99 EUR customs fee: http://dhl-parcel-hold.top/track\n',
      'Spam',
    ),
    spoof(
      'Password for laura.bianchi@acme-corp.com expires today',
      '2024-09-02 05:05 +0000',
      { name: 'Microsoft 365', address: 'no-reply@microsoft.com' },
      'Your password expires today. Keep your current password: http://m365-keep-password.top/login\n',
      'INBOX',
    ),
  ];
}

export function servicesStory(): SampleMessage[] {
  const stripe = INVOICES.map(stripeMail);
  const dup = { ...(stripe[0] as SampleMessage), folder: 'Archive', where: 'maildir' as const };
  return [
    ...stripe,
    dup,
    ...forwards(stripe[0] as SampleMessage),
    ...githubStream(),
    newsletter(212, '2024-03-07 13:00 +0000', 'Steel prices climb 6% as mills cut output', [
      [
        'Steel prices climb 6% as mills cut output',
        'European hot-rolled coil rose for the third month in a row. Buyers of racking and shelving should expect surcharges from July.',
      ],
      [
        'Freight: Hamburg congestion eases',
        'Waiting times at the Hamburg terminals fell to two days, but inland trucking capacity remains tight.',
      ],
    ]),
    newsletter(229, '2024-07-04 13:00 +0000', 'Warehouse automation: when to buy a WMS', [
      [
        'Warehouse automation: when to buy a WMS',
        'A warehouse management system pays back fastest in sites with more than 2,000 pallet positions and seasonal peaks.',
      ],
      [
        'Five clauses every delivery contract needs',
        'Binding dates, partial deliveries, precedence of documents, penalties and force majeure: what to put in the purchase order.',
      ],
    ]),
    ...oddities(),
  ];
}

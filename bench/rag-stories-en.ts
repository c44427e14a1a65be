// English story threads of the bench:rag archive: freight and packaging suppliers (invoices,
// customs, delays, prices), plus the office and document threads, 2024-2025.

import type { StoryThread } from './rag-corpus.js';
import { hannah, laura, marco, mike, tom } from './rag-people.js';
import { docStories } from './rag-stories-docs.js';
import { officeStories } from './rag-stories-office.js';

const MARCO_SIG = `Marco Rossi
Finance & Controlling | Acme Corp
Via Tortona 25, 20144 Milano`;

const HANNAH_SIG = `Kind regards,
Hannah Cole
Accounts Receivable | Brightline Freight Ltd
Unit 4, Dock Road, Felixstowe IP11 3QW
This email and any files transmitted with it are confidential.`;

const MIKE_SIG = `Mike Dorsey
Account Manager
Kestrel Packaging Inc. | 2200 Industrial Pkwy, Dayton OH
(937) 555-0144`;

function freight(): StoryThread[] {
  return [
    {
      key: 'bf-invoice',
      subject: 'Invoice BF-INV-20931 - Rotterdam to Milan, September loads',
      lang: 'en',
      posts: [
        {
          id: 'BF20241008A1@brightline-freight.co.uk',
          from: hannah,
          to: [marco],
          at: '2024-10-08 09:30 +0100',
          body: `Dear Marco,

Please find below our invoice BF-INV-20931 for the three full truckloads Rotterdam to Milan collected on 17, 19 and 24 September.

Linehaul 3 x EUR 4,076.67: EUR 12,230.00
Waiting time surcharge, 24 September (9 hours at EUR 238.89): EUR 2,150.00
Total due: EUR 14,380.00, payable within 30 days.

${HANNAH_SIG}`,
        },
        {
          id: 'CAM4rco20241014bf@mail.gmail.com',
          from: marco,
          to: [hannah],
          cc: [laura],
          at: '2024-10-14 16:05 +0200',
          body: `Hi Hannah,

we will pay the linehaul part of BF-INV-20931 this week, but not the waiting time surcharge. On 24 September it was your truck that turned up at the Rotterdam terminal six hours after its slot, so the nine hours are on Brightline's side, not ours. Our gate log and the terminal's time stamps are available if you need them.

Please send a credit note for the EUR 2,150.00 and we will settle the remaining EUR 12,230.00 immediately.

Thanks,
${MARCO_SIG}`,
        },
        {
          id: 'BF20241021C3@brightline-freight.co.uk',
          from: hannah,
          to: [marco],
          cc: [laura],
          at: '2024-10-21 11:12 +0100',
          body: `Dear Marco,

You are right: our driver was held at the Brenner pass on the way up, and the detention fee should never have been billed to you. I have issued CN-BF-0412 for EUR 2,150.00 against BF-INV-20931; the balance of EUR 12,230.00 stays due on 7 November.

Apologies for the confusion.

${HANNAH_SIG}`,
        },
      ],
    },
    {
      key: 'bf-customs',
      subject: 'Shipment BFL-88431 held in Genoa',
      lang: 'en',
      posts: [
        {
          id: 'BF20241203H1@brightline-freight.co.uk',
          from: hannah,
          to: [laura],
          cc: [tom],
          at: '2024-12-03 08:47 +0000',
          body: `Dear Laura,

Your consignment BFL-88431 (42 crates of steel shelving, HS code 9403.20, from Ningbo) is being held by Genoa customs. The origin declaration on the commercial invoice is missing, so the preferential duty rate cannot be applied and the officers want either the EUR.1 movement certificate or a new invoice carrying the exporter's statement.

Until then the crates stay in the bonded area at EUR 85 per day.

${HANNAH_SIG}`,
        },
        {
          id: 'CAH7Lb2q0DEC03cust@mail.gmail.com',
          from: laura,
          to: [hannah],
          cc: [tom],
          at: '2024-12-03 10:15 +0100',
          body: `Hi Hannah,

thanks for the heads-up. I have asked the exporter in Ningbo for a corrected invoice with the origin statement; they promised it by tomorrow noon their time. I will forward it as soon as it lands.

Best regards,
Laura`,
        },
      ],
    },
    {
      key: 'kestrel-po-8812',
      subject: 'PO-8812 corrugated cartons',
      lang: 'en',
      posts: [
        {
          id: 'KP20240612A@kestrelpack.com',
          from: mike,
          to: [laura],
          cc: [tom],
          at: '2024-06-12 15:20 -0400',
          body: `Hi Laura,

Bad news on PO-8812, I'm afraid. Our corrugator went down on Monday with a cracked drive shaft, and the spare is coming from Germany, so the 40,000 cartons will now ship around July 19 rather than June 28.

I can get 10,000 out of our Ohio stock next week if that helps bridge the gap.

${MIKE_SIG}`,
        },
        {
          id: 'CAH7Lb2q0JUN13kp@mail.gmail.com',
          from: laura,
          to: [mike],
          cc: [tom],
          at: '2024-06-13 09:02 +0200',
          body: `Hi Mike,

yes please, send the 10,000 from Ohio as a partial delivery and the rest when the line is back. Tom will update the receiving plan.

Best regards,
Laura`,
        },
        {
          id: '5B2E7F10-TOM0613@acme-corp.com',
          from: tom,
          to: [laura],
          at: '2024-06-13 11:40 -0400',
          body: `Got it, I moved the dock slot to June 21 for the first 10k. We have enough for the July promo runs until then.

Tom`,
        },
      ],
    },
    {
      key: 'kestrel-overdue',
      subject: 'Overdue: INV-K-30577',
      lang: 'en',
      posts: [
        {
          id: 'KP20240902R@kestrelpack.com',
          from: mike,
          to: [marco],
          at: '2024-09-02 10:00 -0400',
          body: `Hello Marco,

Our ledger shows INV-K-30577 (USD 18,940.00, cartons shipped July 19) still open, 14 days past due. Could you check on your side?

${MIKE_SIG}`,
        },
        {
          id: 'CAM4rco20240903kp@mail.gmail.com',
          from: marco,
          to: [mike],
          at: '2024-09-03 17:22 +0200',
          body: `Hello Mike,

the transfer went out this morning, value date 4 September, bank reference ACME-PAY-240903-17. The delay was on our side: the invoice came in under the old vendor number and sat in the approval queue. Sorry about that.

Best,
${MARCO_SIG}`,
        },
      ],
    },
    {
      key: 'kestrel-prices',
      subject: 'Kestrel price list 2025',
      lang: 'en',
      posts: [
        {
          id: 'KP20250115P@kestrelpack.com',
          from: mike,
          to: [laura],
          at: '2025-01-15 13:05 -0500',
          body: `Hi Laura,

A heads-up before the formal letter: kraft liner has gone up 18% since the autumn and our mills have passed all of it on. Our list will rise by 7.5% from March 1; orders placed before then are invoiced at the old rates.

Happy to walk you through the numbers on a call.

${MIKE_SIG}`,
        },
      ],
    },
  ];
}

export function englishStories(): StoryThread[] {
  return [...freight(), ...officeStories(), ...docStories()];
}

// English story threads of the bench:rag archive: freight and packaging suppliers, budget
// decisions, IT incidents, hiring, travel and office life at Acme Corp, 2024-2025.

import type { StoryThread } from './rag-corpus.js';
import {
  chloe,
  david,
  hannah,
  helen,
  laura,
  luca,
  marco,
  mike,
  nina,
  priya,
  sarah,
  tom,
} from './rag-people.js';
import { docStories } from './rag-stories-docs.js';

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

const PRIYA_SIG = `Priya Patel
IT Operations | Acme Corp`;

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

function internal(): StoryThread[] {
  return [
    {
      key: 'fair-budget',
      subject: 'Q3 events budget',
      lang: 'en',
      posts: [
        {
          id: 'BN7PR11MB2201SJ0701@BN7PR11MB2201.namprd11.prod.outlook.com',
          from: sarah,
          to: [david],
          cc: [laura],
          at: '2024-07-01 09:15 -0400',
          body: `David,

The events line for Q3 is EUR 38,000 and LogiMAT Stuttgart alone would eat EUR 31,000 of it (stand, travel, two nights for four people). Leads from last year's stand were thin: 22 contacts, one deal.

Option A: keep the stand. Option B: skip it and put the money into the distributor training programme, which needs EUR 35,000 to run in all five regions.

Can you decide by Friday so I can release or keep the booking?

Sarah`,
        },
        {
          id: 'BN7PR11MB2201DC0703@BN7PR11MB2201.namprd11.prod.outlook.com',
          from: david,
          to: [sarah],
          cc: [laura],
          at: '2024-07-03 18:30 -0400',
          body: `Sarah,

Option B. We skip LogiMAT this year and move the EUR 38,000 to distributor training; whatever is left after the five regional sessions goes back to the central pot. Please release the stand booking before the cancellation fee kicks in on the 15th.

David Chen
VP Sales & Marketing | Acme Corp`,
        },
      ],
    },
    {
      key: 'capex-q1',
      subject: 'Capex requests Q1 2025',
      lang: 'en',
      posts: [
        {
          id: 'CALm0r3tti20250108@mail.gmail.com',
          from: luca,
          to: [helen],
          cc: [marco],
          at: '2025-01-08 10:10 +0100',
          body: `Hi Helen,

two requests for the Q1 round from operations:

1. Two Linde E20 electric forklifts to replace the diesel units that fail the new emission rules: EUR 61,000.
2. Racking extension in hall B, 400 more pallet positions: EUR 94,000.

Both quotes are in the shared folder.

Luca Moretti
Operations Manager, Milan`,
        },
        {
          id: 'AM6PR04MB4410HW0117@AM6PR04MB4410.eurprd04.prod.outlook.com',
          from: helen,
          to: [luca],
          cc: [marco],
          at: '2025-01-17 14:45 +0100',
          body: `Luca,

The forklifts are approved: go ahead and order them, Marco will raise the PO. The hall B racking does not make this round; utilisation there averaged 71% last year and I would rather see the new volume forecast first. Bring it back in the Q3 round with the forecast attached.

Helen Ward
Chief Financial Officer | Acme Corp`,
        },
      ],
    },
    {
      key: 'vpn-incident',
      subject: 'INC-20417 remote access outage',
      lang: 'en',
      posts: [
        {
          id: 'CAPr1ya20241119inc@mail.gmail.com',
          from: priya,
          to: [laura, david, sarah, tom, marco],
          at: '2024-11-19 12:05 -0500',
          body: `Hi all,

post-mortem for INC-20417. Between 08:10 and 11:40 CET nobody could connect remotely: the Fortinet gateway rebooted in a loop after last night's firmware upgrade to 7.4.5. We rolled it back to 7.4.3 and connections came back at 11:40.

Next steps: firmware changes only in the Saturday window, and a standby unit in Milan from December.

${PRIYA_SIG}`,
        },
      ],
    },
    {
      key: 'phishing',
      subject: 'Phishing alert: "DocuSign - contract pending"',
      lang: 'en',
      posts: [
        {
          id: 'CAPr1ya20250311phi@mail.gmail.com',
          from: priya,
          to: [laura, david, sarah, tom, marco, helen, luca],
          at: '2025-03-11 16:20 +0100',
          body: `Hi everyone,

this morning a fake DocuSign email went to most of the company. The link pointed to acme-corp.co (without the m), a copy of our Microsoft sign-in. Do not enter your password there.

Three people clicked and typed their passwords before we blocked the domain at 10:52. We have reset those accounts and revoked their sessions; nothing was sent from them.

If you clicked and have not heard from me, call the helpdesk on 4400.

${PRIYA_SIG}`,
        },
      ],
    },
    {
      key: 'hire-supervisor',
      subject: 'Shift lead, Milan depot - offer',
      lang: 'en',
      posts: [
        {
          id: 'CAChl0e20240916tb@mail.gmail.com',
          from: chloe,
          to: [tom],
          at: '2024-09-16 12:30 +0100',
          body: `Hi Tom,

Elena Marchetti has verbally accepted: EUR 52,000 base, the usual bonus plan, notice of four weeks at her current employer. I am sending the written offer today unless you want to change anything.

Best,
Chloe Martin
Senior Consultant, TalentBridge Recruitment`,
        },
        {
          id: 'A81C44D2-TOM0918@acme-corp.com',
          from: tom,
          to: [laura, luca],
          at: '2024-09-18 08:55 -0400',
          body: `Luca, Laura,

Elena Marchetti signed yesterday. She joins as shift lead for the Milan depot on November 4 and will spend her first two weeks shadowing Giorgio on the night rota.

Tom`,
        },
      ],
    },
    {
      key: 'analyst-interviews',
      subject: 'Data analyst interviews',
      lang: 'en',
      posts: [
        {
          id: 'BN7PR11MB2201SJ0414@BN7PR11MB2201.namprd11.prod.outlook.com',
          from: sarah,
          to: [priya],
          at: '2025-04-14 17:10 -0400',
          body: `Priya,

Feedback from the three finalists: Ahmed was the strongest on SQL and the take-home, but wants to stay fully remote. Julia was good with stakeholders and weaker on modelling. We are going with Ahmed at 80% remote; I will tell Julia tomorrow and keep her CV for the Q4 opening.

Sarah`,
        },
      ],
    },
    {
      key: 'office-move',
      subject: 'Office move - 4th floor',
      lang: 'en',
      posts: [
        {
          id: 'CAH7Lb2q0MAY26mv@mail.gmail.com',
          from: laura,
          to: [david, sarah, tom, marco, priya, helen, luca],
          at: '2025-05-26 09:00 +0200',
          body: `Hi everyone,

the movers come on Saturday 14 June. Please box up your desks by Friday 13 June at 17:00 and label each box with your name and new seat number (plan attached to the intranet post). IT will unplug the monitors on Friday afternoon.

From Monday 16 June we are on the fourth floor, entrance B.

Thanks,
Laura`,
        },
      ],
    },
    {
      key: 'offsite',
      subject: 'Lake Como offsite 9-10 October',
      lang: 'en',
      posts: [
        {
          id: 'BN7PR11MB2201DC0925@BN7PR11MB2201.namprd11.prod.outlook.com',
          from: david,
          to: [laura, sarah, tom, marco, priya],
          at: '2024-09-25 11:00 -0400',
          body: `All,

Logistics for Como: the coach leaves Via Tortona at 8:00 sharp on Wednesday the 9th and is back by 19:00 on Thursday. Rooms are at Villa Geno, two to a room unless you told Sarah otherwise. Bring a jacket for the boat on Thursday morning.

David`,
        },
      ],
    },
    {
      key: 'hamburg-trip',
      subject: 'Your booking GTK-7Q2M9 - Hamburg, 10-12 March',
      lang: 'en',
      posts: [
        {
          id: 'GT20250220B@globetrek-travel.com',
          from: nina,
          to: [laura],
          at: '2025-02-20 15:35 +0100',
          body: `Dear Ms Bianchi,

your trip is confirmed, booking reference GTK-7Q2M9:

Outbound: LH 2473 Milan Malpensa 07:05 - Munich, connecting LH 2070 to Hamburg, arriving 10:20 on 10 March.
Hotel: Hotel Atlantic, 2 nights, 10-12 March, breakfast included, late checkout 14:00.
Return: EW 9461 Hamburg 18:45 - Milan Linate on 12 March.

Tickets and the hotel voucher follow in separate emails.

Kind regards,
Nina Sorensen
Globetrek Business Travel`,
        },
      ],
    },
  ];
}

export function englishStories(): StoryThread[] {
  return [...freight(), ...internal(), ...docStories()];
}

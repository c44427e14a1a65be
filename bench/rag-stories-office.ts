// English office threads of the bench:rag archive: budget decisions, IT incidents, hiring,
// travel and office life at Acme Corp, 2024-2025.

import type { StoryThread } from './rag-corpus.js';
import { chloe, david, helen, laura, luca, marco, nina, priya, sarah, tom } from './rag-people.js';

const PRIYA_SIG = `Priya Patel
IT Operations | Acme Corp`;

export function officeStories(): StoryThread[] {
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

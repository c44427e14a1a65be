// Story threads whose substance is in a PDF: an order form, an NDA, a lease amendment, an
// insurance certificate and an inspection report. The mail only says "attached".

import type { StoryThread } from './rag-corpus.js';
import { giorgio, jenna, laura, lena, marco, oliver, ravi, tom } from './rag-people.js';

export function docStories(): StoryThread[] {
  return [
    {
      key: 'solvera-renewal',
      subject: 'Solvera renewal paperwork',
      lang: 'en',
      posts: [
        {
          id: 'CAJpark20250113so@mail.gmail.com',
          from: jenna,
          to: [laura],
          cc: [marco],
          at: '2025-01-13 08:40 -0800',
          body: `Hi Laura,

Great talking to you yesterday! As promised, the paperwork for next year is attached. Just sign page 2 and send it back whenever you're ready.

Cheers,
Jenna Park
Customer Success, Solvera`,
          pdf: {
            filename: 'Solvera-SO-2025-0113.pdf',
            pages: [
              [
                'Solvera Inc. - Order Form SO-2025-0113',
                'Customer: Acme Corp, Via Tortona 25, 20144 Milano, Italy',
                'Product: Solvera Procurement Cloud, Enterprise edition',
                'Subscription term: 1 March 2025 to 28 February 2026',
                'Named users: 120',
                'Annual fee: EUR 46,800.00, invoiced annually in advance, payment 30 days net',
                'Renewal: this subscription renews automatically for successive 12-month terms',
                'unless either party gives written notice of non-renewal at least 60 days',
                'before the end of the current term.',
                'Price protection: fees for a renewal term will not increase by more than 5%.',
              ],
              ['Signatures', 'For Acme Corp: ______________________', 'For Solvera Inc.: Jenna Park'],
            ],
          },
        },
      ],
    },
    {
      key: 'ferri-nda',
      subject: 'NDA - Officina Ferri / Acme',
      lang: 'en',
      posts: [
        {
          id: 'CAGferri20240806nda@mail.gmail.com',
          from: giorgio,
          to: [laura],
          at: '2024-08-06 18:02 +0200',
          body: `Hello Laura,

here is the agreement countersigned by our managing director. Looking forward to seeing the drawings for the new brackets.

Best regards,
Giorgio Ferri
Officina Ferri S.r.l. - Lumezzane (BS)`,
          pdf: {
            filename: 'NDA_Officina-Ferri_Acme_signed.pdf',
            pages: [
              [
                'MUTUAL NON-DISCLOSURE AGREEMENT',
                'between Officina Ferri S.r.l., Via Matteotti 88, Lumezzane (BS), and Acme Corp, Milano',
                '1. Purpose: evaluation of a supply of galvanised steel brackets to Acme drawings.',
                '2. Confidential Information includes drawings, prices, volumes and customer names.',
                '3. Term: the obligations survive for three (3) years after the last disclosure.',
                '4. Governing law: Italian law. Exclusive jurisdiction: the Court of Brescia.',
                '5. No licence is granted by this agreement.',
                'Signed in Lumezzane on 5 August 2024 and in Milano on 6 August 2024.',
              ],
            ],
          },
        },
      ],
    },
    {
      key: 'lease-amendment',
      subject: 'Unit 7 - amendment',
      lang: 'en',
      posts: [
        {
          id: '9E2F61A0-LF0304@northgate-estates.com',
          from: lena,
          to: [laura],
          cc: [marco],
          at: '2025-03-04 10:25 +0100',
          body: `Dear Laura,

Following our meeting, the second amendment is attached for your signature. Two originals will follow by courier.

Best wishes,
Lena Fischer
Asset Manager, Northgate Estates

Sent from my iPad`,
          pdf: {
            filename: 'Unit7-Amendment-2.pdf',
            pages: [
              [
                'AMENDMENT No. 2 TO THE LEASE OF UNIT 7, VIA CALDERA 21, MILANO',
                'Landlord: Northgate Estates S.p.A. Tenant: Acme Corp.',
                '1. Rent: from 1 April 2025 the rent is EUR 18,450.00 per month, plus VAT.',
                '2. Indexation: annually on 1 April at 75% of the ISTAT consumer price index.',
                '3. Break option: the Tenant may terminate the lease with effect from 31 March 2027',
                '   by giving at least nine months prior written notice.',
                '4. The Landlord will replace the loading bay doors 3 and 4 by 30 June 2025.',
                'All other terms of the lease dated 12 February 2019 remain unchanged.',
              ],
            ],
          },
        },
      ],
    },
    {
      key: 'cargo-insurance',
      subject: 'Certificate of insurance 2025',
      lang: 'en',
      posts: [
        {
          id: 'HM20241218C@harbourmarine-ins.com',
          from: oliver,
          to: [laura],
          at: '2024-12-18 14:00 +0000',
          body: `Dear Laura,

Please find your certificate for the coming year attached. Do let me know if any of the details need correcting.

Kind regards,
Oliver Grant
Account Executive, Harbour Marine Insurance Brokers`,
          pdf: {
            filename: 'Certificate-MC-88213.pdf',
            pages: [
              [
                'CERTIFICATE OF MARINE CARGO INSURANCE - Open cover MC-88213',
                'Assured: Acme Corp and its subsidiaries',
                'Period: 1 January 2025 to 31 December 2025',
                'Conveyances: sea, road and air, Asia and Europe to Italy, including warehouse to warehouse',
                'Limit per conveyance: EUR 750,000',
                'Deductible: EUR 2,500 each and every loss',
                'Excluded: war and strikes risks, unless declared and paid additionally',
                'Claims: notify Harbour Marine within 7 days of discovering loss or damage',
              ],
            ],
          },
        },
      ],
    },
    {
      key: 'inspection',
      subject: 'Report for order NB-2410 (steel shelving)',
      lang: 'en',
      posts: [
        {
          id: 'IA20241025R@inspectasia.com',
          from: ravi,
          to: [laura],
          cc: [tom],
          at: '2024-10-25 17:30 +0800',
          body: `Dear Laura,

The pre-shipment check in Ningbo was completed yesterday. The full findings, with photos, are in the attached document. Please tell us by Monday whether the factory may ship.

Regards,
Ravi Menon
InspectAsia Ltd, Shanghai`,
          pdf: {
            filename: 'IR-55120.pdf',
            pages: [
              [
                'Inspection report IR-55120 - pre-shipment inspection',
                'Product: steel shelving units SH-180, 1,200 pcs, order NB-2410',
                'Sampling: ANSI Z1.4, level II, 200 samples, AQL 2.5 major / 4.0 minor',
                'Critical defects: 0',
                'Major defects: 14 (cracked welds on the upright joints: 9, wrong hole pitch: 5)',
                'Minor defects: 6 (paint scratches)',
                'Result: FAILED (major defects above the acceptance number of 10)',
                'Recommendation: 100% re-inspection of the welds before shipment.',
              ],
            ],
          },
        },
        {
          id: 'CAH7Lb2q0OCT26ia@mail.gmail.com',
          from: laura,
          to: [ravi],
          cc: [tom],
          at: '2024-10-26 09:10 +0200',
          body: `Dear Ravi,

thanks. The factory may not ship: we want the full re-check you recommend, at their cost, and a second visit from you before anything leaves Ningbo.

Best regards,
Laura`,
        },
      ],
    },
  ];
}

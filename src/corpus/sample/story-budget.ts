// The Q3 budget decision: three options on the table, a scenario spreadsheet, and David's
// decision on 2024-07-08 (q3-budget-decision) to defer the WMS project to Q4.

import { type SampleMessage, Thread, textFile } from './kit.js';
import { david, laura, priya, sarah } from './people.js';

const SCENARIOS = `scenario,opex_usd,capex_usd,total_usd,headcount_delta,notes
baseline,1910000,470000,2380000,+4,current plan incl. WMS phase 1
A_hiring_freeze,1780000,470000,2250000,0,no new hires until October
B_marketing_minus_15,1835000,470000,2305000,+4,marketing programs cut 15%
C_defer_wms,1910000,90000,2000000,+4,WMS phase 1 (380k) moved to Q4; 250k contingency kept -> 2250000
`;

const DAVID_SIG = `David Chen
Chief Financial Officer | Acme Corp
+1 312 555 0142`;

export function budgetStory(): SampleMessage[] {
  const t = new Thread('q3-budget', 'Q3 budget: options for the steering committee', 'en');
  t.post({
    id: 'BN6PR11MB4012Q3BUDGET01@BN6PR11MB4012.namprd11.prod.outlook.com',
    from: david,
    to: [laura, sarah, priya],
    at: '2024-06-24 08:30 -0500',
    body: `Team,

the board wants the Q3 budget capped at $2.25M, and our current plan is $2.38M. I see three options:

A) freeze hiring until October (saves ~$130k);
B) cut marketing programs by 15% (saves ~$75k);
C) defer phase 1 of the warehouse management system (WMS, $380k capex) to Q4.

Please send me your view by Friday. Priya is preparing the scenarios.

${DAVID_SIG}`,
  });
  t.post({
    id: 'CAPriya-q3-scenarios-0625@mail.gmail.com',
    from: priya,
    to: [david],
    cc: [laura, sarah],
    at: '2024-06-25 16:05 -0500',
    body: `Hi David,

scenarios attached. Only C gets us under the cap without touching headcount: deferring WMS takes capex from $470k to $90k, and we can keep a $250k contingency for supplier price increases and still land at $2.25M.

Priya`,
    attachments: [textFile('q3-budget-scenarios.csv', 'text/csv', SCENARIOS)],
  });
  t.post({
    id: 'BN6PR11MB7781SARAHWMS@BN6PR11MB7781.namprd11.prod.outlook.com',
    from: sarah,
    to: [david],
    cc: [laura, priya],
    at: '2024-06-26 09:14 -0500',
    body: `David,

I am against C. Without the WMS the Milan warehouse keeps running on spreadsheets through peak season, and we saw with the Nordwind racks what that costs us. I would rather freeze hiring (A) for one quarter.

Sarah`,
  });
  t.post({
    id: 'CAH7Lb2q0JUN27budget@mail.gmail.com',
    from: laura,
    to: [david],
    cc: [sarah, priya],
    at: '2024-06-27 10:40 +0200',
    body: `David,

one input from procurement: our main suppliers announced price increases of about 6% from 1 July (steel and freight). If we pick A, the contingency disappears and those increases hit the operating budget directly.

I lean towards C, with the WMS kick-off fixed for the first week of October so Sarah's team is not left waiting.

Laura`,
  });
  t.post({
    id: 'BN6PR11MB7781SARAHOK@BN6PR11MB7781.namprd11.prod.outlook.com',
    from: sarah,
    to: [laura, david],
    cc: [priya],
    at: '2024-06-27 11:02 -0500',
    body: `Fair point on the supplier increases. I can live with C if the October kick-off is a commitment, not a hope.

Sarah`,
  });
  t.post({
    id: 'q3-budget-decision@acme-corp.com',
    from: david,
    to: [laura, sarah, priya],
    at: '2024-07-08 07:55 -0500',
    body: `All,

decision on the Q3 budget: we go with option C.

- WMS phase 1 ($380k) moves to Q4, kick-off on 7 October 2024.
- Marketing stays flat, no hiring freeze.
- $250k contingency for supplier price increases.
- Total Q3 budget approved: $2.25M.

The steering committee signed off this morning. Thanks for the quick input.

${DAVID_SIG}`,
    flags: 'FS',
    where: 'both',
  });
  t.post({
    id: 'CAPriya-q3-thanks-0708@mail.gmail.com',
    from: priya,
    to: [david],
    cc: [laura, sarah],
    at: '2024-07-08 09:30 -0500',
    body: `Thanks David, I have updated the forecast model and the Q3 budget file on the finance drive.

Priya`,
  });
  return t.messages;
}

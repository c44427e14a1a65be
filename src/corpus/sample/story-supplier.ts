// The long supplier thread: Nordwind Logistik and Acme's PO-7731 for 1,200 pallet racks.
// Nordwind first disputes the delivery schedule on 2024-03-04 (nw-dispute-0304); the
// German dispatch notices and the internal legal forward hang off the same story.

import { makePdf } from '../attachments.js';
import { type SampleMessage, Thread, textFile } from './kit.js';
import { anna, klaus, laura, marco, sarah, tom } from './people.js';

const KLAUS_SIG = `Mit freundlichen Grüßen / Best regards

Klaus Weber
Key Account Manager
Nordwind Logistik GmbH | Hafenstraße 12 | 20457 Hamburg
Tel. +49 40 3861 2290

Nordwind Logistik GmbH, Amtsgericht Hamburg HRB 118402. Diese E-Mail enthält vertrauliche Informationen. Wenn Sie nicht der richtige Adressat sind, informieren Sie bitte sofort den Absender und vernichten Sie diese E-Mail.`;

const LAURA_SIG = `Best regards,
Laura

--
Laura Bianchi
Procurement Manager | Acme Corp
Via Tortona 25, 20144 Milano
+39 02 8736 4410`;

const SCHEDULE = `tranche,units,delivery_date,destination
1,300,2024-02-12,Acme Milan warehouse (Via Tortona 25)
2,300,2024-03-11,Acme Milan warehouse (Via Tortona 25)
3,300,2024-04-08,Acme Milan warehouse (Via Tortona 25)
4,300,2024-05-06,Acme Milan warehouse (Via Tortona 25)
`;

export function supplierStory(): SampleMessage[] {
  const t = new Thread('supplier-po-7731', 'PO-7731 pallet racks - delivery schedule', 'en');
  t.post({
    id: '20240115091204.7731A@acme-corp.com',
    from: laura,
    to: [klaus],
    cc: [marco],
    at: '2024-01-15 09:12 +0100',
    body: `Dear Klaus,

please find attached our purchase order PO-7731 for 1,200 pallet racks (model NR-2400, galvanised), as discussed in Hamburg last week. The total value is EUR 186,000.00 net, payment 60 days from invoice.

The delivery schedule is part of the order and is binding under clause 7.2 of our framework agreement: four tranches of 300 units, on 12 February, 11 March, 8 April and 6 May 2024, delivered to our Milan warehouse. The schedule is also attached as a CSV for your planning team.

Could you confirm the order and the schedule by Friday?

${LAURA_SIG}`,
    attachments: [textFile('delivery-schedule-PO-7731.csv', 'text/csv', SCHEDULE)],
    where: 'mbox',
  });
  t.post({
    id: 'AM0PR07MB5121D0C1A2B3C4D5E6F7A8B9C0D1E2F3@AM0PR07MB5121.eurprd07.prod.outlook.com',
    from: klaus,
    to: [laura],
    cc: [marco],
    at: '2024-01-16 14:03 +0100',
    body: `Dear Laura,

thank you for the order PO-7731, well received. Production planning will confirm the dates this week; I do not expect problems with the February slot.

${KLAUS_SIG}`,
    where: 'mbox',
    flags: 'RS',
  });
  t.post({
    id: 'AM0PR07MB5121E1F2A3B4C5D6E7F8A9B0C1D2E3F4@AM0PR07MB5121.eurprd07.prod.outlook.com',
    from: klaus,
    to: [laura],
    at: '2024-02-02 10:41 +0100',
    body: `Dear Laura,

I am sorry to tell you that our steel supplier in Duisburg is running two weeks late. The first tranche of PO-7731 will therefore leave Hamburg on 26 February instead of 12 February.

We are doing everything we can to recover the time on the later tranches.

${KLAUS_SIG}`,
    where: 'mbox',
    flags: 'RS',
  });
  t.post({
    id: 'CAH7Lb2q0FEB02nwd1@mail.gmail.com',
    from: laura,
    to: [klaus],
    cc: [sarah],
    at: '2024-02-02 11:30 +0100',
    body: `Klaus,

this is not acceptable for us. The dates in PO-7731 are binding under clause 7.2, and our Milan warehouse has a customer rollout that depends on the first 300 racks arriving on 12 February.

Please send at least a partial delivery on the 12th and a written plan for the rest.

Laura`,
    where: 'mbox',
  });
  t.post({
    id: 'AM0PR07MB5121A9B8C7D6E5F4A3B2C1D0E9F8A7B6@AM0PR07MB5121.eurprd07.prod.outlook.com',
    from: klaus,
    to: [laura],
    cc: [sarah],
    at: '2024-02-05 08:55 +0100',
    body: `Dear Laura,

we can ship 150 units on 12 February from stock. The remaining 150 units of the first tranche will follow on 26 February.

${KLAUS_SIG}`,
    where: 'mbox',
    flags: 'RS',
  });
  t.post({
    id: 'CAM4rco-shortfall-0227@mail.gmail.com',
    from: marco,
    to: [laura],
    cc: [sarah],
    at: '2024-02-27 17:20 +0100',
    body: `Ciao Laura,

the second part of tranche 1 arrived this afternoon: the truck brought 138 racks instead of 150, and 12 of them have bent uprights (photos on the shared drive, folder PO-7731/damage).

With the 150 from 12 February we have 288 of 300, and only 276 usable: 24 units short of the first tranche. Can you take it up with Nordwind?

Marco`,
    quote: false,
    where: 'both',
    flags: 'RS',
  });
  t.post({
    id: 'CAH7Lb2q0MAR01short@mail.gmail.com',
    from: laura,
    to: [klaus],
    cc: [tom, marco],
    at: '2024-03-01 09:05 +0100',
    body: `Dear Klaus,

for the record: of the 300 units due on 12 February under PO-7731 we have received 288, and 12 of those are damaged. We are therefore 24 units short of the first tranche, and tranche 2 is due on 11 March.

Please send us a revised delivery schedule in writing by Monday. I have copied Tom Becker from our legal team.

${LAURA_SIG}`,
    where: 'both',
  });
  t.post({
    id: 'nw-dispute-0304@nordwind-logistik.de',
    from: klaus,
    to: [laura],
    cc: [tom],
    at: '2024-03-04 16:48 +0100',
    body: `Dear Laura,

I have to correct a misunderstanding. The delivery schedule that applies to PO-7731 is the one in our order confirmation AB-2024-0193 of 19 January 2024, which we sent after receiving your order: tranches on 25 March, 22 April, 21 May and 17 June 2024.

We never agreed to a first delivery on 12 February. The February shipments were a goodwill gesture, not a late delivery, and we cannot accept a claim for delay or any penalty under clause 7.2.

We will of course deliver tranche 2 on 25 March as confirmed.

${KLAUS_SIG}`,
    where: 'both',
    flags: 'FS',
  });
  const legal = t.branch('supplier-legal', 'PO-7731 pallet racks - delivery schedule');
  legal.post({
    id: 'CAH7Lb2q0MAR04fwd@mail.gmail.com',
    forward: true,
    from: laura,
    to: [tom],
    at: '2024-03-04 17:10 +0100',
    body: `Tom, see below: Nordwind now says their order confirmation AB-2024-0193 replaced our schedule. I never saw an AB with those dates. Which document prevails?`,
  });
  legal.post({
    id: '6F1C2A9E-3B4D-4E5F-8A7B-TOMB0306@acme-corp.com',
    from: tom,
    to: [laura],
    at: '2024-03-06 11:22 -0500',
    body: `Laura,

short answer: our PO prevails. Our terms (section 2) say that a PO is accepted by written confirmation or by starting performance, and Klaus confirmed PO-7731 in writing on 16 January, three days before AB-2024-0193 was sent. Conflicting terms in a later confirmation do not change an accepted order.

The weak point: their AB says objections must be raised within 5 days, and nobody objected. I would not go to court over 24 racks. Push back firmly, but offer a deal on tranche 2.

Tom

Sent from my iPhone`,
  });
  t.post({
    id: 'CAH7Lb2q0MAR08reply@mail.gmail.com',
    from: laura,
    to: [klaus],
    cc: [tom],
    at: '2024-03-08 10:15 +0100',
    body: `Dear Klaus,

we do not accept that AB-2024-0193 changed the schedule. You confirmed PO-7731 in writing on 16 January, before the AB was issued, and the PO terms prevail.

That said, we prefer a practical solution: if tranche 2 (300 units) and the 24 missing units of tranche 1 arrive in Milan by 25 March, we will not claim penalties for the February delay.

${LAURA_SIG}`,
  });
  t.post({
    id: 'AM0PR07MB5121C3D4E5F6A7B8C9D0E1F2A3B4C5D6@AM0PR07MB5121.eurprd07.prod.outlook.com',
    from: klaus,
    to: [laura],
    cc: [tom],
    at: '2024-03-12 09:30 +0100',
    body: `Dear Laura,

thank you for the constructive proposal. We cannot make 25 March for all 324 units, but we can deliver them on 28 March. As compensation for the inconvenience we will grant a 3% discount on the invoice for tranches 1 and 2.

Please confirm and I will instruct dispatch.

${KLAUS_SIG}`,
    flags: 'RS',
  });
  t.post({
    id: 'CAH7Lb2q0MAR12ok@mail.gmail.com',
    from: laura,
    to: [klaus],
    at: '2024-03-12 10:02 +0100',
    body: `Klaus, confirmed: 324 units on 28 March and 3% off the invoice for tranches 1 and 2. Tranches 3 and 4 stay on 8 April and 6 May.

Laura`,
  });
  t.post({
    id: 'CAM4rco-arrived-0328@mail.gmail.com',
    from: marco,
    to: [laura],
    at: '2024-03-28 15:47 +0100',
    body: `Arrivati! 324 racks checked in this afternoon, no damage this time. Tranche 1 is complete and tranche 2 too.

Marco`,
  });
  t.post({
    id: 'AM0PR07MB5121INV131@AM0PR07MB5121.eurprd07.prod.outlook.com',
    from: klaus,
    to: [laura],
    at: '2024-04-10 11:12 +0200',
    subject: 'Invoice INV-NW-2024-131 - PO-7731 tranches 1 and 2',
    body: `Dear Laura,

attached is invoice INV-NW-2024-131 for tranches 1 and 2 of PO-7731 (600 units), EUR 93,000.00 net, due 9 June 2024.

${KLAUS_SIG}`,
    quote: false,
    attachments: [
      {
        filename: 'INV-NW-2024-131.pdf',
        contentType: 'application/pdf',
        content: makePdf('Nordwind Logistik GmbH - Invoice INV-NW-2024-131', [
          'Customer: Acme Corp, Via Tortona 25, 20144 Milano',
          'Order: PO-7731 (pallet racks NR-2400)',
          'Tranche 1: 300 units x EUR 155.00 = EUR 46,500.00',
          'Tranche 2: 300 units x EUR 155.00 = EUR 46,500.00',
          'Total net: EUR 93,000.00',
          'Payment due: 9 June 2024',
          'IBAN DE44 2005 0550 1234 5678 90',
        ]),
      },
    ],
    flags: 'RS',
  });
  t.post({
    id: 'CAH7Lb2q0APR11disc@mail.gmail.com',
    from: laura,
    to: [klaus],
    cc: [marco],
    at: '2024-04-11 09:40 +0200',
    body: `Dear Klaus,

INV-NW-2024-131 does not include the 3% discount you granted on 12 March. The correct amount is EUR 90,210.00 net. Please send a corrected invoice or a credit note; we will not pay the current one.

${LAURA_SIG}`,
  });
  t.post({
    id: 'AM0PR07MB5121CN131R@AM0PR07MB5121.eurprd07.prod.outlook.com',
    from: klaus,
    to: [laura],
    at: '2024-04-15 13:26 +0200',
    body: `Dear Laura,

you are right, my apologies. Our accounting has issued credit note CN-2024-044 for EUR 2,790.00 against INV-NW-2024-131, so the amount due is EUR 90,210.00.

${KLAUS_SIG}`,
  });
  t.post({
    id: 'AM0PR07MB5121MAY20@AM0PR07MB5121.eurprd07.prod.outlook.com',
    from: klaus,
    to: [laura],
    cc: [marco],
    at: '2024-05-20 08:10 +0200',
    body: `Dear Laura,

tranche 3 left on 8 April as planned. For tranche 4 we propose to combine it with a small remainder and deliver on 3 June instead of 6 May; your warehouse team already agreed with Anna by phone.

${KLAUS_SIG}`,
  });
  t.post({
    id: 'CAM4rco-complete-0604@mail.gmail.com',
    from: marco,
    to: [laura, klaus],
    at: '2024-06-04 12:05 +0200',
    body: `All 1,200 racks of PO-7731 are now in Milan. Thanks Klaus, we can close this one.

Marco`,
  });

  const avis = new Thread('nordwind-avis', 'Lieferavis PO-7731 Teillieferung 2', 'de', 'iso-8859-1');
  avis.post({
    id: 'avis-7731-2@nordwind-logistik.de',
    from: anna,
    to: [marco],
    cc: [laura],
    at: '2024-03-26 07:45 +0100',
    body: `Hallo Herr Rossi,

die Teillieferung 2 zur Bestellung PO-7731 (324 Regale inkl. Nachlieferung) wird am Donnerstag, 28.03., zwischen 13 und 15 Uhr bei Ihnen angeliefert. Spedition: Koch Transporte, Kennzeichen HH-KT 482.

Bitte halten Sie zwei Stapler bereit.

Mit freundlichen Grüßen
Anna Schmidt
Versand / Disposition, Nordwind Logistik GmbH`,
    cte: '8bit',
  });
  avis.post({
    id: 'CAM4rco-avis-reply@mail.gmail.com',
    from: marco,
    to: [anna],
    cc: [laura],
    at: '2024-03-26 09:02 +0100',
    body: `Guten Morgen Frau Schmidt,

danke, wir sind ab 13 Uhr bereit. Rampe 3 ist für Sie reserviert.

Viele Grüße
Marco Rossi`,
    folder: 'Archive',
  });
  avis.post({
    id: 'avis-7731-2b@nordwind-logistik.de',
    from: anna,
    to: [marco],
    cc: [laura],
    at: '2024-03-28 16:20 +0100',
    body: `Sehr geehrter Herr Rossi,

anbei die Bestätigung: 324 Regale übergeben, Lieferschein LS-2024-0877 unterschrieben. Für Rückfragen stehe ich gern zur Verfügung.

Mit freundlichen Grüßen
Anna Schmidt`,
    cte: 'quoted-printable',
  });
  return [...t.messages, ...legal.messages, ...avis.messages];
}

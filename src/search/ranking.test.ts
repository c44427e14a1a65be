// Ranking quality on realistic mail: the message that is about a thing outranks one that
// only carries it in a forwarded copy, and one that merely mentions it in a notification.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BULK_FACTOR, searchMessages } from './index.js';
import { FIXTURES, openTestArchive, type TestArchive } from './test-helpers.js';

// Beside the search fixtures, so that idf is that of a mailbox, not of five messages.
const RANKING = `${FIXTURES}-ranking`;

let archive: TestArchive;
beforeAll(async () => {
  archive = await openTestArchive();
  await archive.engine.ingest([RANKING], { inbox: 'work', workers: 0 });
});
afterAll(() => archive.close());

const GMAIL_FORWARD = 'CAEh0lm8810fwdFYI@mail.gmail.com';
// Outlook's header block repeats the original subject: the cleaner files it as quoted.
const OUTLOOK_FORWARD = 'DB9PR03MB7312A1F0C4E2B8810@db9pr03mb7312.eurprd03.prod.outlook.com';

const ranked = (q: string) => searchMessages(archive.db, { q, explain: true }).messages;

describe('forwarded copies', () => {
  it('rank below the original: the receipt outranks "FYI" forwards of it', () => {
    const hits = ranked('INV-5528');
    expect(hits[0]?.messageId).toBe('0100018e1a2b8810-receipt@email.stripe.com');
    expect(hits.slice(1).map((m) => m.messageId)).toEqual(
      expect.arrayContaining([GMAIL_FORWARD, OUTLOOK_FORWARD]),
    );
    const forward = hits.find((m) => m.messageId === GMAIL_FORWARD);
    // The forwarder wrote only "FYI": the identifier is in the forwarded copy alone.
    expect(Object.keys(forward?.explain?.fields ?? {})).toContain('text_forwarded');
    expect(forward?.explain?.fields.text_authored).toBeUndefined();
    // Highlights still show the forwarded text under `text`, what the sender sent.
    expect(forward?.highlights.text?.join(' ')).toContain('**INV-5528**');
  });

  it("still match every query token across the forwarder's words and the copy", () => {
    expect(
      ranked('FYI 1932-8810')
        .map((m) => m.messageId)
        .sort(),
    ).toEqual([GMAIL_FORWARD, OUTLOOK_FORWARD].sort());
  });
});

describe('bulk and notification mail', () => {
  it("ranks below the decision it mentions, however long the decision's quoted history", () => {
    const hits = ranked('Q3 budget decision');
    expect(hits.map((m) => m.messageId).slice(0, 2)).toEqual([
      'CAD8q3decision0705x@mail.gmail.com',
      'acme-corp/finance-dashboard/issues/88@github.com',
    ]);
    const notification = hits[1]?.explain;
    expect(notification?.bulk).toBe(BULK_FACTOR);
    expect(hits[0]?.explain?.bulk).toBe(1);
    // score = bm25 × recency × bulk, as explained.
    for (const hit of hits) {
      const e = hit.explain;
      expect(hit.score).toBeCloseTo((e?.bm25 ?? 0) * (e?.recency ?? 0) * (e?.bulk ?? 0), 9);
    }
  });

  it('is still found, and first when it is the only match', () => {
    expect(ranked('quarter view January plan').map((m) => m.messageId)).toEqual([
      'acme-corp/finance-dashboard/issues/88@github.com',
    ]);
  });
});

// What only the SQLite backend does with lists: ties broken by row.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listMessages } from './index.js';
import { openTestArchive, type TestArchive } from './test-helpers.js';

let archive: TestArchive;
beforeAll(async () => {
  archive = await openTestArchive();
});
afterAll(() => archive.close());

const ids = (params: Record<string, unknown>): string[] =>
  listMessages(archive.db, { limit: 100, ...params }).messages.map((m) => m.messageId);

describe('filtered lists', () => {
  // The rest of what lists promise is the search contract (test/contract/search-contract.ts).
  it('break ties on date by row: the later row first, the earlier when ascending', () => {
    const ties = ['tie-a@birds.example', 'tie-b@birds.example'].sort(
      (a, b) => archive.rowidOf(b) - archive.rowidOf(a),
    );
    expect(ids({ after: '2024-05-01', before: '2024-05-12' })).toEqual([
      ...ties,
      'stripe-4472@mail.stripe.com',
    ]);
    expect(ids({ after: '2024-05-01', before: '2024-05-12', ascending: true })).toEqual([
      'stripe-4472@mail.stripe.com',
      ...ties.reverse(),
    ]);
  });
});

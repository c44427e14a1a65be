import { describe, expect, it } from 'vitest';
import { searchMessages } from './search.js';
import { openTestArchive } from './test-helpers.js';
import { warmUpSearch } from './warm-up.js';

describe('warmUpSearch', () => {
  it('leaves later results as they would have been', async () => {
    const cold = await openTestArchive();
    const warmed = await openTestArchive();
    try {
      warmUpSearch(warmed.db);
      for (const q of ['invoice', 'stripe.com', 'warehouse'])
        expect(searchMessages(warmed.db, { q }).messages.map((m) => m.messageId)).toEqual(
          searchMessages(cold.db, { q }).messages.map((m) => m.messageId),
        );
    } finally {
      cold.close();
      warmed.close();
    }
  });

  it('does nothing on an empty archive', async () => {
    const empty = await openTestArchive([]);
    try {
      expect(() => warmUpSearch(empty.db)).not.toThrow();
    } finally {
      empty.close();
    }
  });
});

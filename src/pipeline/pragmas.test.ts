import { describe, expect, it } from 'vitest';
import { openArchive } from '../store/index.js';
import { withPragmas } from './pragmas.js';

describe('a run with its own connection settings', () => {
  it('sees them, and leaves the connection as it found it even when it throws', async () => {
    const archive = openArchive(':memory:');
    try {
      const db = archive.db;
      const read = () => ({
        cache: db.pragma('cache_size', { simple: true }),
        checkpoint: db.pragma('wal_autocheckpoint', { simple: true }),
      });
      const before = read();
      const seen = await withPragmas(db, { cache_size: -1024, wal_autocheckpoint: 77 }, async () => read());
      expect(seen).toEqual({ cache: -1024, checkpoint: 77 });
      expect(read()).toEqual(before);
      await expect(
        withPragmas(db, { wal_autocheckpoint: 5 }, async () => {
          throw new Error('source vanished');
        }),
      ).rejects.toThrow('source vanished');
      expect(read()).toEqual(before);
    } finally {
      archive.close();
    }
  });
});

// Runs a long ingest or attachment drain without memory-mapped database reads: mapped pages
// count towards RSS (up to the archive's mmap_size) and these runs read the whole file.

import type { Db } from '../store/index.js';

/**
 * Runs `run` with mmap_size 0 on `db`, then restores it. The runs' reads (index lookups, raw
 * messages, postings merges) are served as well by the bounded page cache.
 */
export async function withoutMmap<T>(db: Db, run: () => Promise<T>): Promise<T> {
  const mmapSize = db.pragma('mmap_size', { simple: true }) as number;
  db.pragma('mmap_size = 0');
  try {
    return await run();
  } finally {
    db.pragma(`mmap_size = ${mmapSize}`);
  }
}

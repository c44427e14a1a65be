// Connection settings a long run (an ingest, an attachment drain) changes for its duration
// and restores afterwards, whatever the run throws.

import type { Db } from '../store/index.js';

/** Pragmas that take one integer and report it back with `simple: true`. */
export type RunPragma = 'mmap_size' | 'cache_size' | 'wal_autocheckpoint';

/** Runs `run` with each pragma of `settings` set on `db`, then restores the values it found. */
export async function withPragmas<T>(
  db: Db,
  settings: Readonly<Partial<Record<RunPragma, number>>>,
  run: () => Promise<T>,
): Promise<T> {
  const entries = Object.entries(settings) as Array<[RunPragma, number]>;
  const before = entries.map(([name]) => [name, db.pragma(name, { simple: true }) as number] as const);
  for (const [name, value] of entries) db.pragma(`${name} = ${value}`);
  try {
    return await run();
  } finally {
    for (const [name, value] of before) db.pragma(`${name} = ${value}`);
  }
}

/**
 * Runs `run` without memory-mapped database reads: mapped pages count towards RSS (up to the
 * archive's mmap_size) and long runs read the whole file. Their reads (index lookups, raw
 * messages, postings merges) are served as well by the bounded page cache.
 */
export function withoutMmap<T>(db: Db, run: () => Promise<T>): Promise<T> {
  return withPragmas(db, { mmap_size: 0 }, run);
}

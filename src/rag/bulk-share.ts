// Bulk mail's discount (both legs of retrieval) says that a question about what people wrote
// is answered by correspondence first: in a mailbox, newsletters and notifications repeat the
// words of every topic. In an archive that is mostly bulk, a mailing list's, it says nothing
// among the list's own messages and lifts the few that are not bulk above all of them: on
// the LKML real-mail set the only two messages without a List-Id (a one-line patch sent to
// its maintainers directly, and the ack) were in the vector leg's top three for 46 of the 48
// questions. So the discount holds only where bulk is a minority of the searched inboxes,
// judged from a sample of their messages (rowid seeks, no scan), kept per process and taken
// again when the archive has grown by a tenth.

import { type Db, sql } from '../store/index.js';

/** Messages sampled, at most: the share within a few points either way. */
const SAMPLE_SIZE = 512;

interface Judged {
  readonly maxRowid: number;
  readonly minority: boolean;
}

const judged = new WeakMap<Db, Map<string, Judged>>();

/** Whether bulk mail is less than half of the messages of `inboxIds`. */
export function bulkIsMinority(db: Db, inboxIds: readonly number[]): boolean {
  if (inboxIds.length === 0) return true;
  const maxRowid = (sql(db, 'SELECT max(rowid) FROM keyword_docs').pluck().get() as number | null) ?? 0;
  const key = [...inboxIds].sort((a, b) => a - b).join(',');
  let byInboxes = judged.get(db);
  if (!byInboxes) {
    byInboxes = new Map();
    judged.set(db, byInboxes);
  }
  const kept = byInboxes.get(key);
  if (kept && maxRowid >= kept.maxRowid && maxRowid <= kept.maxRowid * 1.1) return kept.minority;
  const next = sql(
    db,
    `SELECT rowid, bulk FROM keyword_docs WHERE rowid >= ? AND inbox_id IN (SELECT value FROM json_each(?))
     ORDER BY rowid LIMIT 1`,
  );
  const inboxes = JSON.stringify(inboxIds);
  const step = Math.max(1, maxRowid / SAMPLE_SIZE);
  let seen = 0;
  let bulk = 0;
  let last = 0;
  for (let from = 1; from <= maxRowid; from += step) {
    const row = next.get(Math.max(Math.ceil(from), last + 1), inboxes) as
      | { rowid: number; bulk: number }
      | undefined;
    if (!row) break;
    last = row.rowid;
    seen++;
    if (row.bulk) bulk++;
  }
  const minority = bulk * 2 < seen || seen === 0;
  byInboxes.set(key, { maxRowid, minority });
  return minority;
}

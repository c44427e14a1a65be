// A filtered list's identifier filters (`to`, `subject`, and `from` beside them) read on the
// postings: every match comes with its date, so a page's candidates are picked in date order
// here and only they are checked in SQL against the other filters. Through FTS5 each page
// built the whole match set first and walked the date index until the page was full: at 1M
// messages `subject invoice` took 43 ms a page, and a subject nobody has 45 ms (the walk
// reached the oldest message).

import { type Db, sql } from '../store/index.js';
import type { PageRow, RowQuery } from './list-senders.js';
import { liveMatches, type ScoredHits, select } from './postings-rank.js';
import type { Groups } from './segment-scores.js';
import { archiveState, StateCache } from './state-cache.js';

/**
 * Identifier filters' matches kept per connection while the archive holds, by rows (24 bytes
 * each: ~25 MB): a list's next page, and the HTTP thread list (one list per message of its
 * page, with the same filters), read them again (1M messages, `to acme`: 42 ms a page).
 */
const keptMatches = new StateCache<ScoredHits>(1 << 20, (hits) => hits.length);

/** Every live match of `groups` (see liveMatches), kept while the archive holds. */
export function listMatches(db: Db, groups: Groups): ScoredHits {
  return keptMatches.get(db, archiveState(db), JSON.stringify(groups), () => liveMatches(db, groups));
}

/** Forgets the matches kept for `db`. */
export function clearListMatches(db: Db): void {
  keptMatches.clear(db);
}

/** What a page may show of the matches' dates: the list's date filters and keyset. */
export interface ListWindow {
  readonly ascending: boolean;
  readonly after: number | null;
  readonly before: number | null;
  /** The last row of the previous page. */
  readonly position: { readonly date: number; readonly rowid: number } | null;
  /**
   * The rows of a small set every row belongs to (a thread, a rare label), when there is one:
   * matches outside it are never candidates, so a page does not look through all the others.
   */
  readonly among: ReadonlySet<number> | null;
}

/**
 * The page rows of `query` among `hits`: the first matches in date order are checked against
 * `query`'s conditions, more of them (four times as many each round) while the rows that
 * pass do not fill the page (other inboxes' matches, hidden labels, rarer filters).
 */
export function matchedPageRows(db: Db, query: RowQuery, hits: ScoredHits, window: ListWindow): PageRow[] {
  const keyed = dateKeyed(hits, window.ascending);
  const among = inWindow(hits, window);
  const order = window.ascending ? 'ASC' : 'DESC';
  // The candidates drive (CROSS JOIN pins the order): offered an IN list, SQLite walked the
  // date index for the ORDER BY instead, to the oldest message when few candidates passed.
  const check = sql(
    db,
    `SELECT m.id AS rowid, m.date AS date FROM json_each(@candidates) c CROSS JOIN messages m ON m.id = c.value
     WHERE ${['1', ...query.where].join(' AND ')}
     ORDER BY m.date ${order}, m.id ${order} LIMIT @rows`,
  );
  for (let depth = query.rows; ; depth *= 4) {
    const picked = select(keyed, depth, among);
    const candidates = JSON.stringify(picked.map((h) => hits.rowids[h]));
    const rows = check.all({ ...query.binds, rows: query.rows, candidates }) as PageRow[];
    if (rows.length >= query.rows || picked.length < depth) return rows;
  }
}

/**
 * `hits` keyed so that their rank order (score, date, rowid: each descending) is the list's:
 * newest first, or with `ascending` oldest first.
 */
function dateKeyed(hits: ScoredHits, ascending: boolean): ScoredHits {
  if (!ascending) return { ...hits, scores: hits.dates };
  const dates = hits.dates.map((date) => -date);
  return { ...hits, scores: dates, dates, rowids: hits.rowids.map((rowid) => -rowid) };
}

/** Indexes of the hits within the date filters, after the keyset position and among `among`. */
function inWindow(hits: ScoredHits, { ascending, after, before, position, among }: ListWindow): Int32Array {
  const kept = new Int32Array(hits.length);
  let n = 0;
  for (let h = 0; h < hits.length; h++) {
    if (among !== null && !among.has(hits.rowids[h] as number)) continue;
    const date = hits.dates[h] as number;
    if ((after !== null && date < after) || (before !== null && date >= before)) continue;
    if (position !== null) {
      const rowid = hits.rowids[h] as number;
      const later = ascending
        ? date > position.date || (date === position.date && rowid > position.rowid)
        : date < position.date || (date === position.date && rowid < position.rowid);
      if (!later) continue;
    }
    kept[n++] = h;
  }
  return kept.subarray(0, n);
}

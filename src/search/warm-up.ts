// Readies a long-lived process (serve, mcp) before its first request: a fresh process ranks
// its first queries 10-20x slower than later ones (doc tables, length norms and recency
// factors not yet read, the ranking code not yet compiled), and every request queued at
// start waits behind them.

import { MailsiftError } from '../core/errors.js';
import { type Db, sql } from '../store/index.js';
import { searchMessages, searchThreads } from './search.js';

/**
 * Searches the words of the newest message's subject once in each mode. Nothing to warm
 * (an empty archive, an index not built yet) is not an error: the first request will say.
 */
export function warmUpSearch(db: Db): void {
  const subject = sql(db, 'SELECT subject FROM messages ORDER BY id DESC LIMIT 1').pluck().get() as
    | string
    | undefined;
  const q = subject?.split(/\s+/).slice(0, 3).join(' ').trim();
  if (!q) return;
  try {
    searchMessages(db, { q });
    searchThreads(db, { q });
  } catch (error) {
    if (!(error instanceof MailsiftError)) throw error;
  }
}

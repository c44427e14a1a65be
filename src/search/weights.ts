// Ranking constants shared by both scorers (FTS5's bm25 in SQL, the postings index in
// typed arrays) and by question mode: column weights and the bulk-mail multiplier.

import type { Column } from '../index/index.js';

/**
 * bm25 column weights: who sent it and what it is called say most about a message; then
 * what its author wrote; a forwarded copy and attachment text less (the forwarded original
 * is usually in the archive too, and should outrank its forwards); stems (a weaker form of
 * the same words) and quoted history (someone else's words, already indexed in their own
 * message) least. Binary fractions on purpose: weighted counts then add up exactly in any
 * order, so the postings score a document the same whichever segment or merge holds it.
 */
export const COLUMN_WEIGHTS: Readonly<Record<Column, number>> = {
  ident_from: 4,
  ident_recipients: 2,
  ident_subject: 4,
  text_authored: 2,
  text_forwarded: 1,
  text_stems: 0.5,
  text_attachments: 1,
  text_quoted: 0.25,
  kind: 0,
};

/**
 * Relevance multiplier of mailing-list mail: newsletters, GitHub and Jira notifications
 * (the parser's List-Id). Such mail repeats the words of every topic in short, dense
 * messages, which bm25's length normalisation favours, so a one-line notification that
 * names a topic would otherwise outrank the message that is about it. Bounded like
 * recency: bulk mail scores at most this much lower, and never higher, than its bm25.
 */
export const BULK_FACTOR = 0.5;

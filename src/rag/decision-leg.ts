// The decision leg: for a question about what was decided, the decisions of the threads
// retrieval already ranks best (extracted on demand by src/decisions), each scored by its
// most relevant evidence message, listed as their evidence messages for one more fusion.
// A decision's agreement rarely shares a word with the question ("Acked-by", "applied,
// thanks"), so the keyword and vector legs leave it below the proposal it settles; here the
// settling reply travels with the proposal the question matched.

import { type DecisionRecord, type EvidenceRole, threadDecisions } from '../decisions/index.js';
import { type Db, sql } from '../store/index.js';
import { splitKey } from './fusion.js';

/** Threads whose decisions are read: each is loaded and extracted on demand (bench:decisions, ~0.1 ms a message). */
export const DECISION_THREADS = 10;
/**
 * A decision is listed only when one of its evidence messages is among this many of the
 * best ranked messages: a 40-patch series holds 40 "Applied." decisions, most about
 * something else than the question.
 */
const RELEVANT_DEPTH = 10;
/** Decisions listed at most: the few the question is about, not every settled patch of a thread. */
const MAX_DECISIONS = 3;
/**
 * The list's weight in the last fusion, beside the fused ranking and the keyword ranking (1
 * each). bench:realmail LKML, decision questions, keyword / hybrid MRR@10: without the list
 * 0.415 / 0.583; at 1 0.688 / 0.538 (an answer that is no decision's evidence fell from 2nd
 * to 7th); at 0.25 0.688 / 0.639, recall@5 unchanged.
 */
const DECISION_WEIGHT = 0.25;
/** A decision's messages in this order: the settlement answers "what was decided" first. */
const ROLE_ORDER: readonly EvidenceRole[] = ['agreement', 'revision', 'proposal', 'objection'];

export interface DecisionLeg {
  /** Evidence messages (rowids), the best decision's first, each once. */
  readonly rowids: readonly number[];
  /** Each evidence message's thread key. */
  readonly rowThread: ReadonlyMap<number, string>;
  /** The decisions listed, best first. */
  readonly decisions: readonly DecisionRecord[];
}

/**
 * The decisions of `threads` (thread keys, best first) with an evidence message among the
 * RELEVANT_DEPTH best of `ranked` (message rowids, best first), best first: by their best
 * evidence message's rank, a standing decision before a superseded one at the same rank.
 */
export function decisionLeg(
  db: Db,
  threads: readonly string[],
  ranked: readonly number[],
  inboxName: ReadonlyMap<number, string>,
): DecisionLeg {
  const rankOf = new Map(ranked.slice(0, RELEVANT_DEPTH).map((rowid, i) => [rowid, i]));
  const rowidOf = sql(db, 'SELECT id FROM messages WHERE inbox_id = ? AND message_id = ?');
  const found: Array<{ decision: DecisionRecord; rank: number; rowids: number[]; key: string }> = [];
  for (const key of threads) {
    const { inboxId, threadId } = splitKey(key);
    for (const decision of threadDecisions(
      db,
      { id: inboxId, name: inboxName.get(inboxId) ?? '' },
      threadId,
    )) {
      const evidence = decision.evidence.flatMap((e) => {
        const row = rowidOf.get(inboxId, e.messageId) as { id: number } | undefined;
        return row ? [{ rowid: row.id, role: e.role }] : [];
      });
      const rank = Math.min(...evidence.map((e) => rankOf.get(e.rowid) ?? Number.POSITIVE_INFINITY));
      if (!Number.isFinite(rank)) continue;
      found.push({
        decision,
        rank: rank + (decision.status === 'superseded' ? 0.5 : 0),
        rowids: evidence
          .sort((a, b) => ROLE_ORDER.indexOf(a.role) - ROLE_ORDER.indexOf(b.role))
          .map((e) => e.rowid),
        key,
      });
    }
  }
  const best = found.sort((a, b) => a.rank - b.rank).slice(0, MAX_DECISIONS);
  const rowThread = new Map<number, string>();
  for (const f of best) for (const rowid of f.rowids) if (!rowThread.has(rowid)) rowThread.set(rowid, f.key);
  return { rowids: [...rowThread.keys()], rowThread, decisions: best.map((f) => f.decision) };
}

/** The fusion weights of the leg's list. */
export const decisionWeights = (leg: DecisionLeg): Map<string, number> =>
  new Map(leg.rowids.map((rowid) => [String(rowid), DECISION_WEIGHT]));

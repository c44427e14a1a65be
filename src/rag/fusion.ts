// Rank fusion for hybrid retrieval: reciprocal rank fusion of the legs, one leg's own lists
// merged first, and keyword hits grouped into threads. The message list is not capped per
// thread (on real list mail a 40-message series holds the answer at its 4th best message as
// often as not, bench:realmail); the context pack reads a thread's best three.

import type { KeywordHit } from './keyword-leg.js';

export const RRF_K = 60;

/** A thread across inboxes: inbox id and thread id in one string. */
export const threadKey = (inboxId: number, threadId: string): string => `${inboxId}:${threadId}`;
export const splitKey = (key: string): { inboxId: number; threadId: string } => {
  const at = key.indexOf(':');
  return { inboxId: Number(key.slice(0, at)), threadId: key.slice(at + 1) };
};

/**
 * Adds weight/(k + rank) for each list's items (rank 1-based, first appearance counts); an
 * item's weight defaults to 1.
 */
export function fuse(
  lists: ReadonlyArray<readonly string[]>,
  weights: ReadonlyArray<ReadonlyMap<string, number>> = [],
): Map<string, number> {
  const scores = new Map<string, number>();
  lists.forEach((list, l) => {
    const seen = new Set<string>();
    let rank = 0;
    for (const key of list) {
      if (seen.has(key)) continue;
      seen.add(key);
      rank++;
      scores.set(key, (scores.get(key) ?? 0) + (weights[l]?.get(key) ?? 1) / (RRF_K + rank));
    }
  });
  return scores;
}

/**
 * Rank constant for merging one leg's own lists: steep, so a thread its summary and its
 * messages both bring near the question goes first, yet a thread only one list finds at
 * the very top (an answer in an attachment, which no summary quotes) still ranks high.
 */
const LEG_K = 5;

/**
 * One ranking from several lists of the same leg, by reciprocal rank with LEG_K, ties to
 * the best single rank. The vector leg's summary and detail lists are one leg: fused with
 * the keyword leg as two, they would outvote it two to one.
 */
export function mergeLeg(lists: ReadonlyArray<readonly string[]>): string[] {
  const merged = new Map<string, { rank: number; score: number }>();
  for (const list of lists)
    [...new Set(list)].forEach((key, i) => {
      const entry = merged.get(key) ?? { rank: Number.POSITIVE_INFINITY, score: 0 };
      merged.set(key, { rank: Math.min(entry.rank, i + 1), score: entry.score + 1 / (LEG_K + i + 1) });
    });
  return [...merged].sort((a, b) => b[1].score - a[1].score || a[1].rank - b[1].rank).map(([key]) => key);
}

/**
 * Threads of the keyword hits, best first: a thread scores its best message plus a decaying
 * share of the next two, so a conversation that keeps returning to the question's subject
 * outranks a single message that mentions it once.
 */
export function keywordThreads(hits: readonly KeywordHit[]): string[] {
  const scores = new Map<string, number[]>();
  for (const h of hits) {
    const key = threadKey(h.inboxId, h.threadId);
    scores.set(key, [...(scores.get(key) ?? []), h.score]);
  }
  return [...scores]
    .map(([key, s]) => [key, (s[0] ?? 0) + 0.5 * (s[1] ?? 0) + 0.25 * (s[2] ?? 0)] as const)
    .sort((a, b) => b[1] - a[1])
    .map(([key]) => key);
}

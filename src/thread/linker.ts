// Incremental JWZ threading (https://www.jwz.org/doc/threading.html) on References and
// In-Reply-To, with provider thread keys as extra evidence. Messages can arrive in any
// order: missing parents become placeholders, and a late message that links two
// threads merges them.

import { LIMITS } from '../core/limits.js';
import type { ThreadGraph, ThreadNode } from './graph.js';

export interface ThreadInput {
  readonly messageId: string;
  /** References, oldest first, with In-Reply-To's id last when it was not already there. */
  readonly references: readonly string[];
  /** Provider keys such as 'gm:<X-GM-THRID>' or 'ti:<Thread-Index conversation>'. */
  readonly threadKeys: readonly string[];
}

/** Links one message into the graph and returns the id of the thread it belongs to. */
export function linkMessage(graph: ThreadGraph, input: ThreadInput): string {
  const references = uniqueReferences(input.messageId, input.references);
  const threadId = resolveThread(graph, input, references);

  for (const id of references) ensureNode(graph, id, threadId, false);
  const own = graph.getNode(input.messageId);
  graph.putNode({ messageId: input.messageId, parentId: own?.parentId ?? null, threadId, present: true });

  // JWZ: each reference is the parent of the next, unless a link already exists
  // (earlier evidence wins) or the link would close a loop.
  for (let i = 0; i + 1 < references.length; i++) {
    const parentId = references[i] as string;
    const child = graph.getNode(references[i + 1] as string) as ThreadNode;
    if (child.parentId === null && !wouldLoop(graph, parentId, child.messageId)) {
      graph.putNode({ ...child, parentId });
    }
  }
  // The message's own headers are the best evidence about its parent: they replace a
  // parent guessed from another message's references.
  const parentId = references.at(-1);
  if (parentId !== undefined && !wouldLoop(graph, parentId, input.messageId)) {
    const node = graph.getNode(input.messageId) as ThreadNode;
    if (node.parentId !== parentId) graph.putNode({ ...node, parentId });
  }
  for (const key of input.threadKeys) graph.setThreadForKey(key, threadId);
  graph.flush();
  return threadId;
}

function uniqueReferences(messageId: string, references: readonly string[]): string[] {
  const seen = new Set<string>([messageId]);
  const result: string[] = [];
  for (const id of references.slice(-LIMITS.maxReferences)) {
    if (!seen.has(id)) {
      seen.add(id);
      result.push(id);
    }
  }
  return result;
}

/** Finds every thread the message touches, merges them into one and returns its id. */
function resolveThread(graph: ThreadGraph, input: ThreadInput, references: readonly string[]): string {
  const touched = new Set<string>();
  for (const id of [input.messageId, ...references]) {
    const node = graph.getNode(id);
    if (node) touched.add(node.threadId);
  }
  for (const key of input.threadKeys) {
    const threadId = graph.threadForKey(key);
    if (threadId !== undefined) touched.add(threadId);
  }
  if (touched.size === 0) return graph.newThreadId(references[0] ?? input.messageId);
  if (touched.size === 1) return touched.values().next().value as string;

  // The largest thread survives so that a merge rewrites as few rows as possible;
  // ties break on the id so the result does not depend on arrival order.
  const ranked = [...touched]
    .map((id) => ({ id, size: graph.threadSize(id) }))
    .sort((a, b) => b.size - a.size || (a.id < b.id ? -1 : 1));
  const survivor = (ranked[0] as { id: string }).id;
  graph.mergeThreads(
    survivor,
    ranked.slice(1).map((t) => t.id),
  );
  return survivor;
}

function ensureNode(graph: ThreadGraph, messageId: string, threadId: string, present: boolean): void {
  const node = graph.getNode(messageId);
  if (!node) graph.putNode({ messageId, parentId: null, threadId, present });
}

/** True when making `parentId` the parent of `childId` would close a cycle (or the chain is absurdly deep). */
export function wouldLoop(graph: ThreadGraph, parentId: string, childId: string): boolean {
  let current: string | null = parentId;
  for (let steps = 0; current !== null; steps++) {
    if (current === childId || steps > LIMITS.maxThreadDepth) return true;
    current = graph.getNode(current)?.parentId ?? null;
  }
  return false;
}

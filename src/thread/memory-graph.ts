// A ThreadGraph held in Maps: threading without a database (parse-and-thread tools,
// and the reference implementation the SQLite graph is tested against).

import { nodeCrypto } from '../core/node-crypto.js';
import type { ThreadGraph, ThreadNode } from './graph.js';

export class MemoryThreadGraph implements ThreadGraph {
  readonly nodes = new Map<string, ThreadNode>();
  readonly keys = new Map<string, string>();
  readonly aliases = new Map<string, string>();

  getNode(messageId: string): ThreadNode | undefined {
    return this.nodes.get(messageId);
  }

  putNode(node: ThreadNode): void {
    this.nodes.set(node.messageId, node);
  }

  flush(): void {
    // Puts are in the map already.
  }

  threadForKey(key: string): string | undefined {
    return this.keys.get(key);
  }

  setThreadForKey(key: string, threadId: string): void {
    this.keys.set(key, threadId);
  }

  threadSize(threadId: string): number {
    let size = 0;
    for (const node of this.nodes.values()) if (node.threadId === threadId) size++;
    return size;
  }

  mergeThreads(survivor: string, absorbed: readonly string[]): void {
    const gone = new Set(absorbed);
    for (const node of this.nodes.values()) {
      if (gone.has(node.threadId)) this.nodes.set(node.messageId, { ...node, threadId: survivor });
    }
    for (const [key, threadId] of this.keys) if (gone.has(threadId)) this.keys.set(key, survivor);
    for (const [old, target] of this.aliases) if (gone.has(target)) this.aliases.set(old, survivor);
    for (const id of absorbed) this.aliases.set(id, survivor);
  }

  newThreadId(seed: string): string {
    return threadIdFromSeed(seed);
  }
}

/** Short stable thread id: 12 base32 characters of sha256(seed). */
export function threadIdFromSeed(seed: string): string {
  const digest = nodeCrypto().createHash('sha256').update(seed).digest();
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  let out = 't';
  for (let i = 0; i < 12; i++) out += alphabet[(digest[i] as number) & 31];
  return out;
}

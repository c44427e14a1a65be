// The container graph JWZ threading works on, as an interface: the linker holds the
// algorithm, implementations hold the storage (SQLite in the store, a Map in tests).

export interface ThreadNode {
  readonly messageId: string;
  readonly parentId: string | null;
  readonly threadId: string;
  /** false for a placeholder: a parent referenced but not (or no longer) in the archive. */
  readonly present: boolean;
}

export interface ThreadGraph {
  getNode(messageId: string): ThreadNode | undefined;
  /** Inserts a node or replaces the node with the same messageId (getNode sees it at once). */
  putNode(node: ThreadNode): void;
  /** Makes the nodes put so far durable where the graph keeps them: linkMessage's last step. */
  flush(): void;
  /** Thread currently mapped to a provider key (Gmail thread id, Outlook conversation index). */
  threadForKey(key: string): string | undefined;
  setThreadForKey(key: string, threadId: string): void;
  /** Number of nodes in a thread; decides which id survives a merge. */
  threadSize(threadId: string): number;
  /** Moves every node, message and key of `absorbed` threads into `survivor`, keeping the old ids as aliases. */
  mergeThreads(survivor: string, absorbed: readonly string[]): void;
  /** A new short thread id, derived from the seed so that re-ingesting yields the same ids. */
  newThreadId(seed: string): string;
}

// Types of scripts/cluster.mjs, for the tests and benchmarks that start a cluster through it.

export interface ClusterNode {
  readonly index: number;
  readonly pid: number;
  readonly httpPort: number;
  readonly transportPort: number;
  readonly log: string;
}

export interface ClusterState {
  readonly basePort: number;
  readonly clusterName: string;
  readonly dataDir: string;
  /** Each node's JVM heap in MB (absent in states recorded before it was an option). */
  readonly heapMb?: number;
  readonly startedAt: string;
  /** Milliseconds from spawning the JVMs to green. */
  readonly greenMs?: number;
  readonly nodes: readonly ClusterNode[];
}

export interface ClusterHealth {
  readonly status: 'green' | 'yellow' | 'red';
  readonly number_of_nodes: number;
  readonly timed_out: boolean;
}

export const CLUSTER_DIR: string;
export const TRANSPORT_OFFSET: number;
export const DEFAULT_BASE_PORT: number;
export const DEFAULT_NODES: number;
export const DEFAULT_HEAP_MB: number;
export function ensureBuilt(options?: { log?: (line: string) => void }): boolean;
export function statePath(basePort: number): string;
export function readState(basePort: number): ClusterState | null;
export function isAlive(pid: number): boolean;
export function freeBasePort(nodes?: number): Promise<number>;
export function nodeUrls(state: ClusterState): string[];
export function waitForHealth(
  state: ClusterState,
  options?: { status?: 'green' | 'yellow'; nodes?: number; timeoutMs?: number },
): Promise<ClusterHealth>;
export function startCluster(options?: {
  nodes?: number;
  basePort?: number;
  heapMb?: number;
  timeoutMs?: number;
  log?: (line: string) => void;
}): Promise<ClusterState>;
/** Starts a killed node again on its data dir; returns the state with its new pid. */
export function restartNode(basePort: number, index: number): ClusterState;
export function stopCluster(basePort?: number, options?: { graceMs?: number }): Promise<{ stopped: number }>;
/** The recorded nodes with whether each process is alive; only basePort, running and nodes without a state file. */
export function clusterStatus(basePort?: number): Partial<ClusterState> & {
  readonly basePort: number;
  readonly running: boolean;
  readonly nodes: ReadonlyArray<ClusterNode & { readonly alive: boolean }>;
};

// A real OpenSearch cluster on loopback for the OpenSearch backend's tests and benchmarks:
// `npm run cluster -- start|stop|status [--nodes 3] [--base-port 9200] [--heap-mb 256] [--json]`.
// It builds cluster/ (a Maven project: OpenSearch's server jar and modules from Maven Central,
// and our launcher) when the jar is missing or older than its sources, starts one JVM per node
// (so a test can kill one node), waits for green, and records pids and ports in a state file
// per base port under cluster/target. Plain JavaScript so that `npm run cluster` needs no build;
// tests import it (types in cluster.d.mts).

import { spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const CLUSTER_DIR = join(import.meta.dirname, '..', 'cluster');
const TARGET = join(CLUSTER_DIR, 'target');
const JAR = join(TARGET, 'mailsift-cluster-1.jar');
/** Transport ports sit this far above HTTP ports (Launcher.TRANSPORT_OFFSET). */
export const TRANSPORT_OFFSET = 100;
export const DEFAULT_BASE_PORT = 9200;
export const DEFAULT_NODES = 3;
// Measured on 2 shared cores: C1 only and the serial collector reach green in ~12 s where the
// defaults (C2 + G1) took ~21 s; a 256 MB heap is enough for test indices and 100k messages
// (`--heap-mb` gives a node more for larger ones).
export const DEFAULT_HEAP_MB = 256;
const JVM_FLAGS = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', '-XX:ReservedCodeCacheSize=64m'];

function newestMtime(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

/** Builds cluster/ with `mvn -q package` unless its jar is newer than the pom and the sources. */
export function ensureBuilt({ log = () => {} } = {}) {
  const sources = Math.max(newestMtime(join(CLUSTER_DIR, 'pom.xml')), newestMtime(join(CLUSTER_DIR, 'src')));
  const built = [JAR, join(TARGET, 'lib'), join(TARGET, 'knn')].every((path) => existsSync(path));
  if (built && statSync(JAR).mtimeMs >= sources) return false;
  log('building cluster/ (mvn -q package)…');
  const result = spawnSync('mvn', ['-q', '-B', 'package'], { cwd: CLUSTER_DIR, encoding: 'utf8' });
  if (result.error) throw new Error(`cannot run mvn (is Maven installed?): ${result.error.message}`);
  if (result.status !== 0) throw new Error(`mvn package failed:\n${result.stdout}${result.stderr}`);
  return true;
}

export function statePath(basePort) {
  return join(TARGET, `cluster-${basePort}.json`);
}

export function readState(basePort) {
  const path = statePath(basePort);
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : null;
}

export function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function portFree(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A base port whose HTTP and transport ports for `nodes` nodes are all free (for tests). */
export async function freeBasePort(nodes = DEFAULT_NODES) {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 20_000);
    const ports = Array.from({ length: nodes }, (_, i) => [base + i, base + TRANSPORT_OFFSET + i]).flat();
    if ((await Promise.all(ports.map(portFree))).every(Boolean)) return base;
  }
  throw new Error('no free port range found');
}

export function nodeUrls(state) {
  return state.nodes.map((n) => `http://127.0.0.1:${n.httpPort}`);
}

/** Waits until some live node reports `status` with `nodes` nodes; throws after `timeoutMs`. */
export async function waitForHealth(
  state,
  { status = 'green', nodes = state.nodes.length, timeoutMs = 120_000 } = {},
) {
  const deadline = Date.now() + timeoutMs;
  const query = `wait_for_status=${status}&wait_for_nodes=${nodes}&timeout=1s`;
  let last = 'no answer';
  while (Date.now() < deadline) {
    for (const node of state.nodes.filter((n) => isAlive(n.pid))) {
      try {
        const response = await fetch(`http://127.0.0.1:${node.httpPort}/_cluster/health?${query}`, {
          signal: AbortSignal.timeout(5_000),
        });
        const body = await response.json();
        last = `${body.status}, ${body.number_of_nodes} nodes`;
        if (response.ok && !body.timed_out) return body;
        break;
      } catch (error) {
        last = error.message;
      }
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`cluster not ${status} with ${nodes} nodes after ${timeoutMs} ms (last: ${last})`);
}

function logTail(path) {
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').slice(-15).join('\n') : '(no log)';
}

/** Starts node `index` of `state`'s cluster (its log appended to) and returns its record. */
function spawnNode(state, index, nodes) {
  const logPath = join(state.dataDir, `node-${index}.log`);
  const fd = openSync(logPath, 'a');
  const args = [String(index), String(nodes), String(state.basePort), state.clusterName];
  const child = spawn(
    'java',
    [
      `-Xms${state.heapMb ?? DEFAULT_HEAP_MB}m`,
      `-Xmx${state.heapMb ?? DEFAULT_HEAP_MB}m`,
      ...JVM_FLAGS,
      '-cp',
      `${JAR}:${join(TARGET, 'lib', '*')}:${join(TARGET, 'knn', '*')}`,
      'dev.mailsift.cluster.Launcher',
      state.dataDir,
      ...args,
    ],
    // Detached: the nodes outlive `npm run cluster -- start`; `stop` ends them by pid.
    { detached: true, stdio: ['ignore', fd, fd] },
  );
  closeSync(fd);
  child.unref();
  return {
    index,
    pid: child.pid,
    httpPort: state.basePort + index,
    transportPort: state.basePort + TRANSPORT_OFFSET + index,
    log: logPath,
  };
}

/**
 * Starts a stopped or killed node again on its data dir (it rejoins: the cluster is
 * bootstrapped already) and records its new pid. Returns the new state.
 */
export function restartNode(basePort, index) {
  const state = readState(basePort);
  const node = state?.nodes.find((n) => n.index === index);
  if (!state || !node) throw new Error(`no node ${index} recorded on base port ${basePort}`);
  if (isAlive(node.pid)) throw new Error(`node-${index} is running (pid ${node.pid})`);
  const restarted = {
    ...state,
    nodes: state.nodes.map((n) => (n === node ? spawnNode(state, index, state.nodes.length) : n)),
  };
  writeFileSync(statePath(basePort), JSON.stringify(restarted, null, 2));
  return restarted;
}

/**
 * Builds if needed, starts `nodes` JVMs on fresh data dirs and waits for green. Returns the
 * state it records: { basePort, clusterName, dataDir, startedAt, greenMs, nodes: [{ index, pid,
 * httpPort, transportPort, log }] }.
 */
export async function startCluster({
  nodes = DEFAULT_NODES,
  basePort = DEFAULT_BASE_PORT,
  heapMb = DEFAULT_HEAP_MB,
  timeoutMs = 150_000,
  log = () => {},
} = {}) {
  const existing = readState(basePort);
  if (existing?.nodes.some((n) => isAlive(n.pid)))
    throw new Error(
      `a cluster is already running on base port ${basePort} (npm run cluster -- stop --base-port ${basePort})`,
    );
  ensureBuilt({ log });
  mkdirSync(TARGET, { recursive: true });
  const dataDir = mkdtempSync(join(tmpdir(), `mailsift-opensearch-${basePort}-`));
  // A name per start: nodes of another cluster on nearby ports can never join this one.
  const clusterName = `mailsift-${basePort}-${process.pid}`;
  const started = Date.now();
  const state = {
    basePort,
    clusterName,
    dataDir,
    heapMb,
    startedAt: new Date(started).toISOString(),
    nodes: [],
  };
  for (let index = 0; index < nodes; index++) state.nodes.push(spawnNode(state, index, nodes));
  writeFileSync(statePath(basePort), JSON.stringify(state, null, 2));
  log(`started ${nodes} nodes, waiting for green…`);
  try {
    await waitForHealth(state, { timeoutMs });
  } catch (error) {
    const tails = state.nodes.map(
      (n) => `--- node-${n.index} (${isAlive(n.pid) ? 'alive' : 'dead'})\n${logTail(n.log)}`,
    );
    await stopCluster(basePort);
    throw new Error(`${error.message}\n${tails.join('\n')}`);
  }
  state.greenMs = Date.now() - started;
  writeFileSync(statePath(basePort), JSON.stringify(state, null, 2));
  return state;
}

/** SIGTERM every node (the launcher closes its node), SIGKILL what is left after `graceMs`, remove the data. */
export async function stopCluster(basePort = DEFAULT_BASE_PORT, { graceMs = 15_000 } = {}) {
  const state = readState(basePort);
  if (!state) return { stopped: 0 };
  const live = state.nodes.filter((n) => isAlive(n.pid));
  for (const node of live) process.kill(node.pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (live.some((n) => isAlive(n.pid)) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 100));
  for (const node of live.filter((n) => isAlive(n.pid))) process.kill(node.pid, 'SIGKILL');
  rmSync(state.dataDir, { recursive: true, force: true });
  rmSync(statePath(basePort), { force: true });
  return { stopped: live.length };
}

/** The recorded nodes, each with whether its process is alive. */
export function clusterStatus(basePort = DEFAULT_BASE_PORT) {
  const state = readState(basePort);
  if (!state) return { basePort, running: false, nodes: [] };
  const nodes = state.nodes.map((n) => ({ ...n, alive: isAlive(n.pid) }));
  return { ...state, running: nodes.some((n) => n.alive), nodes };
}

function parseArgs(argv) {
  const [command, ...rest] = argv;
  const options = {
    command,
    nodes: DEFAULT_NODES,
    basePort: DEFAULT_BASE_PORT,
    heapMb: DEFAULT_HEAP_MB,
    json: false,
  };
  const numeric = { '--nodes': 'nodes', '--base-port': 'basePort', '--heap-mb': 'heapMb' };
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === '--json') options.json = true;
    else if (arg in numeric) {
      const value = Number(rest[++i]);
      if (!Number.isInteger(value) || value < 1 || value > 65_000)
        throw new Error(`${arg} needs a positive integer`);
      options[numeric[arg]] = value;
    } else throw new Error(`unknown argument: ${arg}`);
  }
  if (!['start', 'stop', 'status'].includes(command ?? ''))
    throw new Error(
      'usage: npm run cluster -- start|stop|status [--nodes 3] [--base-port 9200] [--heap-mb 256] [--json]',
    );
  return options;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const log = options.json ? () => {} : (line) => process.stderr.write(`${line}\n`);
  let result;
  if (options.command === 'start')
    result = await startCluster({
      nodes: options.nodes,
      basePort: options.basePort,
      heapMb: options.heapMb,
      log,
    });
  else if (options.command === 'stop') result = await stopCluster(options.basePort);
  else result = clusterStatus(options.basePort);
  if (options.json) return process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  if (options.command === 'start')
    process.stdout.write(`green in ${(result.greenMs / 1000).toFixed(1)} s: ${nodeUrls(result).join(' ')}\n`);
  else if (options.command === 'stop') process.stdout.write(`stopped ${result.stopped} nodes\n`);
  else if (!result.running) process.stdout.write(`no cluster on base port ${options.basePort}\n`);
  else
    for (const n of result.nodes)
      process.stdout.write(
        `node-${n.index}  pid ${n.pid}  http ${n.httpPort}  transport ${n.transportPort}  ${n.alive ? 'alive' : 'dead'}\n`,
      );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error) => {
    process.stderr.write(`cluster: ${error.message}\n`);
    process.exit(1);
  });
}

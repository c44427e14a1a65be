// A second thread that decodes and scores part of a query's postings segments while the
// calling thread does the rest, as Lucene searches segments concurrently: on a 1M archive a
// word query spends ~75% of its time there. Measured with an idle second core (bench:search,
// back to back): two-word p50 25.6 -> 21.6 ms, three-word p95 95.8 -> 75.7 ms. Far from
// halved: the rest of a search is serial, and the threads probably share memory bandwidth.
// Searches stay synchronous: the calling thread blocks on a shared counter for the
// thread's part, which arrives on a MessagePort it reads without its event loop. Requests
// come the same way, so the thread can wait for a search's score request without its
// event loop too (rank-worker.ts).

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';
import type { PostingsView, Segment } from '../index/index.js';
import type { Db } from '../store/index.js';
import { keptHitsBytes } from './hits-cache.js';
import type { PostingsPhrase } from './match.js';
import type { RankContext } from './ranked-query.js';
import { type Groups, maskCounts, type ScoredHits, type ScoreInputs } from './segment-scores.js';

/**
 * Archives smaller than this rank on one thread: a query over them takes a few
 * milliseconds, and each hand-off to the thread costs ~0.1 ms (see bench:search).
 */
const MIN_SHARED_DOCUMENTS = 50_000;
/** Longest wait for the thread's part; past it the calling thread does that part itself. */
const REPLY_TIMEOUT_MS = 10_000;

/** What the calling thread sends. */
export type RankRequest =
  | {
      readonly type: 'decode';
      readonly seq: number;
      readonly generation: string;
      readonly segments: ReadonlyArray<{ readonly id: number; readonly docs: number; readonly dead: number }>;
      readonly groups: Groups;
      readonly weights: readonly number[];
      readonly keepHits: number;
    }
  | { readonly type: 'counts'; readonly seq: number }
  | {
      readonly type: 'score';
      readonly seq: number;
      readonly idf: readonly number[];
      readonly avgdl: number;
      readonly ctx: RankContext | null;
      readonly keep: number | null;
    }
  | { readonly type: 'clear' };

/** What the thread answers: null when it could not (its snapshot differs, or it failed). */
export type RankReply =
  | { readonly seq: number; readonly counts: number[] | null }
  | { readonly seq: number; readonly scored: ScoredHits | null };

/** One search's share of the thread: its segments, and its answers in order. */
export interface SharedRanking {
  readonly segments: readonly Segment[];
  /**
   * Each phrase's live matches in the thread's segments (null: rank them here): read from
   * their mask counts on the calling thread when those suffice (no wait for the thread; the
   * large segments' were read to split the work), else asked of the thread.
   */
  counts(): number[] | null;
  /** Starts scoring the thread's segments. */
  score(inputs: ScoreInputs): void;
  /** The thread's scored matches (null: score them here). */
  scored(): ScoredHits | null;
}

class RankThread {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  /** [0]: replies sent, [1]: 1 once the thread has opened the archive, [2]: requests sent. */
  private readonly signal: Int32Array;
  private seq = 0;
  private alive = true;
  /** Searches the thread took part in, and those it gave back (stale snapshot, failure). */
  readonly use = { shared: 0, declined: 0 };
  /** Settles once the thread has opened the archive, or has stopped. */
  readonly started: Promise<void>;

  constructor(
    script: string,
    path: string,
    readonly minDocuments: number,
  ) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.signal = new Int32Array(new SharedArrayBuffer(12));
    this.worker = new Worker(script, {
      workerData: { path, port: port2, signal: this.signal },
      transferList: [port2],
    });
    this.worker.unref();
    this.started = new Promise((resolve) => {
      const stop = (): void => {
        this.alive = false;
        resolve();
      };
      this.worker.once('message', () => resolve());
      this.worker.on('error', stop);
      this.worker.on('exit', stop);
    });
  }

  get ready(): boolean {
    return this.alive && Atomics.load(this.signal, 1) === 1;
  }

  post(request: RankRequest): void {
    this.port.postMessage(request);
    Atomics.add(this.signal, 2, 1);
    Atomics.notify(this.signal, 2);
  }

  nextSeq(): number {
    this.seq += 1;
    return this.seq;
  }

  /** The reply to `seq`, waiting for it; null when none comes in time (the thread is then retired). */
  reply(seq: number): RankReply | null {
    const deadline = Date.now() + REPLY_TIMEOUT_MS;
    for (;;) {
      // Read the counter before the port: a reply posted after this read moves the counter,
      // and the wait below returns at once.
      const sent = Atomics.load(this.signal, 0);
      const received = receiveMessageOnPort(this.port);
      if (received) {
        const reply = received.message as RankReply;
        if (reply.seq === seq) return reply;
        continue;
      }
      const left = deadline - Date.now();
      if (left <= 0 || !this.alive) {
        this.close();
        return null;
      }
      Atomics.wait(this.signal, 0, sent, left);
    }
  }

  close(): Promise<number> {
    this.alive = false;
    this.port.close();
    return this.worker.terminate();
  }
}

const threads = new WeakMap<Db, RankThread>();

/**
 * Starts a rank thread for this connection (long-lived processes: serve, mcp, benchmarks),
 * settling once it has opened the archive read-only; until then searches rank on the
 * calling thread alone. A file-less (in-memory) archive, or a build without the thread's
 * script (tests run from sources), has none.
 */
export function startRankThread(db: Db, minDocuments = MIN_SHARED_DOCUMENTS): Promise<void> {
  const running = threads.get(db);
  if (running) return running.started;
  const script = fileURLToPath(new URL('./rank-worker.js', import.meta.url));
  if (db.memory || !existsSync(script)) return Promise.resolve();
  const thread = new RankThread(script, db.name, minDocuments);
  threads.set(db, thread);
  return thread.started;
}

/** Stops this connection's rank thread, if it has one. */
export async function stopRankThread(db: Db): Promise<void> {
  const thread = threads.get(db);
  threads.delete(db);
  await thread?.close();
}

/** How often this connection's rank thread took part in a search, or null without one. */
export function rankThreadUse(db: Db): { readonly shared: number; readonly declined: number } | null {
  const thread = threads.get(db);
  return thread ? { ...thread.use } : null;
}

/** Makes the thread forget its kept hits, as clearRankCache does for this one. */
export function clearRankThread(db: Db): void {
  const thread = threads.get(db);
  if (thread?.ready) thread.post({ type: 'clear' });
}

/**
 * The thread's share of one search over `view`, started at once (the thread decodes while
 * the caller does its own segments), or null when this search ranks on one thread.
 */
export function shareRanking(
  db: Db,
  view: PostingsView,
  groups: Groups,
  weights: readonly number[],
): SharedRanking | null {
  const thread = threads.get(db);
  if (!thread?.ready || view.documents < thread.minDocuments || view.segments.length < 2) return null;
  const phrases = groups.flat();
  const { segments, counted } = threadSegments(db, view.segments, phrases, weights);
  const seq = thread.nextSeq();
  thread.post({
    type: 'decode',
    seq,
    generation: view.generation,
    segments: segments.map((s) => ({ id: s.id, docs: s.table.length, dead: s.deadCount })),
    groups,
    weights,
    keepHits: keptHitsBytes(),
  });
  /** The thread's segments' counts from their mask counts, or null when one needs the thread. */
  const countsFromMasks = (): number[] | null => {
    const total = new Array<number>(phrases.length).fill(0);
    for (const segment of segments) {
      const matches = counted.get(segment) ?? maskCounts(db, segment, phrases, weights);
      if (matches === null) return null;
      matches.forEach((n, p) => {
        total[p] = (total[p] as number) + n;
      });
    }
    return total;
  };
  return {
    segments,
    counts() {
      const here = countsFromMasks();
      if (here !== null) return here;
      thread.post({ type: 'counts', seq });
      const reply = thread.reply(seq);
      const counts = reply && 'counts' in reply ? reply.counts : null;
      if (counts === null) thread.use.declined++;
      return counts;
    },
    score({ idf, avgdl, ctx, keep = null }) {
      thread.post({ type: 'score', seq, idf, avgdl, ctx, keep });
    },
    scored() {
      const reply = thread.reply(seq);
      const scored = reply && 'scored' in reply ? reply.scored : null;
      if (scored === null) thread.use.declined++;
      else thread.use.shared++;
      return scored;
    },
  };
}

/** Segments holding at least this share of the documents have their work counted, not estimated. */
const COUNTED_SHARE = 0.1;

/**
 * The thread's segments: about half the search's work, the largest first to whichever
 * side has less so far, the thread first (it starts a little later). A segment's work is
 * its phrases' matches: read from the mask counts of the large segments (a few lookups),
 * estimated for the others from the large ones' matches per document; by documents alone
 * when no mask count answers (a prefix expanding to several terms). Measured on the 1M archive: by
 * documents, the thread's share of a two-word query's postings entries ranged 43-53%
 * (10th-90th percentile), and the caller waited 2.7 ms a search for it on average.
 */
function threadSegments(
  db: Db,
  segments: readonly Segment[],
  phrases: readonly PostingsPhrase[],
  weights: readonly number[],
): { segments: Segment[]; counted: ReadonlyMap<Segment, number[]> } {
  const documents = segments.reduce((sum, segment) => sum + segment.table.length, 0);
  const counted = segments.filter((segment) => segment.table.length >= documents * COUNTED_SHARE);
  // Each phrase's matches per large segment, kept for the caller's counts (SharedRanking.counts).
  const matchesOf = new Map<Segment, number[]>();
  const work = new Map<Segment, number>();
  let countedWork = 0;
  let countedDocs = 0;
  for (const segment of counted) {
    const matches = maskCounts(db, segment, phrases, weights);
    if (matches === null) break;
    const sum = matches.reduce((a, b) => a + b, 0);
    matchesOf.set(segment, matches);
    work.set(segment, sum);
    countedWork += sum;
    countedDocs += segment.table.length;
  }
  // No match in the large segments says nothing of the small ones (recent mail, say): by documents.
  const perDocument = work.size === counted.length && countedWork > 0 ? countedWork / countedDocs : null;
  const workOf = (segment: Segment): number =>
    perDocument === null ? segment.table.length : (work.get(segment) ?? segment.table.length * perDocument);
  const theirs: Segment[] = [];
  let them = 0;
  let us = 0;
  for (const segment of [...segments].sort((a, b) => workOf(b) - workOf(a))) {
    if (them <= us) {
      theirs.push(segment);
      them += workOf(segment);
    } else us += workOf(segment);
  }
  return { segments: theirs, counted: matchesOf };
}

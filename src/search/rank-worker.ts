// The rank thread's side (rank-thread.ts): its own read-only connection to the archive,
// decoding and scoring the segments the calling thread hands it, one search at a time.

import { type MessagePort, parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { openPostings, type Segment } from '../index/index.js';
import { clearHitsCache, keepDecodedHits, keptHitsBytes } from './hits-cache.js';
import type { PhraseSource } from './phrase-hits.js';
import type { RankReply, RankRequest } from './rank-thread.js';
import { type Groups, liveCounts, readSegments, scoreSegments } from './segment-scores.js';

const { path, port, signal } = workerData as { path: string; port: MessagePort; signal: Int32Array };

/**
 * Longest wait for a search's score request once its counts are sent. The calling thread
 * sends it as soon as its own segments are read; waited for here rather than in the
 * event loop, it is scored sooner and faster (1M archive, load 2-3, bench queries, mean:
 * the caller's wait for this part 4.0-6.0 -> 2.1-3.1 ms, slowest tenth 11-16 -> 3.4-8.5 ms).
 */
const SCORE_WAIT_MS = 1_000;

const db = new Database(path, { readonly: true, fileMustExist: true });
db.pragma('cache_size = -16384');
db.pragma('mmap_size = 67108864');

/**
 * The search being served: its phrases' sources read in 'decode' (blobs, and the matches of
 * phrases not scored as they are decoded), scored in 'score'.
 */
let current: {
  readonly seq: number;
  readonly segments: readonly Segment[];
  readonly sources: PhraseSource[][];
  readonly groups: Groups;
} | null = null;

function answer(reply: RankReply, transfer: ArrayBuffer[] = []): void {
  port.postMessage(reply, transfer);
  Atomics.add(signal, 0, 1);
  Atomics.notify(signal, 0);
}

/** The requested segments as this connection reads them, or null when any differs from the caller's. */
function sameSegments(request: Extract<RankRequest, { type: 'decode' }>): Segment[] | null {
  const view = openPostings(db);
  if (view.generation !== request.generation) return null;
  const byId = new Map(view.segments.map((segment) => [segment.id, segment]));
  const segments: Segment[] = [];
  for (const wanted of request.segments) {
    const segment = byId.get(wanted.id);
    // Segments never change once written and tombstones only accumulate: equal counts, equal contents.
    if (segment?.table.length !== wanted.docs || segment.deadCount !== wanted.dead) return null;
    segments.push(segment);
  }
  return segments;
}

/** The next request, waited for up to `ms` (null: none came). */
function nextRequest(ms: number): RankRequest | null {
  const deadline = Date.now() + ms;
  for (;;) {
    // Read the counter before the port, as the calling thread does for replies.
    const sent = Atomics.load(signal, 2);
    const received = receiveMessageOnPort(port);
    if (received) return received.message as RankRequest;
    const left = deadline - Date.now();
    if (left <= 0) return null;
    Atomics.wait(signal, 2, sent, left);
  }
}

/** Reads the segments' sources, then serves the search's next request at once when it comes soon enough. */
function decode(request: Extract<RankRequest, { type: 'decode' }>): RankRequest | null {
  current = null;
  if (keptHitsBytes() !== request.keepHits) keepDecodedHits(request.keepHits);
  const phrases = request.groups.flat();
  const decoded = db.transaction(() => {
    const segments = sameSegments(request);
    return segments && { segments, sources: readSegments(db, segments, phrases, request.weights) };
  })();
  if (decoded === null) {
    answer({ seq: request.seq, counts: null });
    return null;
  }
  current = { seq: request.seq, ...decoded, groups: request.groups };
  return nextRequest(SCORE_WAIT_MS);
}

/** Answers the search's counts, when the caller could not read them itself; then waits for its score request. */
function counts(request: Extract<RankRequest, { type: 'counts' }>): RankRequest | null {
  if (current?.seq !== request.seq) {
    answer({ seq: request.seq, counts: null });
    return null;
  }
  const { segments, sources, groups } = current;
  answer({ seq: request.seq, counts: liveCounts(segments, sources, groups.flat().length) });
  return nextRequest(SCORE_WAIT_MS);
}

function score(request: Extract<RankRequest, { type: 'score' }>): void {
  if (current?.seq !== request.seq) {
    answer({ seq: request.seq, scored: null });
    return;
  }
  const { segments, sources, groups } = current;
  current = null;
  const scored = scoreSegments(segments, sources, {
    groups,
    idf: request.idf,
    avgdl: request.avgdl,
    ctx: request.ctx,
    keep: request.keep,
    tables: openPostings(db).segments.map((segment) => segment.table),
  });
  answer({ seq: request.seq, scored }, [
    scored.rowids.buffer as ArrayBuffer,
    scored.dates.buffer as ArrayBuffer,
    scored.scores.buffer as ArrayBuffer,
  ]);
}

/** Serves `request`, and the request a decode waited for after it. */
function serve(first: RankRequest): void {
  for (let request: RankRequest | null = first; request !== null; ) {
    const served: RankRequest = request;
    request = null;
    try {
      if (served.type === 'clear') clearHitsCache();
      else if (served.type === 'decode') request = decode(served);
      else if (served.type === 'counts') request = counts(served);
      else score(served);
    } catch {
      // The caller ranks this part itself; a broken archive fails there with its own error.
      current = null;
      if (served.type === 'decode' || served.type === 'counts') answer({ seq: served.seq, counts: null });
      else if (served.type === 'score') answer({ seq: served.seq, scored: null });
    }
  }
}

port.on('message', serve);

Atomics.store(signal, 1, 1);
parentPort?.postMessage('ready');

// Ingest orchestration: scan each source, skip what is unchanged, prepare the rest in
// parallel, write in scan order in batched transactions, then sweep what disappeared.
// A batch commits as a whole, so a killed run loses at most its open batch, and
// re-running finishes the job: stored locations are skipped, re-read copies dedupe. A source
// on a server (IMAP) runs through the same path; what it saw per folder is kept with the
// transaction that completes it.

import { describeError, isSourceFailure, MailsiftError } from '../core/errors.js';
import { withBoundedHeapGrowth } from '../core/heap-growth.js';
import type { MailSource, SkippedFiles, SourceEntry } from '../core/types.js';
import { type ImapOpenOptions, openSource } from '../source/index.js';
import type { Archive } from '../store/archive.js';
import { hasExtraction, saveExtraction } from '../store/index.js';
import { type Inbox, MessageStore } from '../store/message-store.js';
import type { PreparedMessage } from '../store/records.js';
import {
  loadFolderStates,
  recordedCredential,
  saveCredential,
  saveFolderStates,
  saveSourceError,
} from '../store/source-state.js';
import { type ExtractPendingReport, extractPending } from './extract-pending.js';
import { withPragmas } from './pragmas.js';
import { sha256 } from './prepare.js';
import { createPreparePool, type PreparePool } from './prepare-pool.js';

export interface IngestOptions {
  /** Inbox the messages belong to (default 'default'). */
  readonly inbox?: string;
  /** Worker threads for parsing; 0 parses inline. Default: one per core. */
  readonly workers?: number;
  /** Messages per transaction (default 32,000). */
  readonly batchSize?: number;
  /**
   * Messages whose index writes are flushed together inside a transaction (default 8,000):
   * each flush is one postings segment, so what the index stages stays bounded however
   * large the transaction.
   */
  readonly indexFlushSize?: number;
  readonly mboxFormat?: 'mboxrd' | 'mboxo';
  /** For imap:// and imaps:// sources: credentials, folders, CA. */
  readonly imap?: Omit<ImapOpenOptions, 'recorded'>;
  /** Called at most every progressIntervalMs, and once per source at its end. */
  readonly onProgress?: (progress: IngestProgress) => void;
  readonly progressIntervalMs?: number;
  /**
   * Extract pending attachment text once the messages are stored (default true). Messages
   * are searchable before that; `false` leaves the backlog to extractPending().
   */
  readonly extractAttachments?: boolean;
  readonly onExtractionProgress?: (done: number, total: number) => void;
}

export interface IngestCounts {
  /** Messages the sources hold. */
  scanned: number;
  /** New messages stored. */
  added: number;
  /** Copies of messages already stored (same Message-ID and content, or same bytes). */
  duplicates: number;
  /** Same Message-ID with different content: stored as flagged variants. */
  variants: number;
  /** Locations skipped because nothing changed since the last run. */
  unchanged: number;
  /** Messages that could not be read or parsed (recorded with their reason). */
  failed: number;
  /** Messages removed because their last location disappeared. */
  deleted: number;
  /** Bytes read and prepared. */
  bytes: number;
}

export interface IngestProgress extends IngestCounts {
  readonly source: string;
  readonly elapsedMs: number;
  readonly done: boolean;
}

export interface IngestReport extends IngestCounts {
  readonly inbox: string;
  readonly sources: readonly string[];
  /** Files under the sources passed over as not mail, per kind with its reason and a first path. */
  readonly skipped: readonly SkippedFiles[];
  /** Storing and indexing the messages, without the attachment extraction that follows. */
  readonly elapsedMs: number;
  /** Attachment text extracted after storing (absent when extraction was not asked for). */
  readonly extraction?: ExtractPendingReport;
}

type Outcome =
  | {
      kind: 'stored';
      rowid?: number;
      prepared?: PreparedMessage;
      bytes: number;
    }
  /** A stored message kept for this location unread: new labels, or moved from another folder. */
  | { kind: 'kept'; rowid: number }
  | { kind: 'failed'; reason: string };

/** What one ingest run shares across sources. */
interface RunContext {
  readonly store: MessageStore;
  readonly inbox: Inbox;
  readonly pool: PreparePool;
}

interface Task {
  readonly entry: SourceEntry;
  /** Raw bytes read for it: what it holds in flight until written. */
  readonly bytes: number;
  readonly outcome: Promise<Outcome>;
}

/**
 * Messages per transaction. Each commit costs the ingest thread a share that grows with the
 * archive: the random-keyed b-trees (Message-ID, raw hash, thread nodes and their thread
 * index, senders) each have a leaf page dirtied by nearly every message of a small batch once
 * they outgrow the page cache, and every dirty page goes to the WAL and back at the
 * checkpoint. A larger transaction rewrites each such leaf once for more messages.
 * 100k cold (fresh archive, the same VM, interleaved): 1,000 messages or 2 s a batch 890-929
 * msg/s, 1.98-2.06 ms CPU a message, 5.2-5.3 GB written, peak RSS 337 MB; 4,000 / 8 s 996
 * msg/s, 1.86 ms, 2.8 GB; 8,000 / 16 s 973-1,006 msg/s, 1.84-1.91 ms, 2.2 GB, 390-415 MB. Into
 * a 1M archive, 1,000 a batch wrote 460 KB a message (20k added: 455 msg/s; the 1M build went
 * from 647 to 806 msg/s with 8,000). 60k messages into a 1.1-1.5M archive, interleaved:
 * 8,000 a transaction 543-682 msg/s (median 641 of 11 runs), commits 0.32-0.36 ms a message,
 * 141-197 KB a message written to disk; 32,000 (index flushed every 8,000) 608-725 (median 698
 * of 4), commits 0.09-0.12 ms, 98-116 KB, peak RSS 363-368 against 360-401 MB; the WAL peaks
 * at 1.4 GB against 0.76.
 */
const DEFAULT_BATCH = 32_000;
/**
 * Messages between index flushes inside a transaction: the batch's postings become a segment
 * (and its FTS5 rows are written) every this many, as when this was the transaction's size.
 * One segment for a whole 32,000-message transaction held its staged postings and then the
 * segment built from them (~120 MB of buffers at the commit): peak RSS 505-511 MB.
 */
const INDEX_FLUSH_MESSAGES = 8000;
/**
 * Raw bytes prepared ahead of the writes, whatever the pool's capacity: a run of large
 * messages (attachments) cannot pile up in memory while the ingest thread commits.
 */
const MAX_IN_FLIGHT_BYTES = 32 * 1024 * 1024;
/**
 * A batch also commits after this long, so a slow source still makes durable progress; long
 * enough for a full batch at a 1M archive's pace (~600 messages a second).
 */
const MAX_BATCH_MS = 60_000;

export function ingest(
  archive: Archive,
  paths: readonly string[],
  options: IngestOptions = {},
): Promise<IngestReport> {
  return withBoundedHeapGrowth(() => ingestPaths(archive, paths, options));
}

async function ingestPaths(
  archive: Archive,
  paths: readonly string[],
  options: IngestOptions,
): Promise<IngestReport> {
  if (paths.length === 0)
    throw new MailsiftError('invalid_argument', 'no source path given', { param: 'path' });
  // Open every source first: a bad path, a refused login fails the command before anything is written.
  const inboxName = options.inbox ?? 'default';
  const imap = { ...options.imap, recorded: (url: string) => recordedCredential(archive.db, url) };
  const sources: MailSource[] = [];
  try {
    for (const path of paths) {
      const source = await openSource(path, { mboxFormat: options.mboxFormat, imap });
      sources.push(source);
      await source.remote?.connect().catch((error: unknown) => {
        // The source's status shows why; a source never synced is not recorded by a failure.
        saveSourceError(archive.db, source.path, inboxName, describeError(error));
        throw error;
      });
    }
    return await ingestSources(archive, sources, inboxName, options);
  } finally {
    for (const source of sources) await source.remote?.close();
  }
}

async function ingestSources(
  archive: Archive,
  sources: readonly MailSource[],
  inboxName: string,
  options: IngestOptions,
): Promise<IngestReport> {
  const store = new MessageStore(archive);
  const inbox = store.inbox(inboxName);
  const context: RunContext = {
    store,
    inbox,
    pool: createPreparePool({
      workers: options.workers,
      keywordDocument: archive.hooks.some((hook) => hook.usesKeywordDocument === true),
    }),
  };
  const started = Date.now();
  const totals = emptyCounts();
  const skipped: SkippedFiles[] = [];
  try {
    await withPragmas(store.db, INGEST_PRAGMAS, async () => {
      for (const source of sources) {
        addCounts(totals, await ingestSource(context, source, options));
        skipped.push(...source.skipped());
      }
    });
  } finally {
    await context.pool.close();
  }
  const elapsedMs = Date.now() - started;
  const extraction =
    options.extractAttachments === false
      ? undefined
      : await extractPending(archive, {
          workers: options.workers === 0 ? 0 : 1,
          onProgress: options.onExtractionProgress,
        });
  return {
    ...totals,
    inbox: inbox.name,
    sources: sources.map((s) => s.path),
    skipped: mergeSkipped(skipped),
    elapsedMs,
    ...(extraction ? { extraction } : {}),
  };
}

async function ingestSource(
  context: RunContext,
  source: MailSource,
  options: IngestOptions,
): Promise<IngestCounts> {
  const { store, inbox, pool } = context;
  const db = store.db;
  const sourceId = store.source(inbox, source.kind, source.path);
  const run = nextRun(store, sourceId);
  const counts = emptyCounts();
  const started = Date.now();
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  const indexFlushSize = options.indexFlushSize ?? INDEX_FLUSH_MESSAGES;
  const interval = options.progressIntervalMs ?? 200;
  let lastProgress = 0;
  const report = (done: boolean): void => {
    const now = Date.now();
    if (!options.onProgress || (!done && now - lastProgress < interval)) return;
    lastProgress = now;
    options.onProgress({ ...counts, source: source.path, elapsedMs: now - started, done });
  };

  let inBatch = 0;
  let batchStarted = Date.now();
  const begin = (): void => {
    db.exec('BEGIN');
    inBatch = 0;
    batchStarted = Date.now();
  };
  const maybeCommit = (): void => {
    if (inBatch >= batchSize || Date.now() - batchStarted >= MAX_BATCH_MS) {
      store.flushIndexes();
      db.exec('COMMIT');
      begin();
    } else if (inBatch % indexFlushSize === 0) store.flushIndexes();
  };

  const queue: Task[] = [];
  let inFlight = 0;
  const writeNext = (): Promise<void> => {
    const task = queue.shift() as Task;
    inFlight -= task.bytes;
    return write(task);
  };
  const write = async (task: Task): Promise<void> => {
    const outcome = await pool.settle(task.outcome);
    const location = task.entry;
    if (outcome.kind === 'kept') {
      store.attachLocation(sourceId, location, outcome.rowid, run);
      counts.unchanged++;
    } else if (outcome.kind === 'failed') {
      store.recordFailure(sourceId, location, outcome.reason, run);
      counts.failed++;
    } else {
      counts.bytes += outcome.bytes;
      let rowid = outcome.rowid;
      if (outcome.prepared) {
        // Written before the message, so its index finds its attachments settled.
        for (const [hash, extraction] of outcome.prepared.settled)
          if (!hasExtraction(db, hash)) saveExtraction(db, hash, extraction);
        const stored = store.storeMessage(inbox, outcome.prepared);
        rowid = stored.rowid;
        if (stored.outcome === 'added') counts.added++;
        else if (stored.outcome === 'variant') counts.variants++;
        else counts.duplicates++;
      } else {
        counts.duplicates++;
      }
      store.attachLocation(sourceId, location, rowid as number, run);
    }
    inBatch++;
    maybeCommit();
    report(false);
  };

  begin();
  try {
    db.prepare('UPDATE sources SET last_run_started_at = ? WHERE id = ?').run(started, sourceId);
    source.remote?.resume(loadFolderStates(db, sourceId), {
      count: (keys) => store.countStored(sourceId, keys),
    });
    for await (const entry of source.scan()) {
      counts.scanned++;
      const known = store.findLocation(sourceId, entry.key);
      if (known && known.fingerprint === entry.fingerprint) {
        store.markSeen(known.id, run);
        counts.unchanged++;
        inBatch++;
        maybeCommit();
        report(false);
        continue;
      }
      if (!known && store.knownFailure(sourceId, entry.key, entry.fingerprint, run)) {
        counts.failed++;
        continue;
      }
      const kept = keptMessage(context, sourceId, entry, known?.messageRowid);
      const task =
        kept === undefined
          ? await startTask(context, entry)
          : { entry, bytes: 0, outcome: Promise.resolve<Outcome>({ kind: 'kept', rowid: kept }) };
      queue.push(task);
      inFlight += task.bytes;
      while (queue.length >= pool.capacity || inFlight > MAX_IN_FLIGHT_BYTES) await writeNext();
    }
    while (queue.length > 0) await writeNext();
    for (const { folder, gone } of source.remote?.keptFolders() ?? []) {
      const kept = store.keepFolder(sourceId, folder, run, gone);
      counts.scanned += kept;
      counts.unchanged += kept;
    }
    // Only a complete scan may conclude that a message disappeared.
    counts.deleted = store.sweep(sourceId, run);
    db.prepare(
      'UPDATE sources SET last_run_completed_at = ?, last_seen_count = ?, last_skipped = ? WHERE id = ?',
    ).run(Date.now(), counts.scanned, JSON.stringify(source.skipped()), sourceId);
    if (source.remote) {
      // In the transaction that completes the sync, as the messages they describe.
      saveFolderStates(db, sourceId, source.remote.states(), Date.now());
      saveCredential(db, sourceId, source.remote.credential);
      saveSourceError(db, source.path, inbox.name, null);
    }
    store.flushIndexes();
    db.exec('COMMIT');
  } catch (error) {
    store.discardIndexes();
    if (db.inTransaction) db.exec('ROLLBACK');
    if (source.remote) saveSourceError(db, source.path, inbox.name, describeError(error));
    throw error;
  }
  report(true);
  return counts;
}

/**
 * The stored message a location keeps without reading its bytes: its own, when only its
 * labels changed on bytes that cannot (an IMAP UID), or the source's copy of the same
 * message found elsewhere (a move between folders, a new UIDVALIDITY).
 */
function keptMessage(
  context: RunContext,
  sourceId: number,
  entry: SourceEntry,
  knownRowid: number | undefined,
): number | undefined {
  if (knownRowid !== undefined && entry.fixedContent === true) return knownRowid;
  const identity = entry.identity;
  return identity && context.store.findSourceCopy(context.inbox, sourceId, identity.messageId, identity.size);
}

/** Reads an entry and hands it to the pool; the task settles once it is prepared. */
async function startTask(context: RunContext, entry: SourceEntry): Promise<Task> {
  let bytes: Buffer;
  try {
    bytes = await entry.read();
  } catch (error) {
    // A dropped connection is no fault of the message: the run stops, the next resumes.
    if (isSourceFailure(error)) throw error;
    return { entry, bytes: 0, outcome: Promise.resolve(failed(error)) };
  }
  const size = bytes.length;
  const rawSha256 = sha256(bytes);
  // A copy already written skips parsing; one still in flight is prepared and then
  // deduplicated by the store like any other copy.
  const copyOf = context.store.findByRaw(context.inbox, rawSha256);
  if (copyOf !== undefined)
    return { entry, bytes: 0, outcome: Promise.resolve({ kind: 'stored', rowid: copyOf, bytes: size }) };
  // The pool may move `bytes` to a worker: only `prepared` is read after this point.
  const outcome = context.pool.prepare(bytes, entry.fileTime, rawSha256).then(
    (prepared): Outcome => ({
      kind: 'stored',
      prepared: withThreadKey(prepared, entry),
      bytes: prepared.rawSize,
    }),
    failed,
  );
  return { entry, bytes: size, outcome };
}

/** The source's conversation key (Gmail's X-GM-THRID) among those the headers gave. */
function withThreadKey(prepared: PreparedMessage, entry: SourceEntry): PreparedMessage {
  const key = entry.threadKey;
  if (key === undefined || prepared.threadKeys.includes(key)) return prepared;
  return { ...prepared, threadKeys: [...prepared.threadKeys, key] };
}

const failed = (error: unknown): Outcome => ({ kind: 'failed', reason: describeError(error) });

/**
 * WAL pages between automatic checkpoints while ingesting (SQLite's default: 1,000, 16 MB
 * of 16 KB pages). A checkpoint runs inside the COMMIT on the ingest thread and writes back
 * every page the batches touched since the last; the pages an ingest rewrites batch after
 * batch (b-tree interiors, the growing ends of its tables) are written back once per
 * checkpoint, not once per batch. The WAL file grows to about 128 MB (it shrinks when the
 * last connection closes). 20k cold, profiled under load: COMMIT 2.7-3.9 -> 1.8-3.1 s.
 */
const INGEST_CHECKPOINT_PAGES = 8192;

const INGEST_PRAGMAS = {
  // Mapped pages count towards RSS as the run reads the whole file; the page cache is bounded.
  mmap_size: 0,
  wal_autocheckpoint: INGEST_CHECKPOINT_PAGES,
} as const;

/** Run numbers only grow, even if the clock steps back, so "not seen this run" stays exact. */
function nextRun(store: MessageStore, sourceId: number): number {
  const row = store.db
    .prepare('SELECT max(seen_run) AS last FROM locations WHERE source_id = ?')
    .get(sourceId) as {
    last: number | null;
  };
  return Math.max(Date.now(), (row.last ?? 0) + 1);
}

function emptyCounts(): IngestCounts {
  return { scanned: 0, added: 0, duplicates: 0, variants: 0, unchanged: 0, failed: 0, deleted: 0, bytes: 0 };
}

function addCounts(into: IngestCounts, from: IngestCounts): void {
  for (const key of Object.keys(into) as Array<keyof IngestCounts>) into[key] += from[key];
}

/** One row per kind over every source: counts added, the first source's example kept. */
function mergeSkipped(rows: readonly SkippedFiles[]): SkippedFiles[] {
  const byKind = new Map<string, SkippedFiles>();
  for (const row of rows) {
    const seen = byKind.get(row.kind);
    byKind.set(row.kind, seen ? { ...seen, count: seen.count + row.count } : row);
  }
  return [...byKind.values()];
}

// Attachment text extraction after the messages are stored. Ingest never waits on an
// extractor: a stored attachment whose content hash has no extraction yet is pending, so
// the backlog is derived from the store, survives a crash and shrinks when mail is deleted.
// Each extraction is saved with its carriers re-indexed in one transaction. The extractor's
// workers parse the carrier and extract; this thread only reads the raw bytes and writes.

import { createExtractor, type Extractor } from '../attachments/index.js';
import { describeError } from '../core/errors.js';
import { withBoundedHeapGrowth } from '../core/heap-growth.js';
import { ATTACHMENT_INDEX_CHARS } from '../index/index.js';
import {
  type Archive,
  type Db,
  loadRaw,
  pendingExtractionHashes,
  pendingExtractions,
  type StoredExtraction,
  saveExtraction,
  sql,
} from '../store/index.js';
import { toStoredExtraction } from './attachment-content.js';
import { withoutMmap } from './pragmas.js';

export interface ExtractionCounts {
  ok: number;
  skipped: number;
  failed: number;
  messagesReindexed: number;
}

export interface ExtractPendingOptions {
  /**
   * Extractor worker threads (default 1; 0 extracts inline). Ignored when `extractor` is
   * given. One worker and this thread (re-indexing carriers) keep two cores busy: on the
   * shared 2-core bench machine a second worker drained 1,118 PDFs at 23 instead of 28/s
   * with 7% more CPU and 100 MB more RSS. More help where cores are idle.
   */
  readonly workers?: number;
  readonly extractor?: Extractor;
  /** Stop after this many attachments (default: the whole backlog). */
  readonly limit?: number;
  readonly onProgress?: (done: number, total: number) => void;
}

export interface ExtractPendingReport extends ExtractionCounts {
  /** Distinct attachments extracted by this call. */
  readonly attachments: number;
  /** Distinct attachments still pending afterwards. */
  readonly remaining: number;
  readonly elapsedMs: number;
}

/**
 * Extractions in flight, all but one per worker waiting in the worker: this thread blocks for
 * up to a batch's write (~0.5 s), and a worker asks it for its next job only between writes.
 * With 4, the one worker sat idle a third of a drain of 1,118 PDFs (5k messages).
 */
const IN_FLIGHT = 16;
/** Attachment bytes in flight (each also in its raw message): large files wait their turn. */
const MAX_IN_FLIGHT_BYTES = 32 * 1024 * 1024;

/**
 * What re-indexing holds in memory until its postings segment is written, in characters:
 * each carrier stages what the index keeps of its attachment's text (ATTACHMENT_INDEX_CHARS
 * at most) plus about a message's own. Each segment is written at this size: one segment per
 * attachment made a drain spend over a third of its main-thread time merging them (5k
 * messages, 1,118 PDFs), and one attachment's carriers in one segment staged 270 copies of an
 * 84 KB text at once (100k: 330 MB of heap). Counted whole, texts past the cap cut a segment
 * every few carriers: 20 segments and three floor merges for 540 carriers (5k generated
 * messages, 118 attachments) where 12 and two do.
 */
const SEGMENT_CHARS = 1_000_000;
const MESSAGE_CHARS = 2_000;
const stagedChars = (extraction: StoredExtraction | null): number =>
  Math.min(extraction?.text.length ?? 0, ATTACHMENT_INDEX_CHARS) + MESSAGE_CHARS;

/** A batch also commits after this long, so a slow extractor still makes durable progress. */
const BATCH_MS = 1000;

export function extractPending(
  archive: Archive,
  options: ExtractPendingOptions = {},
): Promise<ExtractPendingReport> {
  return withBoundedHeapGrowth(() => withoutMmap(archive.db, () => drain(archive, options)));
}

async function drain(archive: Archive, options: ExtractPendingOptions): Promise<ExtractPendingReport> {
  const db = archive.db;
  const started = Date.now();
  const pending = pendingExtractions(db);
  const total = Math.min(pending, options.limit ?? Number.POSITIVE_INFINITY);
  const counts = emptyExtractionCounts();
  const report = (attachments: number, remaining: number): ExtractPendingReport => ({
    attachments,
    ...counts,
    remaining,
    elapsedMs: Date.now() - started,
  });
  // The common case after an ingest: nothing pending, no second scan and no extractor.
  if (total === 0) return report(0, 0);
  const extractor = options.extractor ?? drainExtractor(options.workers);
  let done: number;
  try {
    done = await extractAndStore(
      archive,
      extractor,
      pendingExtractionHashes(db, total),
      counts,
      options.onProgress,
    );
  } finally {
    if (!options.extractor) await extractor.close();
  }
  return report(done, pendingExtractions(db));
}

/** The extractor extractAndStore keeps busy: `workers` (default 1), each holding work ahead. */
export function drainExtractor(workers = 1): Extractor {
  return createExtractor({ workers, prefetch: IN_FLIGHT });
}

export function emptyExtractionCounts(): ExtractionCounts {
  return { ok: 0, skipped: 0, failed: 0, messagesReindexed: 0 };
}

/** One attachment extracted and waiting for its batch's transaction. */
interface Extracted {
  readonly sha256: string;
  /** Null when no message carried it any more. */
  readonly extraction: StoredExtraction | null;
  /** Messages carrying it when it was extracted: with its text, what re-indexing stages. */
  readonly carriers: number;
}

/**
 * Extracts each distinct attachment in `hashes` from the first stored message carrying it,
 * and saves the texts with every carrier re-indexed, in batched transactions (a killed
 * drain loses at most the open batch: those stay pending). A hash no message carries any
 * more (deleted meanwhile) is passed over. An attachment whose bytes cannot be recovered is
 * stored as failed with the reason, so it never stays pending forever. Having re-indexed
 * carriers, it lets the index hooks compact what that left behind. Returns how many
 * hashes were handled; `onProgress` follows the commits.
 */
export async function extractAndStore(
  archive: Archive,
  extractor: Extractor,
  hashes: readonly string[],
  counts: ExtractionCounts,
  onProgress?: (done: number, total: number) => void,
): Promise<number> {
  let done = 0;
  let batch: Extracted[] = [];
  let staged = 0;
  let opened = 0;
  const commit = (): void => {
    const written = batch;
    batch = [];
    staged = 0;
    for (const outcome of storeExtractions(archive, written)) {
      if (outcome) addOutcome(counts, outcome);
      done++;
      onProgress?.(done, hashes.length);
    }
  };
  let next = 0;
  const budget = byteBudget(MAX_IN_FLIGHT_BYTES);
  const lane = async (): Promise<void> => {
    while (next < hashes.length) {
      const extracted = await extractOne(archive, extractor, hashes[next++] as string, budget);
      if (batch.length === 0) opened = Date.now();
      batch.push(extracted);
      staged += extracted.carriers * stagedChars(extracted.extraction);
      if (staged >= SEGMENT_CHARS || Date.now() - opened >= BATCH_MS) commit();
    }
  };
  const reindexed = counts.messagesReindexed;
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, hashes.length) }, lane));
  if (batch.length > 0) commit();
  if (counts.messagesReindexed > reindexed) {
    const db = archive.db;
    db.transaction(() => {
      for (const hook of archive.hooks) hook.compact?.(db);
    })();
  }
  return done;
}

interface StoredOutcome {
  readonly status: StoredExtraction['status'];
  readonly carriers: number;
}

function addOutcome(counts: ExtractionCounts, outcome: StoredOutcome): void {
  counts[outcome.status]++;
  counts.messagesReindexed += outcome.carriers;
}

async function extractOne(
  archive: Archive,
  extractor: Extractor,
  sha256: string,
  budget: ByteBudget,
): Promise<Extracted> {
  const db = archive.db;
  const first = firstCarrier(db, sha256);
  if (!first) return { sha256, extraction: null, carriers: 0 };
  const { rowid, carriers, size, ...part } = first;
  const release = await budget.take(size);
  try {
    // The raw message goes to the extractor whole: its worker parses it, not this thread.
    const extraction = await extractor.extractFromMessage({ ...part, sha256, message: loadRaw(db, rowid) });
    return { sha256, extraction: toStoredExtraction(extraction), carriers };
  } catch (error) {
    return { sha256, extraction: unrecoverable(describeError(error), first.contentType), carriers };
  } finally {
    release();
  }
}

interface ByteBudget {
  /** Waits until `bytes` fit (one job always does) and takes them; call the result to give them back. */
  take(bytes: number): Promise<() => void>;
}

function byteBudget(max: number): ByteBudget {
  let used = 0;
  let waiting: Array<() => void> = [];
  return {
    async take(bytes) {
      while (used > 0 && used + bytes > max) await new Promise<void>((wake) => waiting.push(wake));
      used += bytes;
      return () => {
        used -= bytes;
        const woken = waiting;
        waiting = [];
        for (const wake of woken) wake();
      };
    },
  };
}

function unrecoverable(reason: string, detectedType: string): StoredExtraction {
  return {
    status: 'failed',
    reason,
    format: 'unknown',
    detectedType,
    language: null,
    truncated: false,
    text: '',
    message: null,
  };
}

/**
 * Saves extractions and re-indexes their carriers in one transaction, writing a postings
 * segment whenever SEGMENT_CHARS are staged. Carriers are read again here: messages stored
 * or deleted while the extractor ran are indexed with the text, or not at all (undefined:
 * no carrier left, nothing saved).
 */
function storeExtractions(archive: Archive, batch: readonly Extracted[]): Array<StoredOutcome | undefined> {
  const db = archive.db;
  const flush = (): void => {
    for (const hook of archive.hooks) hook.flush?.(db);
  };
  try {
    return db.transaction(() => {
      let staged = 0;
      const outcomes = batch.map(({ sha256, extraction }): StoredOutcome | undefined => {
        const carriers = extraction ? carriersOf(db, sha256) : [];
        if (!extraction || carriers.length === 0) return undefined;
        saveExtraction(db, sha256, extraction);
        // A message carrying two attachments of the batch is staged again by the second,
        // with both texts saved by then.
        for (const rowid of carriers) {
          for (const hook of archive.hooks) hook.onInsert?.(db, rowid);
          staged += stagedChars(extraction);
          if (staged < SEGMENT_CHARS) continue;
          flush();
          staged = 0;
        }
        return { status: extraction.status, carriers: carriers.length };
      });
      flush();
      return outcomes;
    })();
  } catch (error) {
    // Writes the hooks deferred belong to the transaction that rolled back.
    for (const hook of archive.hooks) hook.discard?.(db);
    throw error;
  }
}

interface Carrier {
  readonly rowid: number;
  /** Messages carrying the attachment. */
  readonly carriers: number;
  /** The attachment's bytes. */
  readonly size: number;
  readonly ordinal: number;
  readonly filename: string | null;
  readonly contentType: string;
}

function firstCarrier(db: Db, sha256: string): Carrier | undefined {
  return sql(
    db,
    `SELECT message_rowid AS rowid, ordinal, filename, content_type AS contentType, size,
       (SELECT count(*) FROM attachments WHERE sha256 = a.sha256) AS carriers
     FROM attachments a WHERE sha256 = ? ORDER BY message_rowid, ordinal LIMIT 1`,
  ).get(sha256) as Carrier | undefined;
}

function carriersOf(db: Db, sha256: string): number[] {
  return sql(db, 'SELECT DISTINCT message_rowid FROM attachments WHERE sha256 = ? ORDER BY message_rowid')
    .pluck()
    .all(sha256) as number[];
}

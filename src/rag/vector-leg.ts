// The vector leg of hybrid retrieval, hierarchical: the summaries nearest the question first
// (their own partition of the vector index), then details and attachments within the threads
// the summaries and the keyword leg found; then every chunk of the fused top threads, so each
// ranks its own messages.

import { BULK_FACTOR } from '../search/index.js';
import { type Db, sql } from '../store/index.js';
import { bulkIsMinority } from './bulk-share.js';
import type { ChunkKind } from './chunk.js';
import type { Embedder } from './embedder.js';
import type { QuestionFilters } from './filters.js';
import { splitKey, threadKey } from './fusion.js';
import { chunkDensities } from './hubness.js';
import { filterSql } from './keyword-leg.js';
import type { VectorHit, VectorSearch } from './vector-search.js';

/**
 * How the vector leg finds details and attachments: 'threads' (the default, the spec's
 * hierarchy) scores only the chunks of the threads its summaries and the keyword leg found
 * best, by rowid; 'archive' scans all of them (brute force, ~0.35 µs a vector: 20 ms at 60k,
 * 180 ms at 500k), for comparing the two (bench:rag --detail-scan).
 */
export type DetailScan = 'archive' | 'threads';

/** Summaries the summary-first step keeps. */
const SUMMARY_K = 50;
/** Nearest details and attachments an archive-wide scan keeps. */
const DETAIL_K = 200;
/**
 * Under 'threads', the threads of the best summaries and of the keyword leg's best whose
 * details are scored: every chunk costs a rowid lookup (~30–90 µs at 100k messages). bench:rag
 * at 2,000 with --detail-scan threads: 30 + 10 recalls as well as 50 + 20 (one more hybrid hit).
 */
const SUMMARY_THREADS = 30;
const KEYWORD_THREADS = 10;

/**
 * How much a chunk's density (hubness.ts) lowers its similarity. Against none, on the real-mail
 * sets (bench:realmail): LKML's questions in five other languages with the multilingual model,
 * hybrid recall@5 77.8% → 80.0% (English 86.7% either way); the German usbprog list, hybrid
 * recall@10 80.0% → 83.8% (MiniLM) and 85.0% → 87.5% (multilingual); LKML's English questions
 * with MiniLM, hybrid MRR 0.671 → 0.686. 0.5 gained half as much.
 */
const HUB_WEIGHT = 1;

/**
 * Bulk mail's discount. A similarity less its density may be below zero, where halving it
 * would raise it: there it is doubled instead, so bulk always ranks lower.
 */
const discounted = (similarity: number, bulk: boolean): number =>
  !bulk ? similarity : similarity >= 0 ? similarity * BULK_FACTOR : similarity / BULK_FACTOR;

/** Messages (by rowid) that may be shown under the filters: trusted, not excluded. */
function allowed(db: Db, rowids: readonly number[], filters: QuestionFilters): Set<number> {
  if (rowids.length === 0) return new Set();
  const { where, binds } = filterSql(filters);
  const rows = sql(
    db,
    `SELECT d.rowid AS rowid FROM keyword_docs d WHERE d.rowid IN (SELECT value FROM json_each(@ids))
     AND d.untrusted = 0 AND d.excluded = 0 ${where}`,
  ).all({ ids: JSON.stringify(rowids), ...binds }) as Array<{ rowid: number }>;
  return new Set(rows.map((r) => r.rowid));
}

export interface VectorChunk {
  readonly id: number;
  readonly threadKey: string;
  readonly rowids: number[];
  readonly similarity: number;
}

export interface VectorLeg {
  /** Thread keys by summary similarity. */
  readonly threads: string[];
  /** Details and attachments, closest first, with their message rowids. */
  readonly chunks: VectorChunk[];
  readonly embedding: Float32Array | null;
  /** Whether bulk mail is discounted: a minority of the searched inboxes (bulk-share.ts). */
  readonly discountBulk: boolean;
}

export const NO_VECTORS: VectorLeg = { threads: [], chunks: [], embedding: null, discountBulk: true };

/**
 * Chunks with their threads and messages, closest first once each similarity is lowered by
 * the chunk's density (hubness.ts); bulk mail (lists, newsletters, notifications) at the
 * keyword leg's discount where it is a minority (`discountBulk`): it is near every topic and
 * rarely what a question is after. Only messages the filters allow.
 */
function resolveHits(
  db: Db,
  hits: readonly VectorHit[],
  filters: QuestionFilters,
  discountBulk: boolean,
): VectorChunk[] {
  const rowsOf = sql(
    db,
    `SELECT l.message_rowid AS rowid, m.list_id IS NOT NULL AS bulk FROM rag_chunk_messages l
     JOIN messages m ON m.id = l.message_rowid WHERE l.chunk_id = ?`,
  );
  const chunkOf = sql(db, 'SELECT inbox_id AS inboxId, thread_id AS threadId FROM rag_chunks WHERE id = ?');
  const densities = chunkDensities(
    db,
    hits.map((h) => h.chunkId),
  );
  const resolved = hits.flatMap((h) => {
    const c = chunkOf.get(h.chunkId) as { inboxId: number; threadId: string } | undefined;
    if (!c) return [];
    const rows = rowsOf.all(h.chunkId) as Array<{ rowid: number; bulk: number }>;
    const similarity = discounted(
      1 - h.distance - HUB_WEIGHT * (densities.get(h.chunkId) ?? 0),
      discountBulk && rows.every((r) => r.bulk),
    );
    const rowids = rows.map((r) => r.rowid);
    return [{ id: h.chunkId, threadKey: threadKey(c.inboxId, c.threadId), rowids, similarity }];
  });
  const ok = allowed(db, [...new Set(resolved.flatMap((c) => c.rowids))], filters);
  return resolved.filter((c) => c.rowids.some((r) => ok.has(r))).sort((a, b) => b.similarity - a.similarity);
}

export async function vectorLeg(
  db: Db,
  search: VectorSearch,
  embedding: Float32Array,
  inboxIds: readonly number[],
  filters: QuestionFilters,
  scan: DetailScan,
  keywordKeys: readonly string[],
): Promise<VectorLeg> {
  const nearest = async (kinds: ChunkKind[], k: number): Promise<VectorHit[]> =>
    (
      await Promise.all(
        inboxIds.map((inboxId) =>
          search.knn(embedding, {
            inboxId,
            kinds,
            k,
            after: filters.after,
            before: filters.before,
            hasAttachment: filters.hasAttachment,
          }),
        ),
      )
    ).flat();
  const discountBulk = bulkIsMinority(db, inboxIds);
  const summaries = resolveHits(db, await nearest(['summary'], SUMMARY_K), filters, discountBulk);
  const threads = summaries.map((c) => c.threadKey);
  const details =
    scan === 'archive'
      ? await nearest(['detail', 'attachment'], DETAIL_K)
      : await search.distances(
          embedding,
          chunksOf(db, [
            ...new Set([...threads.slice(0, SUMMARY_THREADS), ...keywordKeys.slice(0, KEYWORD_THREADS)]),
          ]),
        );
  return { threads, chunks: resolveHits(db, details, filters, discountBulk), embedding, discountBulk };
}

/**
 * The vector of each of `texts` (the question and its rephrasings), a failure included in
 * the promise (a custom embedder may throw at once).
 */
export async function startEmbedding(embedder: Embedder, texts: readonly string[]): Promise<Float32Array[]> {
  const vectors = await embedder.embed(texts, 'query');
  if (vectors.length !== texts.length)
    throw new Error(`the embedder returned ${vectors.length} vectors for ${texts.length} texts`);
  return vectors;
}

/** The searchable (non-summary) chunks of these threads. */
function chunksOf(db: Db, keys: readonly string[]): number[] {
  const ofThread = sql(
    db,
    "SELECT id FROM rag_chunks WHERE inbox_id = ? AND thread_id = ? AND kind <> 'summary'",
  );
  return keys.flatMap((key) => {
    const { inboxId, threadId } = splitKey(key);
    return (ofThread.all(inboxId, threadId) as Array<{ id: number }>).map((r) => r.id);
  });
}

/**
 * The hierarchical step: every searchable chunk of the top threads, scored against the
 * question and merged into the leg's list, so a thread found by its summary ranks its own
 * messages even when none of them is among the archive-wide nearest.
 */
export async function withinThreads(
  db: Db,
  search: VectorSearch,
  leg: VectorLeg,
  keys: readonly string[],
  filters: QuestionFilters,
): Promise<VectorChunk[]> {
  if (leg.embedding === null) return leg.chunks;
  const have = new Set(leg.chunks.map((c) => c.id));
  const ids = chunksOf(db, keys).filter((id) => !have.has(id));
  const more = resolveHits(db, await search.distances(leg.embedding, ids), filters, leg.discountBulk);
  return [...leg.chunks, ...more].sort((a, b) => b.similarity - a.similarity);
}

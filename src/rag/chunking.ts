// The chunking parameters: the chunk size configured with the embedder (checked against what
// the model reads) and its tokenizer, recorded in rag_meta beside the model name. Chunks built
// with other parameters are stale: their threads go back to the dirty list, so the backlog
// rebuilds and re-embeds them a slice at a time, as it does changed threads.

import { MailsiftError } from '../core/errors.js';
import { type Db, sql } from '../store/index.js';
import { CHUNK_DEFAULTS, type ChunkOptions, type ChunkSize, resolveChunkOptions } from './chunk.js';
import type { Embedder } from './embedder.js';
import { getRagMeta, setRagMeta } from './meta.js';

/**
 * Smallest configurable chunk: the context header (subject, replied-to line) takes up to ~60
 * tokens of it, and a text budget under 32 tokens would cut messages into sentence shards.
 */
export const MIN_CHUNK_TOKENS = 64;
/** Largest for an embedder that does not say what it reads (an endpoint): OpenAI's 8,191-token input limit. */
export const MAX_CHUNK_TOKENS = 8192;

/**
 * The chunker's rules, recorded with the parameters: bumped when a rule changes the text of
 * chunks, so an archive chunked before re-chunks (a chunk whose text is the same keeps its
 * vector). 1: the replied-to line was the parent's first sentence; 2: that and the sentence
 * the reply answers (replied.ts); 3: the sender's role and organisation from their signature;
 * 4: the same roles for the summary's opener and latest writer.
 */
export const CHUNKER_VERSION = 4;

/** What chunks are built with, as recorded: another value of any field rebuilds them. */
export interface Chunking extends ChunkSize {
  readonly version: number;
  readonly shortTokens: number;
  /** The TokenCounter's id: 'approximate' (words x 1.3) or the embedding model's tokenizer. */
  readonly tokenizer: string;
}

export interface ChunkSizeSettings {
  readonly chunkTokens?: number | undefined;
  readonly chunkOverlapTokens?: number | undefined;
}

/**
 * The configured chunk size checked against `embedder` (integers; at least MIN_CHUNK_TOKENS and
 * at most what the model reads whole; overlap under half the size) and attached to it. Without
 * an overlap, the default 40 is kept under half the size.
 */
export function withChunkSize(embedder: Embedder, settings: ChunkSizeSettings): Embedder {
  const { chunkTokens: target = CHUNK_DEFAULTS.targetTokens, chunkOverlapTokens: overlap } = settings;
  const max = embedder.maxTokens ?? MAX_CHUNK_TOKENS;
  const fail = (param: string, message: string): never => {
    throw new MailsiftError('invalid_argument', `embedder.${param} ${message}`, {
      param: `embedder.${param}`,
    });
  };
  if (!Number.isInteger(target) || target < MIN_CHUNK_TOKENS)
    fail('chunkTokens', `must be an integer of at least ${MIN_CHUNK_TOKENS} tokens, got ${target}`);
  if (target > max)
    fail(
      'chunkTokens',
      embedder.maxTokens === undefined
        ? `must be at most ${MAX_CHUNK_TOKENS} tokens, got ${target}`
        : `${target} is more than ${embedder.id} reads of a text (maxTokens ${max}): the rest of every ` +
            `chunk would be cut off; lower chunkTokens or raise embedder.maxTokens (up to the model's positions)`,
    );
  const overlapTokens = overlap ?? Math.min(CHUNK_DEFAULTS.overlapTokens, Math.ceil(target / 2) - 1);
  if (!Number.isInteger(overlapTokens) || overlapTokens < 0 || overlapTokens * 2 >= target)
    fail(
      'chunkOverlapTokens',
      `must be an integer from 0 to under half of chunkTokens (${target}), got ${overlapTokens}`,
    );
  return { ...embedder, chunkSize: { targetTokens: target, overlapTokens } };
}

/** How chunks are built for `embedder`: its configured size and tokenizer (defaults without one). */
export function chunkOptionsFor(embedder: Embedder | undefined): ChunkOptions {
  return {
    ...embedder?.chunkSize,
    ...(embedder?.tokenizer ? { tokenizer: embedder.tokenizer } : {}),
  };
}

export function chunkingOf(options: ChunkOptions): Chunking {
  const { targetTokens, overlapTokens, shortTokens, tokenizer } = resolveChunkOptions(options);
  return { version: CHUNKER_VERSION, targetTokens, overlapTokens, shortTokens, tokenizer: tokenizer.id };
}

/** The parameters the archive's chunks were built with; null before the first sync records them. */
export function recordedChunking(db: Db): Chunking | null {
  const value = getRagMeta(db, 'chunking');
  // Recorded before the chunker had versions: version 1.
  return value === undefined
    ? null
    : ({ version: 1, ...(JSON.parse(value) as Partial<Chunking>) } as Chunking);
}

/**
 * How a caller without an embedder (a keyword-only question) chunks the threads it reads: at the
 * recorded size without recording its own (`adopt: false`), so that it never re-chunks an archive
 * whose size an embedder configured elsewhere (serve, watch) chose; the defaults, recorded, when
 * nothing is recorded yet.
 */
export function recordedChunkOptions(db: Db): ChunkOptions & { readonly adopt: boolean } {
  const recorded = recordedChunking(db);
  if (recorded === null) return { adopt: true };
  const { targetTokens, overlapTokens, shortTokens } = recorded;
  return { targetTokens, overlapTokens, shortTokens, adopt: false };
}

const same = (a: Chunking, b: Chunking): boolean =>
  a.version === b.version &&
  a.targetTokens === b.targetTokens &&
  a.overlapTokens === b.overlapTokens &&
  a.shortTokens === b.shortTokens &&
  a.tokenizer === b.tokenizer;

/**
 * Records `chunking` for the archive's chunks. When other parameters were recorded (or none:
 * an archive chunked before they were), every chunked thread is marked dirty in the same
 * transaction; the syncs that follow rebuild them, and a chunk whose text comes out the same
 * keeps its id and vector. Returns the number of threads marked.
 */
export function adoptChunking(db: Db, chunking: Chunking): number {
  const recorded = recordedChunking(db);
  if (recorded !== null && same(recorded, chunking)) return 0;
  return db.transaction(() => {
    const marked = sql(
      db,
      'INSERT OR IGNORE INTO rag_dirty_threads SELECT DISTINCT inbox_id, thread_id FROM rag_chunks',
    ).run().changes;
    setRagMeta(db, 'chunking', JSON.stringify(chunking));
    return marked;
  })();
}

export interface ChunkingStatus {
  /** What the next sync builds chunks with. */
  readonly configured: Chunking;
  /** What the archive's chunks were built with; null when nothing was chunked yet. */
  readonly recorded: Chunking | null;
  /** The configuration changed since: the next embed, watch or server pass re-chunks every thread. */
  readonly rechunkPending: boolean;
}

export function chunkingStatus(db: Db, options: ChunkOptions): ChunkingStatus {
  const configured = chunkingOf(options);
  const recorded = recordedChunking(db);
  const chunked = sql(db, 'SELECT 1 FROM rag_chunks LIMIT 1').get() !== undefined;
  return {
    configured,
    recorded,
    rechunkPending: chunked && (recorded === null || !same(recorded, configured)),
  };
}

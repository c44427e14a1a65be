// The chunk size recorded with the chunks: a new size re-chunks through the dirty list and the
// embedding backlog (old vectors leave with their chunks), an archive chunked before sizes were
// recorded keeps its vectors, and the onnx model's own tokenizer counts the chunks.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Mailsift } from '../engine.js';
import {
  CHUNKER_VERSION,
  chunkingStatus,
  chunkOptionsFor,
  recordedChunking,
  withChunkSize,
} from './chunking.js';
import { createEmbedder } from './config.js';
import { backlogSize, embedPending } from './embed.js';
import { defaultModelDir } from './onnx-embedder.js';
import { wrapProviderCalls } from './provider-calls.js';
import { retrieve } from './retrieve.js';
import { syncChunks } from './sync.js';
import {
  type ChunkRow,
  chunkRows,
  countRows,
  openFixtureArchive,
  openGrowingArchive,
  useLoopback,
} from './test-helpers.js';
import { approximateTokens } from './tokens.js';

const ROOT = 'budget-root-0603@harbor-freight.example';

const rootChunks = (rows: readonly ChunkRow[]): ChunkRow[] =>
  rows.filter((r) => r.kind === 'detail' && r.meta.includes(`"messageIds":["${ROOT}"]`));

/** Vectors whose chunk is gone: none may outlive its chunk. */
const orphanVectors = (engine: Mailsift): number =>
  countRows(engine, 'rag_vectors WHERE rowid NOT IN (SELECT id FROM rag_chunks)');

describe('chunk size changes', () => {
  const loopback = useLoopback();

  it('re-chunks every thread through the backlog, dropping old vectors with their chunks', async () => {
    const { engine, folder } = await openGrowingArchive();
    await engine.ingest([folder], { inbox: 'work', workers: 0 });
    const db = engine.archive.db;
    const at256 = withChunkSize(loopback.embedder(), {});
    const at128 = withChunkSize(loopback.embedder(), { chunkTokens: 128, chunkOverlapTokens: 20 });
    expect((await embedPending(engine, at256)).remaining).toBe(0);
    const before = chunkRows(engine);
    expect(recordedChunking(db)).toEqual({
      version: CHUNKER_VERSION,
      targetTokens: 256,
      overlapTokens: 40,
      shortTokens: 80,
      tokenizer: 'approximate',
    });
    expect(chunkingStatus(db, chunkOptionsFor(at256)).rechunkPending).toBe(false);
    expect(chunkingStatus(db, chunkOptionsFor(at128)).rechunkPending).toBe(true);

    // One slice: every chunked thread goes back to the dirty list, one is rebuilt.
    const threads = countRows(engine, '(SELECT DISTINCT thread_id FROM rag_chunks)');
    expect(threads).toBe(6);
    expect(syncChunks(db, { ...chunkOptionsFor(at128), limit: 1 }).threads).toBe(1);
    expect(backlogSize(engine).threadsAwaitingChunks).toBe(threads - 1);
    expect(recordedChunking(db)).toMatchObject({ targetTokens: 128, overlapTokens: 20 });
    expect(chunkingStatus(db, chunkOptionsFor(at128)).rechunkPending).toBe(false);
    // The threads not rebuilt yet keep their chunks and vectors: retrieval still finds them.
    expect(orphanVectors(engine)).toBe(0);
    const pending = backlogSize(engine).pendingChunks;

    syncChunks(db, chunkOptionsFor(at128));
    expect(backlogSize(engine).threadsAwaitingChunks).toBe(0);
    expect(backlogSize(engine).pendingChunks).toBeGreaterThan(pending);
    expect(orphanVectors(engine)).toBe(0);
    const after = chunkRows(engine);
    // The long opening message is cut into more, smaller windows at other boundaries.
    const [oldRoot, newRoot] = [rootChunks(before), rootChunks(after)];
    expect(newRoot.length).toBeGreaterThan(oldRoot.length);
    for (const r of newRoot) expect(r.tokens).toBeLessThanOrEqual(128);
    expect(newRoot.map((r) => r.text)).not.toContain(oldRoot[0]?.text);
    // A chunk that comes out the same (a short message, a summary) keeps its id and vector.
    const kept = after.filter((r) => before.some((b) => b.id === r.id));
    expect(kept.length).toBeGreaterThan(0);
    expect(countRows(engine, `rag_vectors WHERE rowid IN (${kept.map((r) => r.id).join(',')})`)).toBe(
      kept.length,
    );
    expect(countRows(engine, 'embedding_backlog')).toBe(after.length - kept.length);

    const embedded = await embedPending(engine, at128);
    expect(embedded).toMatchObject({ embedded: after.length - kept.length, remaining: 0, reset: false });
    expect(countRows(engine, 'rag_vectors')).toBe(after.length);

    // A keyword-only question (a shell without the embedder's configuration) keeps the size
    // the embedder chose: nothing is marked for re-chunking, nothing re-embedded.
    const keywordOnly = await retrieve(engine, 'what did Marco decide about the budget?');
    expect(keywordOnly.passages.length).toBeGreaterThan(0);
    expect(recordedChunking(db)).toMatchObject({ targetTokens: 128, overlapTokens: 20 });
    expect(backlogSize(engine)).toMatchObject({ threadsAwaitingChunks: 0, pendingChunks: 0 });
    engine.close();
  });

  it('keeps the vectors of an archive chunked before sizes were recorded, when its size is unchanged', async () => {
    const { engine } = await openGrowingArchive();
    const db = engine.archive.db;
    const embedder = withChunkSize(loopback.embedder(), {});
    await embedPending(engine, embedder);
    // What the archive looks like after the old code: chunks and vectors, no recorded size.
    db.prepare("DELETE FROM rag_meta WHERE key = 'chunking'").run();
    const before = chunkRows(engine);
    expect(chunkingStatus(db, chunkOptionsFor(embedder))).toMatchObject({
      recorded: null,
      rechunkPending: true,
    });

    expect(syncChunks(db, chunkOptionsFor(embedder))).toEqual({ threads: 1, chunksAdded: 0 });
    expect(chunkRows(engine)).toEqual(before);
    expect(countRows(engine, 'embedding_backlog')).toBe(0);
    expect(countRows(engine, 'rag_vectors')).toBe(before.length);
    expect(recordedChunking(db)).toMatchObject({ targetTokens: 256, tokenizer: 'approximate' });
    engine.close();
  });

  it('re-chunks an archive an older chunker built, re-embedding only the chunks whose text changed', async () => {
    const { engine } = await openFixtureArchive('budget-thread');
    const db = engine.archive.db;
    const embedder = withChunkSize(loopback.embedder(), {});
    await embedPending(engine, embedder);
    const before = chunkRows(engine);
    // What version 1 left: its record has no version, and a reply's header named only the
    // parent's opening sentence, not the sentence the reply answers.
    const { version: _, ...unversioned } = recordedChunking(db) ?? {};
    db.prepare("UPDATE rag_meta SET value = ? WHERE key = 'chunking'").run(JSON.stringify(unversioned));
    const reply = before.find((r) => /In reply to [^\n]* … /.test(r.text)) as ChunkRow;
    expect(reply).toBeDefined();
    const oldText = reply.text.replace(/ … [^\n]*"\n/, '"\n');
    // Its hash, of another text, matches no chunk the current chunker builds.
    db.prepare("UPDATE rag_chunks SET text = ?, hash = 'v1' WHERE id = ?").run(oldText, reply.id);
    expect(recordedChunking(db)?.version).toBe(1);
    expect(chunkingStatus(db, chunkOptionsFor(embedder)).rechunkPending).toBe(true);

    syncChunks(db, chunkOptionsFor(embedder));
    const after = chunkRows(engine);
    expect(after.map((r) => r.text).sort()).toEqual(before.map((r) => r.text).sort());
    expect(after.find((r) => r.text === reply.text)?.id).not.toBe(reply.id);
    expect(countRows(engine, 'embedding_backlog')).toBe(1);
    expect(countRows(engine, 'rag_vectors')).toBe(before.length - 1);
    expect(recordedChunking(db)?.version).toBe(CHUNKER_VERSION);
    engine.close();
  });
});

describe('chunk size with the onnx model', () => {
  const path = defaultModelDir(process.env, 'all-MiniLM-L6-v2');

  it("counts chunks with the model's tokenizer wherever they are built", async () => {
    if (!existsSync(join(path, 'mailsift-model.json')))
      throw new Error(`this test needs the model in ${path}: run scripts/fetch-model.sh first`);
    const embedder = createEmbedder({ kind: 'onnx', path, chunkTokens: 128, chunkOverlapTokens: 20 });
    const tokenizer = embedder.tokenizer;
    if (!tokenizer) throw new Error('the onnx embedder has a tokenizer');
    const { engine } = await openFixtureArchive('budget-thread');
    const db = engine.archive.db;
    // First chunked without the model (keyword-only retrieval does that): approximate counts.
    syncChunks(db);
    const approximate = chunkRows(engine);

    // The servers wrap each call; the wrapped embedder chunks as the configured one.
    const wrapped = wrapProviderCalls({ embedder }, (call) => call()).embedder;
    expect(chunkOptionsFor(wrapped)).toEqual(chunkOptionsFor(embedder));
    await embedPending(engine, embedder);
    expect(recordedChunking(db)).toEqual({
      version: CHUNKER_VERSION,
      targetTokens: 128,
      overlapTokens: 20,
      shortTokens: 80,
      tokenizer: 'onnx:all-MiniLM-L6-v2',
    });
    const rows = chunkRows(engine);
    // Chunks that came out the same kept their ids, and were counted again by the model.
    const kept = rows.filter((r) => approximate.some((a) => a.id === r.id));
    expect(kept.length).toBeGreaterThan(0);
    for (const r of rows) expect(r.tokens).toBe(tokenizer.count(r.text));
    for (const r of rootChunks(rows)) expect(r.tokens).toBeLessThanOrEqual(128);
    expect(rows.some((r) => approximateTokens.count(r.text) !== r.tokens)).toBe(true);

    // A question's on-demand chunking uses the same size: nothing is rebuilt.
    const result = await retrieve(engine, 'what did Marco decide about the budget?', { embedder: wrapped });
    expect(result.mode).toBe('hybrid');
    expect(chunkRows(engine)).toEqual(rows);
    expect(backlogSize(engine)).toEqual({ pendingChunks: 0, threadsAwaitingChunks: 0 });
    engine.close();
  });
});

// Chunk sync scoped to a question: retrieval rebuilds only the threads it reads, and a
// scoped sync leaves the rest dirty (so status still counts them) with the same results.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSampleArchive, type SampleArchive } from '../eval/sample-archive.js';
import { backlogSize } from './embed.js';
import { retrieve } from './retrieve.js';
import { syncChunks } from './sync.js';

const QUESTION = 'when did the supplier first dispute the delivery schedule?';

describe('syncing chunks for a question', () => {
  let sample: SampleArchive;
  beforeAll(async () => {
    sample = await openSampleArchive();
  });
  afterAll(() => sample.engine.close());

  const chunkedThreads = (): string[] =>
    (
      sample.engine.archive.db.prepare('SELECT DISTINCT thread_id AS t FROM rag_chunks').all() as Array<{
        t: string;
      }>
    )
      .map((r) => r.t)
      .sort();

  it('chunks only the threads a retrieval reads, and reads the same as after a full sync', async () => {
    const dirty = backlogSize(sample.engine).threadsAwaitingChunks;
    expect(dirty).toBeGreaterThan(20);
    expect(chunkedThreads()).toEqual([]);

    const scoped = await retrieve(sample.engine, QUESTION, { inbox: 'demo', limit: 3 });
    const read = scoped.threads.map((t) => t.threadId).sort();
    expect(read).toHaveLength(3);
    expect(chunkedThreads()).toEqual(read);
    expect(backlogSize(sample.engine).threadsAwaitingChunks).toBe(dirty - 3);
    expect(scoped.passages.map((p) => p.messageIds[0])).toContain('nw-dispute-0304@nordwind-logistik.de');

    expect(syncChunks(sample.engine.archive.db).threads).toBe(dirty - 3);
    expect(backlogSize(sample.engine).threadsAwaitingChunks).toBe(0);
    const full = await retrieve(sample.engine, QUESTION, { inbox: 'demo', limit: 3 });
    expect(full).toEqual(scoped);
  });

  it('rebuilds a listed thread only while it is dirty', () => {
    const db = sample.engine.archive.db;
    const [thread] = db
      .prepare('SELECT inbox_id AS inboxId, thread_id AS threadId FROM messages LIMIT 1')
      .all() as Array<{
      inboxId: number;
      threadId: string;
    }>;
    expect(syncChunks(db, { threads: [thread as { inboxId: number; threadId: string }] })).toEqual({
      threads: 0,
      chunksAdded: 0,
    });
  });
});

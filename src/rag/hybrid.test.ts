import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mailsift } from '../engine.js';
import { embedPending } from './embed.js';
import { openAiEmbedder } from './embedder.js';
import { type Loopback, startLoopback } from './openai-loopback.js';
import { retrieve } from './retrieve.js';
import { openFixtureArchive } from './test-helpers.js';
import { distances, knn } from './vectors.js';

describe('hybrid retrieval with the loopback embedder', () => {
  let server: Loopback;
  let engine: Mailsift;
  beforeAll(async () => {
    server = await startLoopback();
    engine = (await openFixtureArchive('budget-thread')).engine;
    await embedPending(engine, openAiEmbedder({ url: server.url, model: 'm' }));
  });
  afterAll(async () => {
    engine.close();
    await server.close();
  });

  it('fuses both legs into one ranking, summary first in the pack', async () => {
    const embedder = openAiEmbedder({ url: server.url, model: 'm' });
    const result = await retrieve(engine, 'quando parte il terzo turno?', { inbox: 'work', embedder });
    expect(result.mode).toBe('hybrid');
    expect(result.degraded).toBeUndefined();
    expect(result.messages[0]?.messageId).toBe('budget-decision-0605@lagomaggiore-tessuti.example');
    expect(result.passages[0]?.kind).toBe('summary');
  });

  it('runs each leg alone on request: vector mode ranks without the keyword leg', async () => {
    const embedder = openAiEmbedder({ url: server.url, model: 'm' });
    // No word of this question is in the archive: only the vector leg can find anything.
    const vector = await retrieve(engine, 'zzyzx qwv', { inbox: 'work', embedder, mode: 'vector' });
    expect(vector.mode).toBe('vector');
    expect(vector.messages.length).toBeGreaterThan(0);
    const keyword = await retrieve(engine, 'zzyzx qwv', { inbox: 'work', embedder, mode: 'keyword' });
    expect(keyword.messages).toEqual([]);

    server.faults.push('500', '500');
    const failing = openAiEmbedder({ url: server.url, model: 'm', maxRetries: 1, sleep: async () => {} });
    const down = await retrieve(engine, 'forklift lease option B', {
      inbox: 'work',
      embedder: failing,
      mode: 'vector',
    });
    expect(down).toMatchObject({ mode: 'keyword', degraded: expect.stringMatching(/embedder failed/) });
    expect(down.messages.length).toBeGreaterThan(0);
  });

  it('finds the same answer scoring details only within the threads summaries and keywords found', async () => {
    const embedder = openAiEmbedder({ url: server.url, model: 'm' });
    for (const mode of ['vector', 'hybrid'] as const) {
      const question = 'who approved the forklift lease?';
      const archive = await retrieve(engine, question, {
        inbox: 'work',
        embedder,
        mode,
        detailScan: 'archive',
      });
      const threads = await retrieve(engine, question, {
        inbox: 'work',
        embedder,
        mode,
        detailScan: 'threads',
      });
      expect(threads.mode).toBe(mode);
      expect(threads.messages.length).toBeGreaterThan(0);
      expect(threads.messages[0]).toEqual(archive.messages[0]);
    }
  });

  it('degrades to keyword results, never an error, when the embedder fails or has no vectors', async () => {
    server.faults.push('500', '500');
    const failing = openAiEmbedder({ url: server.url, model: 'm', maxRetries: 1, sleep: async () => {} });
    const down = await retrieve(engine, 'forklift lease option B', { inbox: 'work', embedder: failing });
    expect(down.mode).toBe('keyword');
    expect(down.degraded).toMatch(/the embedder failed .*answered 500/);
    expect(down.messages.length).toBeGreaterThan(0);

    const other = openAiEmbedder({ url: server.url, model: 'another' });
    const missing = await retrieve(engine, 'forklift lease option B', { inbox: 'work', embedder: other });
    expect(missing).toMatchObject({
      mode: 'keyword',
      degraded: expect.stringMatching(/no vectors of openai:another/),
    });
  });

  it('applies date and attachment filters to both legs', async () => {
    const embedder = openAiEmbedder({ url: server.url, model: 'm' });
    const june5 = await retrieve(engine, 'option B in June 2024', { inbox: 'work', embedder });
    expect(june5.filters).toMatchObject({ after: Date.UTC(2024, 5, 1), before: Date.UTC(2024, 6, 1) });
    expect(june5.messages.length).toBeGreaterThan(0);
    // Nothing passes the filter: the unfiltered ranking follows the (empty) filtered one, and says so.
    const may = await retrieve(engine, 'option B in May 2024', { inbox: 'work', embedder });
    expect(may.filters.applied).toEqual(['after 2024-05-01', 'before 2024-06-01']);
    expect(may.notes).toContain(
      'the filters (after 2024-05-01, before 2024-06-01) left 0 messages; unfiltered results follow them',
    );
    const pdf = await retrieve(engine, 'option B with a PDF', { inbox: 'work', embedder });
    expect(pdf.notes).toContain('the filters (PDF attached) left 0 messages; unfiltered results follow them');
  });

  it('scores chunks of a thread against the question as the nearest-neighbour search does', async () => {
    const embedder = openAiEmbedder({ url: server.url, model: 'm' });
    const [question] = await embedder.embed(['who approved the forklift lease?']);
    const db = engine.archive.db;
    const inboxId = (db.prepare("SELECT id FROM inboxes WHERE name = 'work'").get() as { id: number }).id;
    const nearest = knn(db, question as Float32Array, { inboxId, kinds: ['detail'], k: 10 });
    expect(nearest.length).toBeGreaterThan(1);
    const direct = distances(
      db,
      question as Float32Array,
      nearest.map((h) => h.chunkId),
    );
    const byId = new Map(direct.map((d) => [d.chunkId, d.distance]));
    for (const h of nearest) expect(byId.get(h.chunkId)).toBeCloseTo(h.distance, 5);
    expect(distances(db, question as Float32Array, [])).toEqual([]);
  });
});

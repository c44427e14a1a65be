import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embedderProbe, embedPending } from './embed.js';
import { openAiEmbedder } from './embedder.js';
import { hashedEmbedding, LOOPBACK_DIMENSIONS, type Loopback, startLoopback } from './openai-loopback.js';
import { ProviderError } from './provider-http.js';
import { syncChunks } from './sync.js';
import { deleteThroughHooks, openFixtureArchive } from './test-helpers.js';
import { knn, vectorModel } from './vectors.js';

let server: Loopback;
beforeAll(async () => {
  server = await startLoopback();
});
afterAll(() => server.close());

const waits: number[] = [];
const sleep = async (ms: number): Promise<void> => {
  waits.push(ms);
};

describe('openai embedder against the loopback server', () => {
  it('batches, keeps order, sends the model, key and dimensions, and bounds concurrency', async () => {
    server.requests.length = 0;
    const embedder = openAiEmbedder({
      url: server.url,
      model: 'nomic-embed-text',
      apiKey: 'sk-test',
      batchSize: 3,
      concurrency: 2,
      dimensions: 32,
    });
    const texts = Array.from({ length: 10 }, (_, i) => `pallet ${i} arrives from Genoa`);
    const vectors = await embedder.embed(texts);
    expect(vectors).toHaveLength(10);
    expect(vectors.every((v) => v.length === 32)).toBe(true);
    expect(server.requests).toHaveLength(4);
    expect(server.requests[0]).toMatchObject({
      path: '/v1/embeddings',
      authorization: 'Bearer sk-test',
      body: { model: 'nomic-embed-text', dimensions: 32, encoding_format: 'float' },
    });
    expect(server.requests.map((r) => (r.body.input as string[]).length).sort()).toEqual([1, 3, 3, 3]);
    expect(Array.from(vectors[7] ?? [])).toEqual(
      Array.from(Float32Array.from(hashedEmbedding(texts[7] as string, 32))),
    );
    expect(server.maxInFlight()).toBeLessThanOrEqual(2);
    expect(embedder.id).toBe('openai:nomic-embed-text:32');
  });

  it('retries a 429 after its Retry-After and a 500 with backoff, then succeeds', async () => {
    waits.length = 0;
    server.faults.push('429', '500');
    const embedder = openAiEmbedder({ url: server.url, model: 'm', retryBaseMs: 10, sleep });
    const [vector] = await embedder.embed(['delivery schedule']);
    expect(vector).toHaveLength(LOOPBACK_DIMENSIONS);
    expect(waits[0]).toBe(1000);
    expect(waits[1]).toBeGreaterThanOrEqual(20);
  });

  it('fails with the server message on 401 without retrying, and on garbage and timeouts', async () => {
    server.faults.push('401');
    const before = server.requests.length;
    const embedder = openAiEmbedder({ url: server.url, model: 'm', sleep, maxRetries: 1, timeoutMs: 200 });
    await expect(embedder.embed(['x'])).rejects.toThrow(/answered 401: Incorrect API key provided/);
    expect(server.requests.length - before).toBe(1);

    server.faults.push('garbage');
    await expect(embedder.embed(['x'])).rejects.toThrow(/not an embedding list/);

    server.faults.push('hang', 'hang');
    const error = await embedder.embed(['x']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as Error).message).toMatch(/did not answer within 200 ms/);
  });
});

describe('embedPending', () => {
  it('drains the backlog into the vector index, survives a failing embedder, and re-embeds on a model change', async () => {
    const { engine } = await openFixtureArchive('budget-thread');
    const db = engine.archive.db;
    syncChunks(db);
    const total = (db.prepare('SELECT count(*) AS n FROM rag_chunks').get() as { n: number }).n;

    server.faults.push('500', '500');
    const failing = openAiEmbedder({ url: server.url, model: 'm1', maxRetries: 1, sleep });
    const failed = await embedPending(engine, failing, { batch: 2 });
    expect(failed).toMatchObject({ embedded: 0, remaining: total });
    expect(failed.error).toMatch(/answered 500/);
    const probe = embedderProbe(engine, failing);
    expect(probe.backlog('work')).toBe(total);
    expect(probe.lastError()).toMatch(/answered 500/);

    const report = await embedPending(engine, openAiEmbedder({ url: server.url, model: 'm1' }), { batch: 2 });
    expect(report).toEqual({ embedded: total, remaining: 0, reset: false });
    expect(probe.backlog('work')).toBe(0);
    expect(probe.lastError()).toBeNull();
    expect(vectorModel(db)).toEqual({ model: 'openai:m1', dimensions: LOOPBACK_DIMENSIONS });
    const inbox = (db.prepare("SELECT id FROM inboxes WHERE name = 'work'").get() as { id: number }).id;
    const query = Float32Array.from(
      (
        await openAiEmbedder({ url: server.url, model: 'm1' }).embed(['the lease is on line 4 of the sheet'])
      )[0] ?? [],
    );
    const hits = knn(db, query, { inboxId: inbox, kinds: ['detail'], k: 3 });
    const best = db.prepare('SELECT text FROM rag_chunks WHERE id = ?').get(hits[0]?.chunkId) as {
      text: string;
    };
    expect(best.text).toContain('forklift lease, or is that on top?');
    expect(knn(db, query, { inboxId: inbox + 1, kinds: ['detail'], k: 3 })).toEqual([]);

    const changed = await embedPending(
      engine,
      openAiEmbedder({ url: server.url, model: 'm2', dimensions: 16 }),
    );
    expect(changed).toMatchObject({ embedded: total, remaining: 0, reset: true });
    expect(vectorModel(db)).toEqual({ model: 'openai:m2:16', dimensions: 16 });
    const count = db.prepare('SELECT count(*) AS n FROM rag_vectors').get() as { n: number };
    expect(count.n).toBe(total);

    // A deleted message's vectors go with it, in the store's transaction.
    deleteThroughHooks(engine, 'budget-decision-0605@lagomaggiore-tessuti.example');
    const vectors = db.prepare('SELECT count(*) AS n FROM rag_vectors').get() as { n: number };
    const chunks = db.prepare('SELECT count(*) AS n FROM rag_chunks').get() as { n: number };
    expect(vectors.n).toBe(chunks.n);
    expect(chunks.n).toBeLessThan(total);
    engine.close();
  });
});

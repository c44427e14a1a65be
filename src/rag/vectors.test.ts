import { describe, expect, it } from 'vitest';
import { Mailsift } from '../engine.js';
import { embedPending } from './embed.js';
import { deleteThroughHooks, openFixtureArchive, useLoopback } from './test-helpers.js';
import { knn } from './vectors.js';

describe('the vector table layout', () => {
  const loopback = useLoopback();

  it('rebuilds a table of the layout before layer partitions from its own vectors when the archive opens', async () => {
    const { engine } = await openFixtureArchive('budget-thread');
    await embedPending(engine, loopback.embedder());
    const path = engine.archive.db.name;
    const db = engine.archive.db;
    type Row = {
      id: bigint;
      inbox: bigint;
      kind: string;
      date: bigint;
      attachment: bigint;
      embedding: Buffer;
    };
    const before = db
      .prepare(
        'SELECT rowid AS id, inbox_id AS inbox, kind, date, has_attachment AS attachment, embedding FROM rag_vectors ORDER BY rowid',
      )
      .safeIntegers()
      .all() as Row[];
    // The layout every archive embedded before this migration has: no layer partition.
    db.exec('DROP TABLE rag_vectors');
    db.exec(`CREATE VIRTUAL TABLE rag_vectors USING vec0(inbox_id integer partition key,
      embedding float[64] distance_metric=cosine, kind text, date integer, has_attachment integer)`);
    const insert = db.prepare(
      'INSERT INTO rag_vectors (rowid, inbox_id, embedding, kind, date, has_attachment) VALUES (?, ?, ?, ?, ?, ?)',
    );
    for (const r of before) insert.run(r.id, r.inbox, r.embedding, r.kind, r.date, r.attachment);
    engine.close();

    const reopened = Mailsift.open(path);
    const upgraded = reopened.archive.db;
    const schema = upgraded.prepare("SELECT sql FROM sqlite_schema WHERE name = 'rag_vectors'").get() as {
      sql: string;
    };
    expect(schema.sql).toMatch(/layer text partition key/);
    const after = upgraded
      .prepare(
        'SELECT rowid AS id, inbox_id AS inbox, kind, date, has_attachment AS attachment, embedding FROM rag_vectors ORDER BY rowid',
      )
      .safeIntegers()
      .all() as Row[];
    expect(after).toEqual(before);

    const inboxId = before[0]?.inbox as bigint;
    const summary = before.find((r) => r.kind === 'summary') as Row;
    const query = new Float32Array(new Uint8Array(summary.embedding).buffer);
    const summaries = knn(upgraded, query, { inboxId: Number(inboxId), kinds: ['summary'], k: 10 });
    expect(summaries[0]).toMatchObject({ chunkId: Number(summary.id) });
    expect(summaries.length).toBe(before.filter((r) => r.kind === 'summary').length);
    const details = knn(upgraded, query, {
      inboxId: Number(inboxId),
      kinds: ['detail', 'attachment'],
      k: 50,
    });
    expect(details.length).toBe(before.filter((r) => r.kind !== 'summary').length);

    // Deletions still take the message's vectors in the store's transaction.
    deleteThroughHooks(reopened, 'budget-decision-0605@lagomaggiore-tessuti.example');
    const vectors = upgraded.prepare('SELECT count(*) AS n FROM rag_vectors').get() as { n: number };
    const chunks = upgraded.prepare('SELECT count(*) AS n FROM rag_chunks').get() as { n: number };
    expect(vectors.n).toBe(chunks.n);
    expect(chunks.n).toBeLessThan(before.length);
    reopened.close();
  });
});

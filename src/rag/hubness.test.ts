import { describe, expect, it } from 'vitest';
import { Mailsift } from '../engine.js';
import { embedPending } from './embed.js';
import type { QuestionFilters } from './filters.js';
import { chunkDensities, measureDensities } from './hubness.js';
import { getRagMeta } from './meta.js';
import { countRows, openFixtureArchive, useLoopback } from './test-helpers.js';
import { vectorLeg } from './vector-leg.js';
import { archiveVectors } from './vector-search.js';
import { prepareVectorTable, storeVectors } from './vectors.js';

const UNFILTERED: QuestionFilters = {
  after: null,
  before: null,
  hasAttachment: false,
  attachmentType: null,
  people: [],
  boosted: [],
  matched: [],
};

const DIMENSIONS = 64;

function unit(entries: ReadonlyArray<readonly [number, number]>): Float32Array {
  const v = new Float32Array(DIMENSIONS);
  for (const [axis, value] of entries) v[axis] = value;
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

describe('hubness: a chunk near every other is lowered by its density', () => {
  const loopback = useLoopback();

  it('ranks the chunk a question is about above a hub that is nearer to it only by being near everything', async () => {
    const archive = await openFixtureArchive('budget-thread');
    await embedPending(archive.engine, loopback.embedder());
    const path = archive.engine.archive.db.name;
    let db = archive.engine.archive.db;
    const details = db
      .prepare("SELECT id, inbox_id AS inboxId, kind FROM rag_chunks WHERE kind <> 'summary' ORDER BY id")
      .all() as Array<{ id: number; inboxId: number; kind: string }>;
    expect(details.length).toBeGreaterThanOrEqual(4);
    // A crowded cone, as multilingual e5 makes: every detail shares axis 0 (any two at cosine
    // 0.8) and has one axis of its own; the hub is axis 0 alone, at 0.89 to each of them.
    const [hub, answer] = details as [(typeof details)[0], (typeof details)[0]];
    storeVectors(
      db,
      details.map((c, i) => ({
        chunkId: c.id,
        inboxId: c.inboxId,
        kind: c.kind,
        date: 0,
        hasAttachment: false,
        embedding:
          c === hub
            ? unit([[0, 1]])
            : unit([
                [0, 2],
                [1 + i, 1],
              ]),
      })),
    );
    // A fresh process, as after a re-embed: this one's sample holds the vectors just replaced.
    archive.engine.close();
    const engine = Mailsift.open(path);
    db = engine.archive.db;
    const densities = chunkDensities(
      db,
      details.map((c) => c.id),
    );
    const hubDensity = densities.get(hub.id) as number;
    expect(hubDensity).toBeCloseTo(2 / Math.sqrt(5), 5);
    for (const c of details.slice(1)) expect(densities.get(c.id)).toBeLessThan(hubDensity - 0.05);

    // The question leans a little towards the answer's own axis: the hub is nearer by cosine
    // (0.99 against 0.95), the answer nearer once each is measured against its crowd.
    const answerAxis = 1 + details.indexOf(answer);
    const question = unit([
      [0, 2],
      [answerAxis, 0.3],
    ]);
    const leg = await vectorLeg(db, archiveVectors(db), question, [hub.inboxId], UNFILTERED, 'archive', []);
    expect(leg.chunks.map((c) => c.id).slice(0, 2)).toEqual([answer.id, hub.id]);
    engine.close();
  });

  it('has no density for a chunk without a vector, and none before any embedding', async () => {
    const { engine } = await openFixtureArchive('budget-thread');
    const db = engine.archive.db;
    const ids = (db.prepare('SELECT id FROM rag_chunks').pluck().all() as number[]).concat([999_999]);
    expect(chunkDensities(db, ids).size).toBe(0);
    await embedPending(engine, loopback.embedder());
    const densities = chunkDensities(db, ids);
    expect(densities.has(999_999)).toBe(false);
    expect(densities.size).toBe(ids.length - 1);
    engine.close();
  });

  it('stores each density as its chunk is embedded, forgets it with its vector, and measures again once the archive has outgrown it', async () => {
    const { engine } = await openFixtureArchive('budget-thread');
    await embedPending(engine, loopback.embedder());
    const db = engine.archive.db;
    const ids = db.prepare('SELECT id FROM rag_chunks ORDER BY id').pluck().all() as number[];
    // Embedding measured them all.
    expect(countRows(engine, 'rag_chunk_density')).toBe(ids.length);
    const first = chunkDensities(db, ids);
    const stored = (): Map<number, number> =>
      new Map(
        (
          db.prepare('SELECT chunk_id, density FROM rag_chunk_density').raw().all() as Array<[number, number]>
        ).map(([id, d]) => [id, d]),
      );
    expect(stored()).toEqual(first);

    // A stored density is what the next question reads: a forged one shows through.
    const [one] = ids as [number];
    db.prepare('UPDATE rag_chunk_density SET density = 0.5 WHERE chunk_id = ?').run(one);
    expect(chunkDensities(db, [one]).get(one)).toBe(0.5);
    // A new vector drops it, and it is measured again.
    const row = db.prepare('SELECT inbox_id AS inboxId, kind FROM rag_chunks WHERE id = ?').get(one) as {
      inboxId: number;
      kind: string;
    };
    const vector = db
      .prepare('SELECT embedding FROM rag_vectors WHERE rowid = ?')
      .pluck()
      .get(BigInt(one)) as Buffer;
    storeVectors(db, [
      {
        chunkId: one,
        ...row,
        date: 0,
        hasAttachment: false,
        embedding: new Float32Array(new Uint8Array(vector).buffer),
      },
    ]);
    expect(stored().has(one)).toBe(false);
    expect(chunkDensities(db, [one]).get(one)).toBeCloseTo(first.get(one) as number, 6);

    // Measured when the archive was a third of its size: the next embedding measures every
    // stored density again.
    db.prepare('UPDATE rag_chunk_density SET density = 0.5').run();
    db.prepare("UPDATE rag_meta SET value = ? WHERE key = 'density_basis'").run(
      String(Math.floor(ids.length / 3)),
    );
    measureDensities(db, []);
    expect(getRagMeta(db, 'density_basis')).toBe(String(ids.length));
    const again = chunkDensities(db, ids);
    for (const id of ids) expect(again.get(id)).toBeCloseTo(first.get(id) as number, 6);
    // Measured in an archive of this size: kept as it is.
    db.prepare('UPDATE rag_chunk_density SET density = 0.5').run();
    measureDensities(db, []);
    expect(chunkDensities(db, [one]).get(one)).toBe(0.5);

    // Another model: the densities go with the vectors.
    prepareVectorTable(db, 'another-model', DIMENSIONS);
    expect(countRows(engine, 'rag_chunk_density')).toBe(0);
    expect(getRagMeta(db, 'density_basis')).toBeUndefined();
    engine.close();
  });
});

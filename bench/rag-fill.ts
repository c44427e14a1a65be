// bench:rag --latency-fill: vectors for an archive too large to embed here in minutes. The
// real model embeds a sample (its chunks/s, float and int8, is the throughput figure) and every
// chunk of the questions' threads; every other chunk gets a stand-in: a sampled real vector plus
// seeded noise. A brute-force scan costs the same whatever the values, so latency is real.

import { createHash } from 'node:crypto';
import type { Mailsift } from '../src/engine.js';
import type { Embedder } from '../src/rag/embedder.js';

/** Chunks the real model embeds to measure its throughput (and to seed the stand-ins). */
const SAMPLE = 512;
/** Per-dimension noise: at 384 dimensions a stand-in keeps cosine ~0.9 to the vector it copies. */
const NOISE = 0.025;

export interface FillCounts {
  /** Embedded by the real model: the sample and the questions' threads. */
  real: number;
  /** A real sample vector plus seeded noise. */
  standIn: number;
}

export interface Throughput {
  readonly chunks: number;
  readonly avgTokens: number;
  readonly chunksPerSecond: number;
}

/** Texts of `SAMPLE` chunks spread evenly over the archive's ids (every kind in proportion). */
export function sampleTexts(engine: Mailsift): string[] {
  const db = engine.archive.db;
  const { n } = db.prepare('SELECT count(*) AS n FROM rag_chunks').get() as { n: number };
  const step = Math.max(1, Math.floor(n / SAMPLE));
  return db
    .prepare('SELECT text FROM rag_chunks WHERE id % ? = 0 ORDER BY id LIMIT ?')
    .pluck()
    .all(step, SAMPLE) as string[];
}

/** The embedder's rate on `texts` (one call, its own batching), and the vectors it made. */
export async function throughput(
  embedder: Embedder,
  texts: readonly string[],
): Promise<{ rate: Throughput; vectors: Float32Array[] }> {
  await embedder.embed(['warm-up: load the model before the clock starts'], 'passage');
  const started = performance.now();
  const vectors = await embedder.embed(texts, 'passage');
  const seconds = (performance.now() - started) / 1000;
  const tokens = embedder.tokenizer
    ? texts.reduce((sum, t) => sum + (embedder.tokenizer?.count(t) ?? 0), 0) / texts.length
    : Number.NaN;
  return {
    rate: { chunks: texts.length, avgTokens: tokens, chunksPerSecond: texts.length / seconds },
    vectors,
  };
}

/** Texts of every chunk (summaries included) of the threads holding these Message-IDs. */
export function threadTexts(engine: Mailsift, messageIds: Iterable<string>): Set<string> {
  const db = engine.archive.db;
  const wanted = new Set([...messageIds].map((id) => id.toLowerCase()));
  const threads = new Set<string>();
  for (const row of db
    .prepare('SELECT message_id AS id, inbox_id AS inbox, thread_id AS thread FROM messages')
    .iterate()) {
    const r = row as { id: string; inbox: number; thread: string };
    if (wanted.has(r.id.toLowerCase())) threads.add(JSON.stringify([r.inbox, r.thread]));
  }
  const ofThread = db.prepare('SELECT text FROM rag_chunks WHERE inbox_id = ? AND thread_id = ?').pluck();
  const texts = new Set<string>();
  for (const key of threads) {
    const [inbox, thread] = JSON.parse(key) as [number, string];
    for (const text of ofThread.all(inbox, thread) as string[]) texts.add(text);
  }
  return texts;
}

/** A seeded standard normal stream (xorshift32 + Box–Muller): the same text, the same stand-in. */
function normals(seed: number): () => number {
  let s = seed >>> 0 || 1;
  const uniform = (): number => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return ((s >>> 0) + 0.5) / 4294967296;
  };
  return () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
}

function standIn(text: string, pool: readonly Float32Array[]): Float32Array {
  const digest = createHash('sha256').update(text).digest();
  const base = pool[digest.readUInt32LE(0) % pool.length] as Float32Array;
  const noise = normals(digest.readUInt32LE(4));
  const out = new Float32Array(base.length);
  let norm = 0;
  for (let d = 0; d < base.length; d++) {
    out[d] = (base[d] as number) + NOISE * noise();
    norm += (out[d] as number) ** 2;
  }
  const scale = 1 / Math.sqrt(norm);
  for (let d = 0; d < base.length; d++) out[d] = (out[d] as number) * scale;
  return out;
}

/**
 * An embedder under the real one's id: texts in `real` (and the sample, already embedded) get
 * the real model's vectors, every other text a stand-in. Drained through embedPending, so the
 * vectors land in the index as the product stores them.
 */
export function fillEmbedder(
  realEmbedder: Embedder,
  real: ReadonlySet<string>,
  sample: ReadonlyMap<string, Float32Array>,
  counts: FillCounts,
): Embedder {
  const pool = [...sample.values()];
  return {
    // The real one's id, tokenizer and chunk size: vectors and chunks are recorded as its own.
    ...realEmbedder,
    async embed(texts, purpose) {
      const toEmbed = texts.filter((t) => real.has(t) && !sample.has(t));
      const embedded = toEmbed.length > 0 ? await realEmbedder.embed(toEmbed, purpose) : [];
      const made = new Map(toEmbed.map((t, i) => [t, embedded[i] as Float32Array]));
      return texts.map((t) => {
        const vector = sample.get(t) ?? made.get(t);
        if (vector) {
          counts.real++;
          return vector;
        }
        counts.standIn++;
        return standIn(t, pool);
      });
    },
  };
}

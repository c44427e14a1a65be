// The onnx embedder on the real all-MiniLM-L6-v2, bge-small-en-v15 and e5-small-v2-q
// (scripts/fetch-model.sh puts them in defaultModelDir(); CI runs that first): shapes, semantics,
// batching, truncation, errors, query/passage prefixes, [CLS] pooling, and hybrid retrieval
// finding a paraphrase by meaning.

import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/temp.js';
import type { Mailsift } from '../engine.js';
import { embedPending } from './embed.js';
import type { Embedder } from './embedder.js';
import { defaultModelDir, type FetchableModel, importOnnxRuntime, onnxEmbedder } from './onnx-embedder.js';
import { cosine, int8Agreement, PARAPHRASE_PAIRS } from './onnx-embedder-samples.js';
import { retrieve } from './retrieve.js';
import { openFixtureArchive } from './test-helpers.js';

const MODEL_DIR = defaultModelDir(process.env, 'all-MiniLM-L6-v2');
const E5_DIR = defaultModelDir(process.env, 'e5-small-v2-q');
const BGE_DIR = defaultModelDir(process.env, 'bge-small-en-v15');

function requireModel(dir: string, model: FetchableModel): void {
  if (!existsSync(join(dir, 'mailsift-model.json')))
    throw new Error(
      `the onnx embedder tests need the model in ${dir}: run scripts/fetch-model.sh --model ${model} first`,
    );
}

/** The fetched model's embedder, or a failure naming the command that fetches it. */
function fetched(dir: string, model: FetchableModel): Embedder {
  requireModel(dir, model);
  return onnxEmbedder({ modelDir: dir });
}

describe('onnx embedder (all-MiniLM-L6-v2)', () => {
  let embedder: Embedder;
  beforeAll(() => {
    embedder = fetched(MODEL_DIR, 'all-MiniLM-L6-v2');
  });

  it('gives one unit-length 384-dim vector per text, in order, under an id naming model and size', async () => {
    expect(embedder.id).toBe('onnx:all-MiniLM-L6-v2:384');
    const vectors = await embedder.embed([
      'the invoice is overdue',
      'the invoice is overdue',
      'lasagne recipe',
    ]);
    expect(vectors).toHaveLength(3);
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v.length).toBe(384);
      expect(Math.sqrt(cosine(v, v))).toBeCloseTo(1, 5);
    }
    expect(cosine(vectors[0] as Float32Array, vectors[1] as Float32Array)).toBeCloseTo(1, 5);
    expect(cosine(vectors[0] as Float32Array, vectors[2] as Float32Array)).toBeLessThan(0.5);
    expect(await embedder.embed([])).toEqual([]);
  });

  it('reproduces the similarities sentence-transformers publishes for this model', async () => {
    // The quick-start example of the sentence-transformers usage docs (sbert.net), run with
    // all-MiniLM-L6-v2 in PyTorch: 0.6660, 0.1046, 0.1411. Tokenizer, export and pooling together.
    const [lovely, sunny, stadium] = (await embedder.embed([
      'The weather is lovely today.',
      "It's so sunny outside!",
      'He drove to the stadium.',
    ])) as [Float32Array, Float32Array, Float32Array];
    expect(cosine(lovely, sunny)).toBeCloseTo(0.666, 3);
    expect(cosine(lovely, stadium)).toBeCloseTo(0.1046, 3);
    expect(cosine(sunny, stadium)).toBeCloseTo(0.1411, 3);
  });

  it('scores paraphrases above unrelated pairs', async () => {
    const pairs = PARAPHRASE_PAIRS;
    const vectors = await embedder.embed(pairs.flat());
    const v = (i: number): Float32Array => vectors[i] as Float32Array;
    for (let i = 0; i < pairs.length; i++) {
      const paraphrase = cosine(v(2 * i), v(2 * i + 1));
      expect(paraphrase).toBeGreaterThan(0.45);
      for (let j = 0; j < pairs.length; j++)
        if (j !== i) expect(paraphrase).toBeGreaterThan(cosine(v(2 * i), v(2 * j + 1)) + 0.2);
    }
  });

  it('gives the same vectors whatever the batch size and padding', async () => {
    const texts = [
      'ok',
      'Please find attached the signed contract for the warehouse lease.',
      'The shipment from Genoa arrives on Monday; the customs papers are still missing and the broker has not answered since last week.',
      'Thanks!',
      'Reminder: quarterly review at 10:00 in room 4.',
      'Лекция переносится на четверг.',
      'La consegna è prevista per venerdì mattina.',
      'x '.repeat(120),
    ];
    const together = await onnxEmbedder({ modelDir: MODEL_DIR, batchSize: 8 }).embed(texts);
    const alone = await onnxEmbedder({ modelDir: MODEL_DIR, batchSize: 1 }).embed(texts);
    for (let i = 0; i < texts.length; i++) {
      const diff = Math.max(
        ...(together[i] as Float32Array).map((x, d) =>
          Math.abs(x - ((alone[i] as Float32Array)[d] as number)),
        ),
      );
      expect(diff).toBeLessThan(1e-4);
    }
  });

  it('has an int8 variant: its own id, vectors close to the float ones, paraphrases still ranked', async () => {
    const int8 = await int8Agreement(MODEL_DIR, embedder);
    expect(int8.id).toBe('onnx:all-MiniLM-L6-v2-int8:384');
    // Measured on 192 sample chunks of 100-200 tokens: median 0.992, lowest 0.979.
    for (const agreement of int8.cosines) expect(agreement).toBeGreaterThan(0.97);
    expect(int8.margin).toBeGreaterThan(0.4);
  });

  it('queues concurrent calls on the one session and keeps each call in order', async () => {
    const texts = ['first mail about the lease', 'second about the pallets', 'third about customs'];
    const [a, b] = await Promise.all([embedder.embed(texts), embedder.embed([...texts].reverse())]);
    for (let i = 0; i < texts.length; i++)
      expect(cosine(a?.[i] as Float32Array, b?.[texts.length - 1 - i] as Float32Array)).toBeCloseTo(1, 5);
  });

  it('counts tokens with the model tokenizer and truncates long texts to maxTokens', async () => {
    const counter = embedder.tokenizer;
    // hello world , the in ##vo ##ice is over ##due !
    expect(counter?.count('Hello World, the invoice is overdue!')).toBe(11);
    expect(counter?.count('')).toBe(0);
    // Cyrillic falls apart into single letters: MiniLM's vocabulary is English-first.
    expect(counter?.count('Счёт просрочен')).toBe(13);

    // maxTokens 8 = [CLS] + 6 words + [SEP]: words after the sixth change nothing.
    const short = onnxEmbedder({ modelDir: MODEL_DIR, maxTokens: 8 });
    const [cut, six] = await short.embed([
      'alpha bravo charlie delta echo foxtrot golf hotel india',
      'alpha bravo charlie delta echo foxtrot',
    ]);
    expect(cosine(cut as Float32Array, six as Float32Array)).toBeCloseTo(1, 5);
    const [long] = await embedder.embed(['word '.repeat(5000)]);
    expect(long?.length).toBe(384);
    expect(() => onnxEmbedder({ modelDir: MODEL_DIR, maxTokens: 1000 })).toThrow(
      expect.objectContaining({ code: 'invalid_argument', param: 'embedder.maxTokens' }),
    );
  });

  it('is English-first: a sentence and its Italian or Russian translation do not meet', async () => {
    // Measured: en-it 0.03, en-ru 0.03, while the English paraphrase pair scores 0.55. Mail in
    // other languages still embeds, but its retrieval rests on the keyword leg.
    const [english, italian, russian, paraphrase] = await embedder.embed([
      'the invoice is overdue, please pay',
      'la fattura è scaduta, si prega di pagare',
      'счёт просрочен, пожалуйста, оплатите',
      'your bill has not been settled yet',
    ]);
    const same = cosine(english as Float32Array, paraphrase as Float32Array);
    expect(cosine(english as Float32Array, italian as Float32Array)).toBeLessThan(same - 0.3);
    expect(cosine(english as Float32Array, russian as Float32Array)).toBeLessThan(same - 0.3);
  });

  it('keeps onnxruntime’s usage telemetry off: nothing is written for an upload, none is tried', () => {
    requireModel(MODEL_DIR, 'all-MiniLM-L6-v2');
    // onnxruntime 1.29+ keeps its telemetry session (.ses, mat-debug-<pid>.log) in the temp
    // directory when it starts its uploader; a child with its own temp directory shows whether it did.
    const temp = tempDir('mailsift-ort-');
    const compiled = pathToFileURL(join(import.meta.dirname, '../../dist/src/rag/onnx-embedder.js')).href;
    const script = `const { onnxEmbedder } = await import(${JSON.stringify(compiled)});
      const [v] = await onnxEmbedder({ modelDir: ${JSON.stringify(MODEL_DIR)} }).embed(['telemetry check']);
      process.stdout.write(String(v.length) + ' ' + process.env.ORT_DISABLE_TELEMETRY);`;
    const { ORT_DISABLE_TELEMETRY: _, ...env } = process.env;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...env, TMPDIR: temp },
      encoding: 'utf8',
    });
    expect(out).toBe('384 1');
    expect(readdirSync(temp)).toEqual([]);
  });

  it('refuses a missing or incomplete model folder with the command that fetches it', async () => {
    const missing = join(tmpdir(), 'mailsift-no-such-model');
    expect(() => onnxEmbedder({ modelDir: missing })).toThrow(
      expect.objectContaining({
        code: 'not_found',
        param: 'embedder.path',
        message: expect.stringMatching(/mailsift-no-such-model .*scripts\/fetch-model\.sh/),
      }),
    );
    const partial = tempDir('mailsift-model-');
    for (const name of ['tokenizer.json', 'tokenizer_config.json', 'mailsift-model.json'])
      copyFileSync(join(MODEL_DIR, name), join(partial, name));
    expect(() => onnxEmbedder({ modelDir: partial })).toThrow(
      expect.objectContaining({ code: 'not_found', message: expect.stringContaining('model.onnx') }),
    );
    // A broken model file passes the folder check and fails at first use, as a provider error.
    writeFileSync(join(partial, 'model.onnx'), 'not a model');
    const broken = onnxEmbedder({ modelDir: partial });
    await expect(broken.embed(['hello'])).rejects.toMatchObject({
      name: 'ProviderError',
      param: 'embedder',
      message: expect.stringContaining('could not load'),
    });
    // A manifest that disagrees with the model's output is caught on the first batch.
    copyFileSync(join(MODEL_DIR, 'model.onnx'), join(partial, 'model.onnx'));
    writeFileSync(
      join(partial, 'mailsift-model.json'),
      '{"name": "x", "dims": 768, "pooling": "mean", "normalize": true}',
    );
    await expect(onnxEmbedder({ modelDir: partial }).embed(['hello'])).rejects.toMatchObject({
      name: 'ProviderError',
      message: expect.stringMatching(/shape \[1, 3, 384\], expected \[batch, sequence, 768\]/),
    });
    writeFileSync(
      join(partial, 'mailsift-model.json'),
      '{"name": "x", "dims": 384, "pooling": "max", "normalize": true}',
    );
    expect(() => onnxEmbedder({ modelDir: partial })).toThrow(
      expect.objectContaining({ code: 'bad_format', param: 'embedder.path' }),
    );
  });
});

// Five mails of a small company's week; each question below is answered by exactly one.
const passages = [
  'Hi Marta, the quarterly VAT return is due on 16 May. I still need the March fuel receipts from you before I can file it. Regards, Jonas (accounts)',
  'Team, the third-floor kitchen will be closed Thursday and Friday while the plumbers replace the pipes under the sink. Please use the ground-floor one.',
  'Your order #55120 (2 x ergonomic office chair, graphite) has left our warehouse and should reach you by Wednesday. Track it with code DPD-88412.',
  'Reminder: the offsite in Lisbon starts Monday 9 June. Flights are booked; hotel check-in opens at 3 pm. Bring a laptop charger and comfortable shoes.',
  'Dear customer, your password for the supplier portal expires in 5 days. Sign in and choose a new one under Settings > Security to keep access.',
];
const questions: Array<[string, number]> = [
  ['when is the tax filing deadline?', 0],
  ['where can I make coffee this week?', 1],
  ['when does the furniture shipment arrive?', 2],
  ['when do we fly to Portugal for the team retreat?', 3],
  ['how do I keep my login for the vendor website working?', 4],
];

// Retrieval models trained with a query marker or instruction, each pooled its own way.
describe.each([
  { model: 'e5-small-v2-q', dir: E5_DIR, queryPrefix: 'query: ' },
  {
    model: 'bge-small-en-v15',
    dir: BGE_DIR,
    queryPrefix: 'Represent this sentence for searching relevant passages: ',
  },
] as const)('onnx embedder ($model)', ({ model, dir, queryPrefix }) => {
  let embedder: Embedder;
  beforeAll(() => {
    embedder = fetched(dir, model);
  });

  it('loads from its folder: unit-length 384-dim vectors under an id naming the model', async () => {
    expect(embedder.id).toBe(`onnx:${model}:384`);
    const vectors = await embedder.embed(passages, 'passage');
    expect(vectors).toHaveLength(passages.length);
    for (const v of vectors) {
      expect(v.length).toBe(384);
      expect(Math.sqrt(cosine(v, v))).toBeCloseTo(1, 5);
    }
  });

  it('applies the manifest prefixes: a query is not the same vector as the bare text', async () => {
    const text = 'when is the tax filing deadline?';
    const [query, bare] = (await Promise.all([embedder.embed([text], 'query'), embedder.embed([text])])).map(
      (v) => v[0] as Float32Array,
    ) as [Float32Array, Float32Array];
    expect(cosine(query, bare)).toBeLessThan(0.999);
    const [prefixed] = await embedder.embed([queryPrefix + text]);
    expect(cosine(query, prefixed as Float32Array)).toBeCloseTo(1, 4);
    // The prefix counts toward the token budget, as the model reads it.
    expect(embedder.tokenizer?.count(`${queryPrefix}${text}`)).toBeGreaterThan(
      embedder.tokenizer?.count(text) ?? 0,
    );
  });

  it('names the command that fetches it when its folder is missing', () => {
    const missing = join(tmpdir(), 'mailsift-no-models', model);
    expect(() => onnxEmbedder({ modelDir: missing })).toThrow(
      expect.objectContaining({
        code: 'not_found',
        message: expect.stringContaining(`scripts/fetch-model.sh --model ${model} ${missing}`),
      }),
    );
  });
});

describe('onnx embedder (e5-small-v2-q, int8)', () => {
  let embedder: Embedder;
  beforeAll(() => {
    embedder = fetched(E5_DIR, 'e5-small-v2-q');
  });

  it('ranks the answering passage first for each question asked as a query', async () => {
    const docs = await embedder.embed(passages, 'passage');
    const asked = await embedder.embed(
      questions.map(([q]) => q),
      'query',
    );
    questions.forEach(([question, answer], i) => {
      const scores = docs.map((d) => cosine(asked[i] as Float32Array, d));
      const best = scores.indexOf(Math.max(...scores));
      expect({ question, best }).toEqual({ question, best: answer });
    });
  });

  it('gives nearly the same vectors whatever the batch size and padding', async () => {
    // Its int8 graph quantizes activations with one scale per batch tensor, so batch-mates and
    // padding move a vector slightly (cosine ~0.997), unlike the float model's exact match.
    const one = onnxEmbedder({ modelDir: E5_DIR, batchSize: 1 });
    const together = await embedder.embed(passages, 'passage');
    const alone = await one.embed(passages, 'passage');
    together.forEach((v, i) => {
      expect(cosine(v, alone[i] as Float32Array)).toBeGreaterThan(0.99);
    });
  });
});

describe('onnx embedder (bge-small-en-v15, [CLS] pooling)', () => {
  it("is the normalized [CLS] vector of the model's own output, padded in a batch or alone", async () => {
    requireModel(BGE_DIR, 'bge-small-en-v15');
    const texts = ['Invoice NP-4471 is thirty days past due.', 'ok'];
    // In one batch 'ok' is padded to the longer text's length.
    const vectors = await onnxEmbedder({ modelDir: BGE_DIR }).embed(texts, 'passage');
    // The graph run by hand on each text alone: its first token's hidden state, unit length.
    const ort = await importOnnxRuntime();
    const session = await ort.InferenceSession.create(join(BGE_DIR, 'model.onnx'));
    const { Tokenizer } = await import('@huggingface/tokenizers');
    const read = (name: string): object => JSON.parse(readFileSync(join(BGE_DIR, name), 'utf8')) as object;
    const tokenizer = new Tokenizer(read('tokenizer.json'), read('tokenizer_config.json'));
    const tensor = (values: number[]) =>
      new ort.Tensor('int64', BigInt64Array.from(values.map(BigInt)), [1, values.length]);
    for (const [i, text] of texts.entries()) {
      const ids = tokenizer.encode(text).ids;
      const feeds = {
        input_ids: tensor(ids),
        attention_mask: tensor(ids.map(() => 1)),
        token_type_ids: tensor(ids.map(() => 0)),
      };
      const out = (await session.run(feeds)).last_hidden_state as import('onnxruntime-node').Tensor;
      const cls = (out.data as Float32Array).slice(0, 384);
      const norm = Math.sqrt(cosine(cls, cls));
      expect(
        cosine(
          vectors[i] as Float32Array,
          cls.map((x) => x / norm),
        ),
      ).toBeCloseTo(1, 4);
    }
    await session.release();
  });
});

describe('hybrid retrieval with the onnx embedder', () => {
  let engine: Mailsift;
  let embedder: Embedder;
  beforeAll(async () => {
    requireModel(MODEL_DIR, 'all-MiniLM-L6-v2');
    embedder = onnxEmbedder({ modelDir: MODEL_DIR });
    engine = (await openFixtureArchive('paraphrase')).engine;
    const report = await embedPending(engine, embedder);
    expect(report).toMatchObject({ remaining: 0 });
    expect(report.embedded).toBeGreaterThan(5);
  });
  afterAll(() => engine.close());

  it('finds a message by meaning through the vector leg when no keyword matches', async () => {
    // No word of the question occurs in any message: only the vector leg can find the invoice.
    const question = 'do we owe money to a vendor?';
    const keyword = await retrieve(engine, question, { inbox: 'work', mode: 'keyword' });
    expect(keyword.messages).toEqual([]);
    const hybrid = await retrieve(engine, question, { inbox: 'work', embedder });
    expect(hybrid.mode).toBe('hybrid');
    expect(hybrid.messages[0]?.messageId).toBe('np-4471-reminder@nordkap-print.example');
    expect(hybrid.passages.some((p) => p.text.includes('NP-4471'))).toBe(true);

    const outage = await retrieve(engine, 'will our virtual servers be unreachable this weekend?', {
      inbox: 'work',
      embedder,
    });
    expect(outage.messages[0]?.messageId).toBe('maint-fra-0306@tidewater-hosting.example');
  });
});

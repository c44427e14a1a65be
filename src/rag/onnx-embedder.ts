// The `onnx` embedder: a sentence-embedding model run in process by onnxruntime-node from a
// local folder (model.onnx, the model's own tokenizer, mailsift-model.json), pooled as the model
// was trained (mean of real tokens, or [CLS]) and L2-normalized. scripts/fetch-model.sh makes one.

import { readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import type { InferenceSession, Tensor } from 'onnxruntime-node';
import { z } from 'zod';
import { MailsiftError } from '../core/errors.js';
import type { Embedder, EmbedPurpose } from './embedder.js';
import { modelCacheDir } from './model-cache.js';
import { ProviderError } from './provider-http.js';
import type { TokenCounter } from './tokens.js';

export interface OnnxEmbedderOptions {
  /** Folder with model.onnx, tokenizer.json, tokenizer_config.json and mailsift-model.json. */
  readonly modelDir: string;
  /** Texts per inference run; default 32. */
  readonly batchSize?: number;
  /** Longer texts are truncated to this many tokens (special tokens included); default 256. */
  readonly maxTokens?: number;
  /** onnxruntime intra-op threads; default: onnxruntime's own choice (all cores). */
  readonly threads?: number;
  /**
   * Runs model-int8.onnx (int8 weights): about twice as fast on CPU, vectors at cosine ~0.99
   * of the float model's. Its vectors are another model's (`id` says so): switching re-embeds.
   */
  readonly quantized?: boolean;
}

/**
 * The models scripts/fetch-model.sh knows, by the folder name it gives them. `multilingual` is
 * the recommended one for mail in several languages (a question meets its translation), today
 * multilingual-e5-small; the others are English models.
 */
export const FETCHABLE_MODELS = [
  'all-MiniLM-L6-v2',
  'all-mpnet-base-v2',
  'bge-small-en-v15',
  'e5-small-v2-q',
  'multilingual',
] as const;
export type FetchableModel = (typeof FETCHABLE_MODELS)[number];
/** The model an onnx embedder without a `path` runs. */
export const DEFAULT_MODEL: FetchableModel = 'all-MiniLM-L6-v2';

/** Where scripts/fetch-model.sh puts `model` (default DEFAULT_MODEL) unless told otherwise. */
export function defaultModelDir(env: NodeJS.ProcessEnv = process.env, model: string = DEFAULT_MODEL): string {
  return modelCacheDir(env, model);
}

const manifestSchema = z.object({
  name: z.string().min(1),
  dims: z.number().int().positive(),
  /** mean: average of the real tokens' vectors (sentence-transformers, e5); cls: the first token's (bge). */
  pooling: z.enum(['mean', 'cls']),
  normalize: z.boolean(),
  /** Default truncation: the length the model was trained for. */
  maxTokens: z.number().int().min(2).optional(),
  /** The position table's size: no input may be longer. */
  maxPositions: z.number().int().min(2).optional(),
  /** Retrieval models trained with markers (e5: "query: ", "passage: "; bge: an instruction on queries) need them. */
  queryPrefix: z.string().default(''),
  passagePrefix: z.string().default(''),
  /** Trained across languages (fetch-model.sh writes it for `multilingual`); the others are English. */
  multilingual: z.boolean().default(false),
});
type Manifest = z.output<typeof manifestSchema>;

const FILES = ['tokenizer.json', 'tokenizer_config.json', 'mailsift-model.json'] as const;

function fetchHint(dir: string): string {
  const model = FETCHABLE_MODELS.find((name) => basename(dir) === name) ?? DEFAULT_MODEL;
  // The script fetches all-MiniLM-L6-v2 unless given --model.
  const flag = model === 'all-MiniLM-L6-v2' ? '' : ` --model ${model}`;
  return `run scripts/fetch-model.sh${flag} ${dir} (from the mailsift repository) to fetch ${model} there`;
}

function readJson(dir: string, name: string): unknown {
  const path = join(dir, name);
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new MailsiftError('bad_format', `onnx embedder: ${path} is not valid JSON; ${fetchHint(dir)}`, {
      param: 'embedder.path',
      cause: error,
    });
  }
}

/** Checks the folder up front, so a wrong path fails at configuration time, not mid-ingest. */
function checkFolder(dir: string, model: string): void {
  for (const name of ['', model, ...FILES]) {
    const path = join(dir, name);
    let ok: boolean;
    try {
      ok = name === '' ? statSync(path).isDirectory() : statSync(path).isFile();
    } catch {
      ok = false;
    }
    if (!ok)
      throw new MailsiftError(
        'not_found',
        `onnx embedder: ${name === '' ? `model folder ${dir}` : `${path}`} does not exist; ${fetchHint(dir)}`,
        { param: 'embedder.path' },
      );
  }
}

function readManifest(dir: string): Manifest {
  const parsed = manifestSchema.safeParse(readJson(dir, 'mailsift-model.json'));
  if (!parsed.success)
    throw new MailsiftError(
      'bad_format',
      `onnx embedder: ${join(dir, 'mailsift-model.json')}: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
      { param: 'embedder.path' },
    );
  return parsed.data;
}

interface Encoded {
  readonly ids: readonly number[];
}

/** [CLS] … [SEP] (MPNet: <s> … </s>) cut to `max` tokens, keeping the closing token as trained. */
function truncate(ids: readonly number[], max: number): readonly number[] {
  if (ids.length <= max) return ids;
  return [...ids.slice(0, max - 1), ids[ids.length - 1] as number];
}

function int64(
  values: BigInt64Array,
  rows: number,
  cols: number,
  ort: typeof import('onnxruntime-node'),
): Tensor {
  return new ort.Tensor('int64', values, [rows, cols]);
}

/**
 * onnxruntime-node, which from 1.29 on uploads usage telemetry from Linux and macOS (1DS, to
 * mobile.events.data.microsoft.com, with a session id kept in the temp directory) unless
 * ORT_DISABLE_TELEMETRY is set before it initialises. Nothing of a local mail archive leaves
 * the machine, so it is set here, unless the user chose a value themselves.
 */
export function importOnnxRuntime(): Promise<typeof import('onnxruntime-node')> {
  process.env.ORT_DISABLE_TELEMETRY ??= '1';
  return import('onnxruntime-node');
}

/** One vector per row as the model was trained to pool, then L2-normalized when the model wants it. */
function pool(
  hidden: Float32Array,
  batch: readonly Encoded[],
  seq: number,
  manifest: Manifest,
): Float32Array[] {
  const { dims } = manifest;
  return batch.map((row, b) => {
    const out = new Float32Array(dims);
    // [CLS] is the row's first token; mean pooling averages every real token (padding excluded).
    const tokens = manifest.pooling === 'cls' ? 1 : row.ids.length;
    for (let t = 0; t < tokens; t++) {
      const base = (b * seq + t) * dims;
      for (let d = 0; d < dims; d++) out[d] = (out[d] as number) + (hidden[base + d] as number);
    }
    let norm = 0;
    for (let d = 0; d < dims; d++) {
      out[d] = (out[d] as number) / Math.max(1, tokens);
      norm += (out[d] as number) ** 2;
    }
    const scale = manifest.normalize ? 1 / Math.max(Math.sqrt(norm), 1e-12) : 1;
    for (let d = 0; d < dims; d++) out[d] = (out[d] as number) * scale;
    return out;
  });
}

export function onnxEmbedder(options: OnnxEmbedderOptions): Embedder {
  const dir = options.modelDir;
  const modelFile = options.quantized ? 'model-int8.onnx' : 'model.onnx';
  checkFolder(dir, modelFile);
  const modelPath = join(dir, modelFile);
  const manifest = readManifest(dir);
  const tokenizerConfig = readJson(dir, 'tokenizer_config.json') as { pad_token?: unknown };
  const tokenizer = new Tokenizer(readJson(dir, 'tokenizer.json') as object, tokenizerConfig);
  const maxTokens = Math.max(2, options.maxTokens ?? manifest.maxTokens ?? 256);
  if (manifest.maxPositions !== undefined && maxTokens > manifest.maxPositions)
    throw new MailsiftError(
      'invalid_argument',
      `onnx embedder: maxTokens ${maxTokens} is more than ${manifest.name} can read (${manifest.maxPositions} positions)`,
      { param: 'embedder.maxTokens' },
    );
  const batchSize = Math.max(1, options.batchSize ?? 32);
  // BERT pads with [PAD]; MPNet with <pad> (its vocabulary also has a [PAD], at another id).
  const padToken = typeof tokenizerConfig.pad_token === 'string' ? tokenizerConfig.pad_token : '[PAD]';
  const padId = tokenizer.token_to_id(padToken) ?? 0;

  let loading: Promise<{ session: InferenceSession; ort: typeof import('onnxruntime-node') }> | null = null;
  // The native module and the model load on first use: configuring an embedder stays cheap.
  const load = () => {
    loading ??= (async () => {
      const ort = await importOnnxRuntime();
      const session = await ort.InferenceSession.create(modelPath, {
        graphOptimizationLevel: 'all',
        ...(options.threads ? { intraOpNumThreads: options.threads } : {}),
      });
      return { session, ort };
    })().catch((error: unknown) => {
      loading = null;
      throw new ProviderError(
        `onnx embedder could not load ${modelPath}: ${error instanceof Error ? error.message : String(error)}`,
        'embedder',
        null,
        error,
      );
    });
    return loading;
  };

  const runBatch = async (batch: readonly Encoded[]): Promise<Float32Array[]> => {
    const { session, ort } = await load();
    const seq = Math.max(...batch.map((row) => row.ids.length));
    const ids = new BigInt64Array(batch.length * seq).fill(BigInt(padId));
    const mask = new BigInt64Array(batch.length * seq);
    batch.forEach((row, b) => {
      row.ids.forEach((id, t) => {
        ids[b * seq + t] = BigInt(id);
        mask[b * seq + t] = 1n;
      });
    });
    const inputs: Record<string, Tensor> = {
      input_ids: int64(ids, batch.length, seq, ort),
      attention_mask: int64(mask, batch.length, seq, ort),
      token_type_ids: int64(new BigInt64Array(batch.length * seq), batch.length, seq, ort),
    };
    // Exports differ in whether they take token_type_ids: feed only what the graph declares.
    const feeds = Object.fromEntries(session.inputNames.map((name) => [name, inputs[name] as Tensor]));
    let output: Tensor | undefined;
    try {
      const results = await session.run(feeds);
      output = results.last_hidden_state ?? results[session.outputNames[0] as string];
    } catch (error) {
      throw new ProviderError(
        `onnx embedder failed on a batch of ${batch.length}: ${error instanceof Error ? error.message : String(error)}`,
        'embedder',
        null,
        error,
      );
    }
    const dims = output?.dims;
    if (output === undefined || dims?.length !== 3 || dims[2] !== manifest.dims)
      throw new ProviderError(
        `onnx embedder: ${modelPath} answered with shape [${dims?.join(', ') ?? ''}], expected [batch, sequence, ${manifest.dims}]`,
        'embedder',
        null,
      );
    return pool(output.data as Float32Array, batch, seq, manifest);
  };

  // One session runs one batch at a time (it already uses every core); calls queue here.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const result = queue.then(task);
    queue = result.catch(() => undefined);
    return result;
  };

  const counter: TokenCounter = {
    id: `onnx:${manifest.name}`,
    count: (text) => tokenizer.encode(text, { add_special_tokens: false }).ids.length,
  };

  return {
    id: `onnx:${manifest.name}${options.quantized ? '-int8' : ''}:${manifest.dims}`,
    tokenizer: counter,
    maxTokens,
    languages: manifest.multilingual ? 'multilingual' : 'english',
    async embed(texts, purpose?: EmbedPurpose, signal?: AbortSignal) {
      const prefix =
        purpose === 'query' ? manifest.queryPrefix : purpose === 'passage' ? manifest.passagePrefix : '';
      const encoded = texts.map((text) => ({
        ids: truncate(tokenizer.encode(prefix + text).ids, maxTokens),
      }));
      // Texts of similar length share a batch, so little of each batch is padding.
      const lengths = encoded.map((e) => e.ids.length);
      const order = lengths.map((_, i) => i).sort((a, b) => (lengths[a] as number) - (lengths[b] as number));
      const vectors = new Array<Float32Array>(texts.length);
      for (let i = 0; i < order.length; i += batchSize) {
        const slice = order.slice(i, i + batchSize);
        const pooled = await serial(() => {
          // A run cannot be interrupted: a pass asked to stop starts no further batch.
          signal?.throwIfAborted();
          return runBatch(slice.map((k) => encoded[k] as Encoded));
        });
        slice.forEach((k, j) => {
          vectors[k] = pooled[j] as Float32Array;
        });
      }
      return vectors;
    },
  };
}

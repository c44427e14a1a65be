// Provider settings for surfaces: the `embedder` (with the chunk size) and `llm` keys of
// mailsift.config.json (or MAILSIFT_CONFIG), overridden by MAILSIFT_EMBEDDER_* / MAILSIFT_LLM_*
// variables, and the provider objects built from them. The engine only ever receives objects.

import { homedir } from 'node:os';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { type ConfigFile, type ConfigSources, readConfigFile } from '../core/config-file.js';
import { MailsiftError } from '../core/errors.js';
import { type ChatModel, openAiChat } from './chat.js';
import { withChunkSize } from './chunking.js';
import { type Embedder, openAiEmbedder } from './embedder.js';
import { LOCAL_CHAT_MODEL, localChat } from './local-chat.js';
import { DEFAULT_MODEL, defaultModelDir, onnxEmbedder } from './onnx-embedder.js';

const endpoint = {
  kind: z.literal('openai').default('openai'),
  url: z.url(),
  model: z.string().min(1),
  apiKey: z.string().min(1).optional(),
  timeoutMs: z.number().int().positive().optional(),
  maxRetries: z.number().int().min(0).max(10).optional(),
  concurrency: z.number().int().min(1).max(64).optional(),
};
/** Detail-chunk size in tokens of the embedder's tokenizer; ranges are checked by withChunkSize. */
const chunkSize = {
  chunkTokens: z.number().int().optional(),
  chunkOverlapTokens: z.number().int().optional(),
};
const openAiEmbedderSchema = z.strictObject({
  ...endpoint,
  ...chunkSize,
  kind: z.literal('openai'),
  dimensions: z.number().int().positive().max(8192).optional(),
  batchSize: z.number().int().min(1).max(2048).optional(),
});
const onnxEmbedderSchema = z.strictObject({
  ...chunkSize,
  kind: z.literal('onnx'),
  /** The model folder. Relative paths start at the config file's folder. */
  path: z.string().min(1).optional(),
  /** Without a path: a model folder in the model cache (`multilingual`…); default all-MiniLM-L6-v2. */
  model: z.string().min(1).optional(),
  batchSize: z.number().int().min(1).max(1024).optional(),
  maxTokens: z.number().int().min(8).max(8192).optional(),
  threads: z.number().int().min(1).max(256).optional(),
  quantized: z.boolean().optional(),
});
const embedderSchema = z.discriminatedUnion('kind', [openAiEmbedderSchema, onnxEmbedderSchema]);
/**
 * Whether the LLM refines each question's filters and rephrases it before retrieval
 * (refine.ts); default on for an endpoint, off for the local model: SmolLM2-135M answered
 * usable JSON for 6 of bench:rag's 67 questions, ~12 s each, and cost it recall (hybrid
 * 92.5 -> 91.0% recall@5).
 */
const refineQuestions = z.boolean().optional();
const openAiLlmSchema = z.strictObject({ ...endpoint, kind: z.literal('openai'), refineQuestions });
const localLlmSchema = z.strictObject({
  kind: z.literal('local'),
  /** A .gguf file or a fetched model folder. Relative paths start at the config file's folder. */
  path: z.string().min(1).optional(),
  /** Without a path: a model folder in the model cache; default smollm2-135m-instruct. */
  model: z.string().min(1).optional(),
  threads: z.number().int().min(1).max(256).optional(),
  contextSize: z.number().int().min(256).max(131072).optional(),
  maxTokens: z.number().int().min(16).max(8192).optional(),
  timeoutMs: z.number().int().positive().optional(),
  refineQuestions,
});
const llmSchema = z.discriminatedUnion('kind', [openAiLlmSchema, localLlmSchema]);

export type EmbedderConfig = z.output<typeof embedderSchema>;
export type LlmConfig = z.output<typeof llmSchema>;

export interface ProviderConfig {
  readonly embedder?: EmbedderConfig;
  readonly llm?: LlmConfig;
}

export type { ConfigSources };

/** A section without `kind` is an endpoint, unless it has a `path` and no `url` (onnx embedder, local llm). */
function withKind(value: unknown, key: 'embedder' | 'llm'): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || 'kind' in value) return value;
  const local = key === 'embedder' ? 'onnx' : 'local';
  return { kind: 'path' in value && !('url' in value) ? local : 'openai', ...value };
}

// Environment variable suffixes of each config field; numbers are parsed, strings kept.
const ENV_FIELDS: Record<string, string> = {
  url: 'URL',
  model: 'MODEL',
  apiKey: 'API_KEY',
  timeoutMs: 'TIMEOUT_MS',
  maxRetries: 'MAX_RETRIES',
  concurrency: 'CONCURRENCY',
  dimensions: 'DIMENSIONS',
  batchSize: 'BATCH_SIZE',
};
const LOCAL_ENV_FIELDS: Record<string, string> = {
  kind: 'KIND',
  path: 'PATH',
  maxTokens: 'MAX_TOKENS',
  threads: 'THREADS',
};
const EMBEDDER_ENV_FIELDS: Record<string, string> = {
  ...ENV_FIELDS,
  ...LOCAL_ENV_FIELDS,
  quantized: 'QUANTIZED',
  chunkTokens: 'CHUNK_TOKENS',
  chunkOverlapTokens: 'CHUNK_OVERLAP_TOKENS',
};
const LLM_ENV_FIELDS: Record<string, string> = {
  ...ENV_FIELDS,
  ...LOCAL_ENV_FIELDS,
  contextSize: 'CONTEXT_SIZE',
  refineQuestions: 'REFINE_QUESTIONS',
};
const STRING_FIELDS = new Set(['url', 'model', 'apiKey', 'kind', 'path']);
const BOOLEAN_FIELDS = new Set(['quantized', 'refineQuestions']);
const BOOLEANS: Record<string, boolean> = { true: true, '1': true, false: false, '0': false };

/** MAILSIFT_<PREFIX>_URL, _MODEL, _API_KEY, _DIMENSIONS… as config fields (numbers parsed). */
function fromEnv(
  env: NodeJS.ProcessEnv,
  prefix: string,
  fields: Record<string, string>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, suffix] of Object.entries(fields)) {
    const value = env[`MAILSIFT_${prefix}_${suffix}`];
    if (value === undefined || value === '') continue;
    if (BOOLEAN_FIELDS.has(field)) out[field] = BOOLEANS[value.toLowerCase()] ?? value;
    else out[field] = STRING_FIELDS.has(field) ? value : Number(value);
  }
  return out;
}

function section<T>(
  schema: z.ZodType<T>,
  key: 'embedder' | 'llm',
  file: ConfigFile,
  env: NodeJS.ProcessEnv,
): T | undefined {
  const fileValue = file.data[key] as Record<string, unknown> | undefined;
  const envValue = fromEnv(env, key.toUpperCase(), key === 'embedder' ? EMBEDDER_ENV_FIELDS : LLM_ENV_FIELDS);
  if (fileValue === undefined && Object.keys(envValue).length === 0) return undefined;
  // MAILSIFT_<KEY>_KIND naming the other kind replaces the file's section instead of mixing fields.
  const fileKind = (withKind(fileValue, key) as { kind?: unknown } | undefined)?.kind;
  const base = envValue.kind !== undefined && envValue.kind !== fileKind ? {} : (fileValue ?? {});
  const merged = { ...base, ...envValue };
  const parsed = schema.safeParse(withKind(merged, key));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    // An unknown key is reported on its parent: name the key itself.
    const path = issue?.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]] : (issue?.path ?? []);
    const field = [key, ...path].join('.');
    throw new MailsiftError(
      'bad_format',
      `config ${field} (${file.path} or MAILSIFT_${key.toUpperCase()}_*): ${issue?.message ?? 'invalid'}`,
      {
        param: field,
      },
    );
  }
  return parsed.data;
}

/** A local model's folder or file: the configured path made absolute, else `model` (or the
 * default) in the model cache. */
function modelPath(
  config: { readonly path?: string; readonly model?: string },
  fallback: string,
  key: 'embedder' | 'llm',
  file: ConfigFile,
  sources: ConfigSources,
  env: NodeJS.ProcessEnv,
): string {
  if (!config.path) return defaultModelDir(env, config.model ?? fallback);
  // A path from the file is relative to the file; one from the environment to the working directory.
  const fromEnv = env[`MAILSIFT_${key.toUpperCase()}_PATH`];
  const base = fromEnv === undefined || fromEnv === '' ? dirname(file.path) : (sources.cwd ?? process.cwd());
  return resolve(base, config.path.replace(/^~(?=\/|$)/, env.HOME || homedir()));
}

export function loadProviderConfig(sources: ConfigSources = {}): ProviderConfig {
  const env = sources.env ?? process.env;
  const file = readConfigFile({ ...sources, env });
  let embedder = section(embedderSchema, 'embedder', file, env);
  if (embedder?.kind === 'onnx') {
    const { model: _model, ...rest } = embedder;
    embedder = { ...rest, path: modelPath(embedder, DEFAULT_MODEL, 'embedder', file, sources, env) };
  }
  let llm = section(llmSchema, 'llm', file, env);
  if (llm?.kind === 'local') {
    const { model: _model, ...rest } = llm;
    llm = { ...rest, path: modelPath(llm, LOCAL_CHAT_MODEL, 'llm', file, sources, env) };
  }
  return { ...(embedder ? { embedder } : {}), ...(llm ? { llm } : {}) };
}

/** The configured embedder, carrying its checked chunk size (an invalid one throws, naming the key). */
export function createEmbedder(config: EmbedderConfig): Embedder {
  const { chunkTokens, chunkOverlapTokens, ...rest } = config;
  const size = { chunkTokens, chunkOverlapTokens };
  if (rest.kind === 'onnx') {
    const { kind: _kind, path, model, ...options } = rest;
    return withChunkSize(
      onnxEmbedder({ modelDir: path ?? defaultModelDir(process.env, model), ...options }),
      size,
    );
  }
  const { kind: _kind, ...options } = rest;
  return withChunkSize(openAiEmbedder(options), size);
}

export function createChatModel(config: LlmConfig): ChatModel {
  if (config.kind === 'local') {
    const { kind: _kind, model, path, refineQuestions: _refine, ...options } = config;
    return localChat({ path: path ?? defaultModelDir(process.env, model ?? LOCAL_CHAT_MODEL), ...options });
  }
  const { kind: _kind, refineQuestions: _refine, ...options } = config;
  return openAiChat(options);
}

/** `llm` (made from `config`) when it is to refine questions before retrieval, else undefined. */
export function questionRefiner(config: LlmConfig, llm: ChatModel): ChatModel | undefined {
  return (config.refineQuestions ?? config.kind === 'openai') ? llm : undefined;
}

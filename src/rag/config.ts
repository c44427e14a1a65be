// Provider settings for surfaces: the `embedder` and `llm` keys of mailsift.config.json
// (or MAILSIFT_CONFIG), overridden by MAILSIFT_EMBEDDER_* / MAILSIFT_LLM_* variables, and
// the provider objects built from them. The engine itself only ever receives objects.

import { z } from 'zod';
import { type ConfigFile, type ConfigSources, readConfigFile } from '../core/config-file.js';
import { MailsiftError } from '../core/errors.js';
import { type ChatModel, openAiChat } from './chat.js';
import { type Embedder, openAiEmbedder } from './embedder.js';

const endpoint = {
  kind: z.literal('openai').default('openai'),
  url: z.url(),
  model: z.string().min(1),
  apiKey: z.string().min(1).optional(),
  timeoutMs: z.number().int().positive().optional(),
  maxRetries: z.number().int().min(0).max(10).optional(),
  concurrency: z.number().int().min(1).max(64).optional(),
};
const embedderSchema = z.strictObject({
  ...endpoint,
  dimensions: z.number().int().positive().max(8192).optional(),
  batchSize: z.number().int().min(1).max(2048).optional(),
});
const llmSchema = z.strictObject(endpoint);

export type EmbedderConfig = z.output<typeof embedderSchema>;
export type LlmConfig = z.output<typeof llmSchema>;

export interface ProviderConfig {
  readonly embedder?: EmbedderConfig;
  readonly llm?: LlmConfig;
}

export type { ConfigSources };

/** MAILSIFT_<PREFIX>_URL, _MODEL, _API_KEY, _DIMENSIONS… as config fields (numbers parsed). */
function fromEnv(env: NodeJS.ProcessEnv, prefix: string): Record<string, unknown> {
  const fields: Record<string, string> = {
    url: 'URL',
    model: 'MODEL',
    apiKey: 'API_KEY',
    timeoutMs: 'TIMEOUT_MS',
    maxRetries: 'MAX_RETRIES',
    concurrency: 'CONCURRENCY',
    dimensions: 'DIMENSIONS',
    batchSize: 'BATCH_SIZE',
  };
  const out: Record<string, unknown> = {};
  for (const [field, suffix] of Object.entries(fields)) {
    const value = env[`MAILSIFT_${prefix}_${suffix}`];
    if (value === undefined || value === '') continue;
    out[field] = ['url', 'model', 'apiKey'].includes(field) ? value : Number(value);
  }
  return out;
}

function section<T>(
  schema: z.ZodType<T>,
  key: 'embedder' | 'llm',
  file: ConfigFile,
  env: NodeJS.ProcessEnv,
): T | undefined {
  const fileValue = file.data[key];
  const envValue = fromEnv(env, key.toUpperCase());
  if (fileValue === undefined && Object.keys(envValue).length === 0) return undefined;
  const merged = { ...((fileValue as Record<string, unknown> | undefined) ?? {}), ...envValue };
  const parsed = schema.safeParse(merged);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = `${key}.${issue?.path.join('.') ?? ''}`;
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

export function loadProviderConfig(sources: ConfigSources = {}): ProviderConfig {
  const env = sources.env ?? process.env;
  const file = readConfigFile({ ...sources, env });
  const embedder = section(embedderSchema, 'embedder', file, env);
  const llm = section(llmSchema, 'llm', file, env);
  return { ...(embedder ? { embedder } : {}), ...(llm ? { llm } : {}) };
}

export function createEmbedder(config: EmbedderConfig): Embedder {
  const { kind: _kind, ...options } = config;
  return openAiEmbedder(options);
}

export function createChatModel(config: LlmConfig): ChatModel {
  const { kind: _kind, ...options } = config;
  return openAiChat(options);
}

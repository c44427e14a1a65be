// Embedders behind one interface, and the `openai` one: any OpenAI-compatible /v1/embeddings
// endpoint (vLLM, llama.cpp, Ollama, LM Studio, TEI, OpenAI), batched, retried, bounded.

import { z } from 'zod';
import type { ChunkSize } from './chunk.js';
import {
  type EndpointOptions,
  endpointUrl,
  ProviderError,
  postJson,
  withConcurrency,
} from './provider-http.js';
import type { TokenCounter } from './tokens.js';

export interface Embedder {
  /** Recorded with the vectors: a different id means every chunk is embedded again. */
  readonly id: string;
  /** The model's own tokenizer, when the embedder has one; chunk sizes fall back to words × 1.3. */
  readonly tokenizer?: TokenCounter;
  /** The longest text it reads whole, in tokens of `tokenizer` (onnx: its truncation length). */
  readonly maxTokens?: number;
  /**
   * The detail-chunk size configured with it (embedder.chunkTokens), in tokens of `tokenizer`;
   * default CHUNK_DEFAULTS. Every caller that chunks takes it from here (chunkOptionsFor).
   */
  readonly chunkSize?: ChunkSize;
  /**
   * The languages its vectors relate: 'english' (a question is no nearer its translation than
   * unrelated text: the English sentence-transformers models), 'multilingual'; unknown (an
   * endpoint's model) when absent. Retrieval notes an English-only one over mail in other languages.
   */
  readonly languages?: 'english' | 'multilingual';
  /**
   * One vector per text, in order. Throws ProviderError when the provider fails. `purpose`
   * matters to retrieval models trained with a query/passage marker (e5); others ignore it.
   * `signal` gives up early (a background pass asked to stop), rejecting with its reason.
   */
  embed(texts: readonly string[], purpose?: EmbedPurpose, signal?: AbortSignal): Promise<Float32Array[]>;
}

/** A question being asked, or a passage to be found. */
export type EmbedPurpose = 'query' | 'passage';

export interface OpenAiEmbedderOptions extends EndpointOptions {
  readonly model: string;
  /** Asks the server for this many dimensions (models that support it); otherwise the model's own. */
  readonly dimensions?: number;
  /** Texts per request; default 64. */
  readonly batchSize?: number;
  /** Requests in flight; default 2. */
  readonly concurrency?: number;
}

const embeddingResponse = z.object({
  data: z
    .array(
      z.object({ index: z.number().int().nonnegative(), embedding: z.array(z.number().finite()).min(1) }),
    )
    .min(1),
});

export function openAiEmbedder(options: OpenAiEmbedderOptions): Embedder {
  const url = endpointUrl(options.url, '/embeddings');
  const batchSize = Math.max(1, options.batchSize ?? 64);
  const embedBatch = async (texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> => {
    const body = {
      model: options.model,
      input: texts,
      encoding_format: 'float',
      ...(options.dimensions ? { dimensions: options.dimensions } : {}),
    };
    const parsed = embeddingResponse.safeParse(await postJson(options, url, body, 'embedder', signal));
    if (!parsed.success || parsed.data.data.length !== texts.length)
      throw new ProviderError(
        `embedder at ${url} answered with ${parsed.success ? `${parsed.data.data.length} embeddings for ${texts.length} texts` : 'a body that is not an embedding list'}`,
        'embedder',
        200,
      );
    const ordered = [...parsed.data.data].sort((a, b) => a.index - b.index);
    const dims = ordered[0]?.embedding.length;
    if (ordered.some((d, i) => d.index !== i || d.embedding.length !== dims))
      throw new ProviderError(
        `embedder at ${url} answered with mismatched indexes or dimensions`,
        'embedder',
        200,
      );
    return ordered.map((d) => Float32Array.from(d.embedding));
  };
  return {
    id: `openai:${options.model}${options.dimensions ? `:${options.dimensions}` : ''}`,
    async embed(texts, _purpose, signal) {
      const batches: Array<() => Promise<Float32Array[]>> = [];
      for (let i = 0; i < texts.length; i += batchSize) {
        const slice = texts.slice(i, i + batchSize);
        batches.push(() => embedBatch(slice, signal));
      }
      return (await withConcurrency(batches, options.concurrency ?? 2)).flat();
    },
  };
}

import { existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/temp.js';
import { chunkOptionsFor } from './chunking.js';
import {
  createChatModel,
  createEmbedder,
  type EmbedderConfig,
  loadProviderConfig,
  questionRefiner,
} from './config.js';
import { defaultModelDir } from './onnx-embedder.js';

describe('provider config', () => {
  const dir = tempDir('mailsift-rag-config-');
  writeFileSync(
    join(dir, 'mailsift.config.json'),
    JSON.stringify({
      embedder: {
        kind: 'openai',
        url: 'http://127.0.0.1:11434/v1',
        model: 'nomic-embed-text',
        batchSize: 32,
      },
      llm: { url: 'http://127.0.0.1:8080/v1', model: 'qwen2.5-7b-instruct' },
    }),
  );

  it('reads the file and lets MAILSIFT_EMBEDDER_* / MAILSIFT_LLM_* override it', () => {
    const config = loadProviderConfig({
      cwd: dir,
      env: {
        MAILSIFT_EMBEDDER_MODEL: 'bge-m3',
        MAILSIFT_EMBEDDER_DIMENSIONS: '256',
        MAILSIFT_LLM_API_KEY: 'sk-local',
      },
    });
    expect(config.embedder).toEqual({
      kind: 'openai',
      url: 'http://127.0.0.1:11434/v1',
      model: 'bge-m3',
      batchSize: 32,
      dimensions: 256,
    });
    expect(config.llm).toMatchObject({ model: 'qwen2.5-7b-instruct', apiKey: 'sk-local' });
    expect(createEmbedder(config.embedder as NonNullable<typeof config.embedder>).id).toBe(
      'openai:bge-m3:256',
    );
  });

  it('configures nothing without file or variables, and names the bad field', () => {
    expect(loadProviderConfig({ cwd: tmpdir(), env: {} })).toEqual({});
    expect(() => loadProviderConfig({ cwd: dir, env: { MAILSIFT_EMBEDDER_URL: 'not a url' } })).toThrow(
      expect.objectContaining({ code: 'bad_format', param: 'embedder.url' }),
    );
    expect(() =>
      loadProviderConfig({ cwd: tmpdir(), env: { MAILSIFT_LLM_URL: 'http://127.0.0.1:1/v1' } }),
    ).toThrow(expect.objectContaining({ param: 'llm.model' }));
  });

  it('reads an onnx embedder: path relative to the file, default model folder, env switching kind', () => {
    const onnxDir = tempDir('mailsift-rag-config-onnx-');
    writeFileSync(
      join(onnxDir, 'mailsift.config.json'),
      JSON.stringify({ embedder: { kind: 'onnx', path: 'models/minilm', batchSize: 16, threads: 2 } }),
    );
    expect(
      loadProviderConfig({ cwd: onnxDir, env: { MAILSIFT_EMBEDDER_MAX_TOKENS: '128' } }).embedder,
    ).toEqual({
      kind: 'onnx',
      path: join(onnxDir, 'models/minilm'),
      batchSize: 16,
      threads: 2,
      maxTokens: 128,
    });
    // The environment alone selects onnx; its path defaults to the fetch script's folder.
    const cache = join(onnxDir, 'cache');
    expect(
      loadProviderConfig({
        cwd: tmpdir(),
        env: {
          MAILSIFT_EMBEDDER_KIND: 'onnx',
          MAILSIFT_MODEL_CACHE: cache,
          MAILSIFT_EMBEDDER_QUANTIZED: 'true',
        },
      }).embedder,
    ).toEqual({ kind: 'onnx', path: join(cache, 'all-MiniLM-L6-v2'), quantized: true });
    // A model by name is its folder in the model cache: MAILSIFT_EMBEDDER_MODEL, or the file's `model`.
    expect(
      loadProviderConfig({
        cwd: tmpdir(),
        env: {
          MAILSIFT_EMBEDDER_KIND: 'onnx',
          MAILSIFT_EMBEDDER_MODEL: 'multilingual',
          MAILSIFT_MODEL_CACHE: cache,
        },
      }).embedder,
    ).toEqual({ kind: 'onnx', path: join(cache, 'multilingual') });
    writeFileSync(
      join(onnxDir, 'named.json'),
      JSON.stringify({ embedder: { kind: 'onnx', model: 'multilingual' } }),
    );
    expect(
      loadProviderConfig({ cwd: onnxDir, configPath: 'named.json', env: { MAILSIFT_MODEL_CACHE: cache } })
        .embedder,
    ).toEqual({ kind: 'onnx', path: join(cache, 'multilingual') });
    expect(defaultModelDir({ MAILSIFT_MODEL_CACHE: cache })).toBe(join(cache, 'all-MiniLM-L6-v2'));
    expect(defaultModelDir({ HOME: '/home/ada' })).toBe('/home/ada/.cache/mailsift/models/all-MiniLM-L6-v2');
    // MAILSIFT_EMBEDDER_KIND=onnx over an openai file section replaces it rather than mixing fields.
    expect(
      loadProviderConfig({ cwd: dir, env: { MAILSIFT_EMBEDDER_KIND: 'onnx', MAILSIFT_EMBEDDER_PATH: 'm' } })
        .embedder,
    ).toEqual({ kind: 'onnx', path: join(dir, 'm') });
    expect(
      loadProviderConfig({
        cwd: dir,
        env: { MAILSIFT_EMBEDDER_KIND: 'onnx', MAILSIFT_EMBEDDER_PATH: '~/models/m', HOME: '/home/ada' },
      }).embedder,
    ).toEqual({ kind: 'onnx', path: '/home/ada/models/m' });
    // Without a kind anywhere, a url means openai, as before the onnx kind existed.
    expect(
      loadProviderConfig({
        cwd: tmpdir(),
        env: { MAILSIFT_EMBEDDER_URL: 'http://127.0.0.1:9/v1', MAILSIFT_EMBEDDER_MODEL: 'm' },
      }).embedder,
    ).toEqual({ kind: 'openai', url: 'http://127.0.0.1:9/v1', model: 'm' });
    // A section with a path and no url needs no kind.
    writeFileSync(join(onnxDir, 'old.json'), JSON.stringify({ embedder: { path: '/srv/models/minilm' } }));
    expect(loadProviderConfig({ cwd: onnxDir, configPath: 'old.json', env: {} }).embedder).toEqual({
      kind: 'onnx',
      path: '/srv/models/minilm',
    });
  });

  it('names the bad onnx field, and a missing model folder with the command that fetches it', () => {
    expect(() =>
      loadProviderConfig({
        cwd: tmpdir(),
        env: { MAILSIFT_EMBEDDER_KIND: 'onnx', MAILSIFT_EMBEDDER_THREADS: '0' },
      }),
    ).toThrow(expect.objectContaining({ code: 'bad_format', param: 'embedder.threads' }));
    expect(() =>
      loadProviderConfig({
        cwd: tmpdir(),
        env: { MAILSIFT_EMBEDDER_KIND: 'onnx', MAILSIFT_EMBEDDER_QUANTIZED: 'yes please' },
      }),
    ).toThrow(expect.objectContaining({ code: 'bad_format', param: 'embedder.quantized' }));
    expect(() =>
      loadProviderConfig({
        cwd: tmpdir(),
        env: { MAILSIFT_EMBEDDER_KIND: 'onnx', MAILSIFT_EMBEDDER_URL: 'http://x/v1' },
      }),
    ).toThrow(expect.objectContaining({ code: 'bad_format', param: 'embedder.url' }));
    expect(() => loadProviderConfig({ cwd: tmpdir(), env: { MAILSIFT_EMBEDDER_KIND: 'cohere' } })).toThrow(
      expect.objectContaining({ code: 'bad_format', param: 'embedder.kind' }),
    );
    const missing = join(tmpdir(), 'mailsift-rag-config-no-model');
    expect(() => createEmbedder({ kind: 'onnx', path: missing })).toThrow(
      expect.objectContaining({
        code: 'not_found',
        param: 'embedder.path',
        message: expect.stringContaining(`scripts/fetch-model.sh ${missing}`),
      }),
    );
  });

  it('reads a local llm: path relative to the file, a cached model by name, env switching kind', () => {
    const llmDir = tempDir('mailsift-rag-config-llm-');
    writeFileSync(
      join(llmDir, 'mailsift.config.json'),
      JSON.stringify({ llm: { path: 'models/chat.gguf', threads: 1, contextSize: 2048 } }),
    );
    // A path and no url means local, like the onnx embedder.
    expect(
      loadProviderConfig({
        cwd: llmDir,
        env: { MAILSIFT_LLM_MAX_TOKENS: '200', MAILSIFT_LLM_TIMEOUT_MS: '9000' },
      }).llm,
    ).toEqual({
      kind: 'local',
      path: join(llmDir, 'models/chat.gguf'),
      threads: 1,
      contextSize: 2048,
      maxTokens: 200,
      timeoutMs: 9000,
    });
    // MAILSIFT_LLM_KIND=local over the openai file section replaces it; a model name is a cache folder.
    expect(
      loadProviderConfig({
        cwd: dir,
        env: {
          MAILSIFT_LLM_KIND: 'local',
          MAILSIFT_LLM_MODEL: 'my-gguf',
          MAILSIFT_MODEL_CACHE: '/srv/cache',
        },
      }).llm,
    ).toEqual({ kind: 'local', path: '/srv/cache/my-gguf' });
    expect(() =>
      loadProviderConfig({
        cwd: tmpdir(),
        env: { MAILSIFT_LLM_KIND: 'local', MAILSIFT_LLM_URL: 'http://x/v1' },
      }),
    ).toThrow(expect.objectContaining({ code: 'bad_format', param: 'llm.url' }));
    expect(() =>
      loadProviderConfig({
        cwd: tmpdir(),
        env: { MAILSIFT_LLM_KIND: 'local', MAILSIFT_LLM_CONTEXT_SIZE: '10' },
      }),
    ).toThrow(expect.objectContaining({ code: 'bad_format', param: 'llm.contextSize' }));
  });

  it('has an endpoint refine questions unless told not to, and the local model only when told to', () => {
    const refines = (env: NodeJS.ProcessEnv, cwd = dir): boolean => {
      const { llm } = loadProviderConfig({ cwd, env });
      if (!llm) throw new Error('no llm configured');
      const model = createChatModel(llm);
      return questionRefiner(llm, model) === model;
    };
    expect(refines({})).toBe(true);
    expect(refines({ MAILSIFT_LLM_REFINE_QUESTIONS: '0' })).toBe(false);
    expect(refines({ MAILSIFT_LLM_KIND: 'local' })).toBe(false);
    expect(refines({ MAILSIFT_LLM_KIND: 'local', MAILSIFT_LLM_REFINE_QUESTIONS: 'true' })).toBe(true);
    const offDir = tempDir('mailsift-rag-config-refine-');
    writeFileSync(
      join(offDir, 'mailsift.config.json'),
      JSON.stringify({ llm: { url: 'http://127.0.0.1:8080/v1', model: 'm', refineQuestions: false } }),
    );
    expect(refines({}, offDir)).toBe(false);
    expect(() => loadProviderConfig({ cwd: dir, env: { MAILSIFT_LLM_REFINE_QUESTIONS: 'maybe' } })).toThrow(
      expect.objectContaining({ code: 'bad_format', param: 'llm.refineQuestions' }),
    );
  });

  it('reads the chunk size from the embedder section and MAILSIFT_EMBEDDER_CHUNK_*, onto the embedder', () => {
    const sizeDir = tempDir('mailsift-rag-config-chunks-');
    writeFileSync(
      join(sizeDir, 'mailsift.config.json'),
      JSON.stringify({ embedder: { url: 'http://127.0.0.1:9/v1', model: 'm', chunkTokens: 384 } }),
    );
    const config = loadProviderConfig({
      cwd: sizeDir,
      env: { MAILSIFT_EMBEDDER_CHUNK_OVERLAP_TOKENS: '48' },
    });
    expect(config.embedder).toMatchObject({ chunkTokens: 384, chunkOverlapTokens: 48 });
    const embedder = createEmbedder(config.embedder as EmbedderConfig);
    expect(embedder.chunkSize).toEqual({ targetTokens: 384, overlapTokens: 48 });
    // An endpoint has no tokenizer here: its chunks are counted approximately.
    expect(chunkOptionsFor(embedder)).toEqual({ targetTokens: 384, overlapTokens: 48 });
    // Unset: 256/40; a small size keeps the default overlap under half of it.
    const plain = { kind: 'openai', url: 'http://127.0.0.1:9/v1', model: 'm' } as const;
    expect(createEmbedder(plain).chunkSize).toEqual({ targetTokens: 256, overlapTokens: 40 });
    expect(createEmbedder({ ...plain, chunkTokens: 64 }).chunkSize).toEqual({
      targetTokens: 64,
      overlapTokens: 31,
    });
  });

  it('refuses a chunk size that is not an integer, out of range, or overlapping half of itself', () => {
    const env = (extra: NodeJS.ProcessEnv) => ({
      MAILSIFT_EMBEDDER_URL: 'http://127.0.0.1:9/v1',
      MAILSIFT_EMBEDDER_MODEL: 'm',
      ...extra,
    });
    const configured = (extra: NodeJS.ProcessEnv) =>
      createEmbedder(loadProviderConfig({ cwd: tmpdir(), env: env(extra) }).embedder as EmbedderConfig);
    expect(() => configured({ MAILSIFT_EMBEDDER_CHUNK_TOKENS: '256.5' })).toThrow(
      expect.objectContaining({ code: 'bad_format', param: 'embedder.chunkTokens' }),
    );
    expect(() => configured({ MAILSIFT_EMBEDDER_CHUNK_TOKENS: 'lots' })).toThrow(
      expect.objectContaining({ code: 'bad_format', param: 'embedder.chunkTokens' }),
    );
    expect(() => configured({ MAILSIFT_EMBEDDER_CHUNK_TOKENS: '32' })).toThrow(
      expect.objectContaining({
        code: 'invalid_argument',
        param: 'embedder.chunkTokens',
        message: expect.stringContaining('at least 64'),
      }),
    );
    expect(() => configured({ MAILSIFT_EMBEDDER_CHUNK_TOKENS: '10000' })).toThrow(
      expect.objectContaining({ code: 'invalid_argument', param: 'embedder.chunkTokens' }),
    );
    expect(() =>
      configured({ MAILSIFT_EMBEDDER_CHUNK_TOKENS: '128', MAILSIFT_EMBEDDER_CHUNK_OVERLAP_TOKENS: '64' }),
    ).toThrow(expect.objectContaining({ code: 'invalid_argument', param: 'embedder.chunkOverlapTokens' }));
    expect(() => configured({ MAILSIFT_EMBEDDER_CHUNK_OVERLAP_TOKENS: '-1' })).toThrow(
      expect.objectContaining({ param: 'embedder.chunkOverlapTokens' }),
    );
    expect(configured({ MAILSIFT_EMBEDDER_CHUNK_TOKENS: '8192' }).chunkSize?.targetTokens).toBe(8192);
  });

  it('keeps an onnx chunk within what the model reads, counted by its own tokenizer', () => {
    const path = defaultModelDir(process.env, 'all-MiniLM-L6-v2');
    if (!existsSync(join(path, 'mailsift-model.json')))
      throw new Error(`this test needs the model in ${path}: run scripts/fetch-model.sh first`);
    // MiniLM reads 256 tokens unless told more (its position table has 512).
    expect(() => createEmbedder({ kind: 'onnx', path, chunkTokens: 384 })).toThrow(
      expect.objectContaining({
        code: 'invalid_argument',
        param: 'embedder.chunkTokens',
        message: expect.stringContaining('maxTokens 256'),
      }),
    );
    const embedder = createEmbedder({ kind: 'onnx', path, chunkTokens: 384, maxTokens: 384 });
    expect(embedder.chunkSize).toEqual({ targetTokens: 384, overlapTokens: 40 });
    expect(chunkOptionsFor(embedder).tokenizer?.id).toBe('onnx:all-MiniLM-L6-v2');
  });
});

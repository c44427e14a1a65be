import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEmbedder, loadProviderConfig } from './config.js';

describe('provider config', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mailsift-rag-config-'));
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
});

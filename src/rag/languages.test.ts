// Each inbox's languages by share, as ingest settled them, and retrieval's note when an
// English-only embedder searches mail or a question in another language: on real fixture mail
// (an English budget thread, Russian logistics mail) and the fetched onnx models.

import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mailsift } from '../engine.js';
import { inboxByName } from '../store/index.js';
import { embedPending } from './embed.js';
import { openAiEmbedder } from './embedder.js';
import { describeShares, englishOnlyEmbedderNote, inboxLanguages, SearchedLanguages } from './languages.js';
import { defaultModelDir, onnxEmbedder } from './onnx-embedder.js';
import { retrieve } from './retrieve.js';
import { openFixtureArchive, RAG_FIXTURES } from './test-helpers.js';

const MINILM_DIR = defaultModelDir(process.env, 'all-MiniLM-L6-v2');
const MULTILINGUAL_DIR = defaultModelDir(process.env, 'multilingual');

describe('archive languages', () => {
  let engine: Mailsift;
  let mixed: number;
  let english: number;
  beforeAll(async () => {
    // Inbox `mixed`: the budget thread (three mails in English, the decision in Italian) and
    // three Russian ones; `work`: five English mails about unrelated things.
    const archive = await openFixtureArchive('budget-thread', 'mixed');
    engine = archive.engine;
    cpSync(join(RAG_FIXTURES, 'russian-forms'), archive.folder, { recursive: true });
    await engine.ingest([archive.folder], { inbox: 'mixed', workers: 0 });
    await engine.ingest([join(RAG_FIXTURES, 'paraphrase')], { inbox: 'work', workers: 0 });
    mixed = inboxByName(engine.archive.db, 'mixed').id;
    english = inboxByName(engine.archive.db, 'work').id;
  });
  afterAll(() => engine.close());

  it('lists each inbox’s languages by share of its messages, largest first', () => {
    const languages = inboxLanguages(engine.archive.db);
    expect(languages.get('mixed')).toEqual([
      { language: 'en', messages: 3, share: 3 / 7 },
      { language: 'ru', messages: 3, share: 3 / 7 },
      { language: 'it', messages: 1, share: 1 / 7 },
    ]);
    expect(describeShares(languages.get('mixed') ?? [])).toBe('en 43%, ru 43%, it 14%');
    expect(languages.get('work')).toEqual([{ language: 'en', messages: 5, share: 1 }]);
    expect([...inboxLanguages(engine.archive.db, [english]).keys()]).toEqual(['work']);
  });

  it('notes an English-only embedder over mail or a question in another language, naming the way out', () => {
    const db = engine.archive.db;
    const minilm = onnxEmbedder({ modelDir: MINILM_DIR });
    const note = englishOnlyEmbedderNote(
      new SearchedLanguages(db, [mixed]),
      'which budget option was approved?',
      minilm,
    );
    expect(note).toContain(
      'onnx:all-MiniLM-L6-v2:384 relates English text only (the mail is en 43%, ru 43%, it 14%)',
    );
    expect(note).toContain('scripts/fetch-model.sh --model multilingual');
    // English mail, a question in Italian: the vectors cannot bridge that either.
    expect(
      englishOnlyEmbedderNote(
        new SearchedLanguages(db, [english]),
        'chi ha approvato il budget per il terzo turno e quando parte?',
        minilm,
      ),
    ).toContain('(the question in it)');
    expect(
      englishOnlyEmbedderNote(
        new SearchedLanguages(db, [english]),
        'which budget option was approved?',
        minilm,
      ),
    ).toBeNull();
    // The multilingual model relates them; an endpoint's model is not known to be English-only.
    expect(onnxEmbedder({ modelDir: MULTILINGUAL_DIR }).languages).toBe('multilingual');
    expect(
      englishOnlyEmbedderNote(
        new SearchedLanguages(db, [mixed]),
        'which budget?',
        onnxEmbedder({ modelDir: MULTILINGUAL_DIR }),
      ),
    ).toBeNull();
    const endpoint = openAiEmbedder({ url: 'http://127.0.0.1:9/v1', model: 'm' });
    expect(englishOnlyEmbedderNote(new SearchedLanguages(db, [mixed]), 'which budget?', endpoint)).toBeNull();
  });

  it('puts the note among retrieve’s notes when the vectors are searched', async () => {
    const minilm = onnxEmbedder({ modelDir: MINILM_DIR });
    const embedded = await embedPending(engine, minilm);
    expect(embedded.error).toBeUndefined();
    const question = 'когда выгрузили станки?';
    const hybrid = await retrieve(engine, question, { inbox: 'mixed', embedder: minilm });
    expect(hybrid.mode).toBe('hybrid');
    expect(hybrid.notes.some((n) => n.includes('relates English text only'))).toBe(true);
    const keyword = await retrieve(engine, question, { inbox: 'mixed', embedder: minilm, mode: 'keyword' });
    expect(keyword.notes.some((n) => n.includes('relates English text only'))).toBe(false);
  });
});

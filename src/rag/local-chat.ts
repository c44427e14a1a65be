// The `local` chat model: a GGUF model run in process by node-llama-cpp on the CPU, greedy and
// one generation at a time. Prompts carrying <mail> blocks are answered under a JSON-schema
// grammar whose citations can only be those blocks' ids, then rendered as text with [id] marks.

import { statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type {
  Llama,
  LlamaContext,
  LlamaContextSequence,
  LlamaJsonSchemaGrammar,
  LlamaModel,
} from 'node-llama-cpp';
import { MailsiftError } from '../core/errors.js';
import { promptMailIds } from './answer.js';
import type { ChatMessage, ChatModel, ReplyShape } from './chat.js';
import { ProviderError } from './provider-http.js';
import { sentences } from './tokens.js';

/** The chat model scripts/fetch-model.sh fetches, by the folder name it gives it. */
export const LOCAL_CHAT_MODEL = 'smollm2-135m-instruct';
/** The file a fetched GGUF model folder holds. */
export const GGUF_FILE = 'model.gguf';

export interface LocalChatOptions {
  /** A .gguf file, or a model folder written by scripts/fetch-model.sh (its model.gguf). */
  readonly path: string;
  /**
   * llama.cpp threads; default 1. More threads spin against other busy processes: on this
   * 2-core machine under load a 20-token reply took 0.17 s with 1 thread, 4.6 s with 2.
   */
  readonly threads?: number;
  /** Tokens of prompt plus reply the context holds; default 4096. */
  readonly contextSize?: number;
  /** Longest reply in tokens; default 384. */
  readonly maxTokens?: number;
  /** Per answer, loading and queueing included: generation is aborted past it. Default 60 s. */
  readonly timeoutMs?: number;
}

export interface LocalChatModel extends ChatModel {
  /** Frees the model and the native runtime; a later call loads them again. */
  close(): Promise<void>;
}

interface Loaded {
  readonly llama: Llama;
  readonly model: LlamaModel;
  readonly context: LlamaContext;
  /**
   * The context's one sequence, kept for every call (its history cleared first): one taken
   * and disposed per call came back only once the model's pending work ended (Gemma 3
   * 270M), and the next call found "No sequences left".
   */
  readonly sequence: LlamaContextSequence;
}

// Bounds that keep a grammar-constrained reply inside maxTokens, so the JSON always closes.
const MAX_ANSWER_CHARS = 500;
const MAX_CITATIONS = 3;

const JSON_REPLY =
  'Reply with JSON: {"answer": "<your answer>", "citations": ["<id of each message the answer comes from>"]}.';

function fetchHint(): string {
  return `run scripts/fetch-model.sh --model ${LOCAL_CHAT_MODEL} (from the mailsift repository) to fetch it`;
}

/** The .gguf file `path` names (a file, or a folder with model.gguf); checked now, so a wrong path fails at configuration time. */
export function resolveGguf(path: string): string {
  let file = path;
  try {
    if (statSync(path).isDirectory()) file = join(path, GGUF_FILE);
    if (statSync(file).isFile()) return file;
  } catch {
    // Reported below with the fetch hint.
  }
  throw new MailsiftError('not_found', `local llm: model file ${file} does not exist; ${fetchHint()}`, {
    param: 'llm.path',
  });
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * The answer JSON the grammar allows, as the text with [id] marks that answers are parsed from.
 * A small model greedily decoded loops on a sentence until the length bound (DRY and repeat
 * penalties did not stop SmolLM2-135M): each sentence is kept once, and one cut off by the
 * bound is dropped.
 */
function renderCited(json: { answer: string; citations: readonly string[] }): string {
  const said = sentences(json.answer);
  if (json.answer.length >= MAX_ANSWER_CHARS && said.length > 1) said.pop();
  const text = [...new Set(said)].join(' ');
  const marks = [...new Set(json.citations)].map((id) => `[${id}]`).join(' ');
  return marks ? `${text} ${marks}` : text;
}

export function localChat(options: LocalChatOptions): LocalChatModel {
  const file = resolveGguf(options.path);
  const threads = Math.max(1, options.threads ?? 1);
  const maxTokens = Math.max(16, options.maxTokens ?? 384);
  const timeoutMs = options.timeoutMs ?? 60_000;
  const name = basename(file) === GGUF_FILE ? basename(dirname(file)) : basename(file, '.gguf');

  let loading: Promise<Loaded> | null = null;
  // The native runtime and the model load on first use: configuring a model stays cheap.
  const load = (signal: AbortSignal): Promise<Loaded> => {
    loading ??= (async () => {
      const { getLlama, LlamaLogLevel } = await import('node-llama-cpp');
      // build 'never': the prebuilt CPU binary, never a source build; maxThreads caps every pool.
      const llama = await getLlama({
        gpu: false,
        build: 'never',
        logLevel: LlamaLogLevel.error,
        maxThreads: threads,
      });
      try {
        const model = await llama.loadModel({ modelPath: file, gpuLayers: 0, loadSignal: signal });
        const context = await model.createContext({
          contextSize: options.contextSize ?? 4096,
          threads,
          sequences: 1,
        });
        return { llama, model, context, sequence: context.getSequence() };
      } catch (error) {
        await llama.dispose();
        throw error;
      }
    })().catch((error: unknown) => {
      loading = null;
      if (signal.aborted) throw error;
      throw new ProviderError(`local llm could not load ${file}: ${message(error)}`, 'llm', null, error);
    });
    return loading;
  };

  const unfinishedJson = (error: unknown, budget: number): ProviderError =>
    new ProviderError(
      `local llm ${name}: the reply did not finish its JSON within ${budget} tokens`,
      'llm',
      null,
      error,
    );

  const generate = async (
    messages: readonly ChatMessage[],
    signal: AbortSignal,
    shape: ReplyShape | undefined,
  ): Promise<string> => {
    const { llama, model, context, sequence } = await load(signal);
    const { LlamaChatSession } = await import('node-llama-cpp');
    const system = messages.filter((m) => m.role === 'system').map((m) => m.content);
    const turns = messages.filter((m) => m.role !== 'system');
    const last = turns[turns.length - 1];
    if (last?.role !== 'user')
      throw new ProviderError('local llm: the last message must be the user’s', 'llm', null);
    // Mail in the prompt, and no shape asked: an answer citing that mail (ask's).
    const ids = shape ? [] : promptMailIds(last.content);
    if (ids.length > 0) system.push(JSON_REPLY);
    // node-llama-cpp would silently drop the start of an oversized prompt (mail the grammar
    // still lets the model cite): refuse instead, so ask degrades and says why.
    const promptTokens = model.tokenize(messages.map((m) => m.content).join('\n')).length;
    // A shape bounds its reply itself: it gets the budget its longest reply needs.
    const budget = shape?.maxTokens ?? maxTokens;
    if (promptTokens + budget > context.contextSize)
      throw new ProviderError(
        `local llm ${name}: a prompt of ${promptTokens} tokens and a reply of up to ${budget} do not fit its context of ${context.contextSize}; raise llm.contextSize`,
        'llm',
        null,
      );
    await sequence.clearHistory();
    const session = new LlamaChatSession({
      contextSequence: sequence,
      ...(system.length > 0 ? { systemPrompt: system.join('\n\n') } : {}),
    });
    try {
      if (turns.length > 1)
        session.setChatHistory([
          ...session.getChatHistory(),
          ...turns
            .slice(0, -1)
            .map((m) =>
              m.role === 'user'
                ? { type: 'user' as const, text: m.content }
                : { type: 'model' as const, response: [m.content] },
            ),
        ]);
      if (shape) {
        const asked = await llama.createGrammarForJsonSchema(shape.jsonSchema as never);
        const reply = await session.prompt(last.content, {
          temperature: 0,
          seed: 0,
          maxTokens: budget,
          signal,
          grammar: asked,
        });
        try {
          return JSON.stringify(asked.parse(reply));
        } catch (error) {
          throw unfinishedJson(error, budget);
        }
      }
      const grammar: LlamaJsonSchemaGrammar<typeof CITED_ANSWER_SHAPE> | null =
        ids.length > 0 ? await llama.createGrammarForJsonSchema(citedAnswerSchema(ids)) : null;
      const reply = await session.prompt(last.content, {
        temperature: 0,
        seed: 0,
        maxTokens: budget,
        signal,
        ...(grammar ? { grammar } : {}),
      });
      if (!grammar) return reply;
      try {
        return renderCited(grammar.parse(reply));
      } catch (error) {
        throw unfinishedJson(error, budget);
      }
    } finally {
      session.dispose({ disposeSequence: false });
    }
  };

  // One context, one sequence: generations queue here.
  let queue: Promise<unknown> = Promise.resolve();
  return {
    id: `local:${name}`,
    complete(messages, stop, shape) {
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = stop ? AbortSignal.any([timeout, stop]) : timeout;
      const run = queue.then(async () => {
        try {
          stop?.throwIfAborted();
          return await generate(messages, signal, shape);
        } catch (error) {
          if (stop?.aborted) throw stop.reason;
          if (signal.aborted)
            throw new ProviderError(
              `local llm ${name} did not answer within ${timeoutMs} ms; generation aborted`,
              'llm',
              null,
              error,
            );
          if (error instanceof ProviderError) throw error;
          throw new ProviderError(`local llm ${name} failed: ${message(error)}`, 'llm', null, error);
        }
      });
      queue = run.catch(() => undefined);
      return run;
    },
    async close() {
      const pending = loading;
      loading = null;
      await queue;
      if (!pending) return;
      const loaded = await pending.catch(() => null);
      if (!loaded) return;
      await loaded.context.dispose();
      await loaded.model.dispose();
      await loaded.llama.dispose();
    },
  };
}

// The shape only, for typing parse(); the real schema lists the prompt's ids.
const CITED_ANSWER_SHAPE = {
  type: 'object',
  properties: {
    answer: { type: 'string', maxLength: MAX_ANSWER_CHARS },
    citations: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: MAX_CITATIONS },
  },
} as const;

function citedAnswerSchema(ids: readonly string[]): typeof CITED_ANSWER_SHAPE {
  return {
    ...CITED_ANSWER_SHAPE,
    properties: {
      ...CITED_ANSWER_SHAPE.properties,
      citations: { ...CITED_ANSWER_SHAPE.properties.citations, items: { enum: ids } as never },
    },
  };
}

// Chat models behind one interface, and the `openai` one: any OpenAI-compatible
// /v1/chat/completions endpoint, with the shared retry, backoff and timeout handling.

import { z } from 'zod';
import { type EndpointOptions, endpointUrl, ProviderError, postJson } from './provider-http.js';

export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
}

/**
 * The reply a caller needs: one JSON object that `jsonSchema` (JSON Schema) describes. A local
 * model generates under it as a grammar, so even a small one answers in the shape asked; an
 * OpenAI-compatible server is sent it as `response_format` (Ollama, llama.cpp's server, vLLM
 * and LM Studio constrain their output to it); the caller checks the reply either way.
 */
export interface ReplyShape {
  readonly jsonSchema: Readonly<Record<string, unknown>>;
  /**
   * Tokens the longest reply the schema allows can take (a character a token at worst): a
   * local model's reply budget for it, so the JSON always closes.
   */
  readonly maxTokens: number;
}

export interface ChatModel {
  readonly id: string;
  /**
   * The assistant's reply text. Throws ProviderError when the provider fails. `signal` gives
   * up early (a background pass asked to stop), rejecting with its reason.
   */
  complete(messages: readonly ChatMessage[], signal?: AbortSignal, shape?: ReplyShape): Promise<string>;
  /** Frees what the model holds in process (a local model's weights); a later call loads it again. */
  close?(): Promise<void>;
}

export interface OpenAiChatOptions extends EndpointOptions {
  readonly model: string;
  readonly maxTokens?: number;
}

const chatResponse = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable() }) })).min(1),
});

export function openAiChat(options: OpenAiChatOptions): ChatModel {
  const url = endpointUrl(options.url, '/chat/completions');
  // A server that refused a reply shape once (400: an older one without json_schema) is asked
  // without it from then on; the prompt still describes the shape.
  let shapesRefused = false;
  return {
    id: `openai:${options.model}`,
    async complete(messages, signal, shape) {
      const body = {
        model: options.model,
        messages,
        temperature: 0,
        ...(options.maxTokens ? { max_tokens: options.maxTokens } : {}),
      };
      const shaped =
        shape && !shapesRefused
          ? {
              ...body,
              response_format: {
                type: 'json_schema',
                json_schema: { name: 'reply', schema: shape.jsonSchema },
              },
            }
          : body;
      const answer = await postJson(options, url, shaped, 'llm', signal).catch((error: unknown) => {
        if (shaped === body || !(error instanceof ProviderError) || error.status !== 400) throw error;
        shapesRefused = true;
        return postJson(options, url, body, 'llm', signal);
      });
      const parsed = chatResponse.safeParse(answer);
      const content = parsed.success ? parsed.data.choices[0]?.message.content : null;
      if (!content) throw new ProviderError(`llm at ${url} answered without a message`, 'llm', 200);
      return content;
    },
  };
}

// Test support: a loopback server speaking the OpenAI wire format for /v1/embeddings and
// /v1/chat/completions, with scripted faults (400 as a server refusing a request field, 429
// with Retry-After, 5xx, 401, garbage, a request that never answers). Embeddings are hashed bags of word prefixes: texts sharing
// words are near, which is enough to exercise the vector leg deterministically.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault = '400' | '429' | '500' | '401' | 'garbage' | 'hang';

export interface ChatRequest {
  readonly model: string;
  readonly messages: ReadonlyArray<{ role: string; content: string }>;
}

export interface Loopback {
  readonly url: string;
  /** Faults answered to the next requests, one per request, in order. */
  readonly faults: Fault[];
  readonly requests: Array<{
    path: string;
    body: Record<string, unknown>;
    authorization: string | undefined;
  }>;
  /** Most requests seen in flight at once. */
  readonly maxInFlight: () => number;
  /** What the chat endpoint answers; default: echoes nothing useful. */
  chat: (request: ChatRequest) => string;
  close(): Promise<void>;
}

export const LOOPBACK_DIMENSIONS = 64;

/** The deterministic embedding the loopback answers for a text. */
export function hashedEmbedding(text: string, dims = LOOPBACK_DIMENSIONS): number[] {
  const vector = new Array<number>(dims).fill(0);
  for (const word of text.toLowerCase().match(/\p{L}{3,}|\d+/gu) ?? []) {
    const key = word.slice(0, 5);
    let h = 2166136261;
    for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 16777619);
    vector[(h >>> 0) % dims] = (vector[(h >>> 0) % dims] as number) + 1;
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((v) => v / norm);
}

const ERRORS: Record<'400' | '429' | '500' | '401', { status: number; body: unknown }> = {
  '400': {
    status: 400,
    body: {
      error: {
        message: "Invalid value: 'json_schema'. Supported values are: 'json_object' and 'text'.",
        type: 'invalid_request_error',
        param: 'response_format.type',
        code: 'invalid_value',
      },
    },
  },
  '429': {
    status: 429,
    body: {
      error: {
        message: 'Rate limit reached for requests. Please try again in 1s.',
        type: 'requests',
        param: null,
        code: 'rate_limit_exceeded',
      },
    },
  },
  '500': {
    status: 500,
    body: {
      error: {
        message: 'The server had an error while processing your request. Sorry about that!',
        type: 'server_error',
        param: null,
        code: null,
      },
    },
  },
  '401': {
    status: 401,
    body: {
      error: {
        message:
          'Incorrect API key provided: sk-wrong. You can find your API key at https://platform.openai.com/account/api-keys.',
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      },
    },
  },
};

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

export async function startLoopback(): Promise<Loopback> {
  const faults: Fault[] = [];
  const requests: Loopback['requests'] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const hanging = new Set<ServerResponse>();
  const state = { chat: (_: ChatRequest) => 'I do not know.' };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
    requests.push({ path: req.url ?? '', body, authorization: req.headers.authorization });
    const fault = faults.shift();
    if (fault === 'hang') {
      hanging.add(res);
      return;
    }
    if (fault === 'garbage') return send(res, 200, { object: 'list', data: 'not embeddings' });
    if (fault !== undefined) {
      const { status, body: errorBody } = ERRORS[fault];
      return send(res, status, errorBody, fault === '429' ? { 'retry-after': '1' } : {});
    }
    // A short pause so concurrent requests overlap and the in-flight count means something.
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (req.url === '/v1/embeddings') {
      const input = body.input;
      const texts = Array.isArray(input) ? (input as string[]) : [String(input)];
      const dims = typeof body.dimensions === 'number' ? body.dimensions : LOOPBACK_DIMENSIONS;
      return send(res, 200, {
        object: 'list',
        data: texts.map((text, index) => ({
          object: 'embedding',
          index,
          embedding: hashedEmbedding(text, dims),
        })),
        model: body.model,
        usage: { prompt_tokens: texts.length, total_tokens: texts.length },
      });
    }
    if (req.url === '/v1/chat/completions') {
      const content = state.chat(body as unknown as ChatRequest);
      return send(res, 200, {
        id: 'chatcmpl-loopback',
        object: 'chat.completion',
        created: 1717400000,
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      });
    }
    send(res, 404, { error: { message: `Invalid URL (POST ${req.url})`, type: 'invalid_request_error' } });
  };

  const server = createServer((req, res) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.on('close', () => inFlight--);
    handle(req, res).catch((error: unknown) => send(res, 500, { error: { message: String(error) } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    faults,
    requests,
    maxInFlight: () => maxInFlight,
    get chat() {
      return state.chat;
    },
    set chat(fn) {
      state.chat = fn;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

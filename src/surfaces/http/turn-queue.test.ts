// A saturated server lets a burst of new connections in promptly (counted in requests served,
// not timed), and starts requests in the order they arrived.

import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { oneRequestPerTurn } from './turn-queue.js';

const BODY = 'x'.repeat(2_000);

/** A client that asks again as soon as each answer is complete (as wrk does). */
function keepAsking(port: number, onAnswer: () => void): Socket {
  const socket = connect(port, '127.0.0.1');
  const ask = (): void => {
    socket.write('GET / HTTP/1.1\r\nHost: test\r\n\r\n');
  };
  let buffered = '';
  socket.on('connect', ask);
  socket.on('data', (chunk) => {
    buffered += chunk.toString('latin1');
    const end = buffered.indexOf('\r\n\r\n');
    if (end < 0 || buffered.length < end + 4 + BODY.length) return;
    buffered = buffered.slice(end + 4 + BODY.length);
    onAnswer();
    ask();
  });
  socket.on('error', () => {});
  return socket;
}

describe('oneRequestPerTurn', () => {
  const sockets: Socket[] = [];
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    for (const s of sockets.splice(0)) s.destroy();
    await close?.();
  });

  /** A server whose every request costs 2 ms of CPU; `started` lists the remote port of each. */
  async function busyServer(wrap: (l: RequestListener) => RequestListener) {
    const started: number[] = [];
    const listener = (req: IncomingMessage, res: ServerResponse): void => {
      started.push(req.socket.remotePort ?? 0);
      const until = performance.now() + 2;
      while (performance.now() < until);
      res.setHeader('content-length', BODY.length);
      res.end(BODY);
    };
    const server = createServer(wrap(listener));
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    close = () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    return { port: (server.address() as AddressInfo).port, started };
  }

  /** Requests the saturated server started before the last of 20 new connections got its first turn. */
  async function requestsBeforeBurstServed(wrap: (l: RequestListener) => RequestListener): Promise<number> {
    const { port, started } = await busyServer(wrap);
    let answers = 0;
    for (let i = 0; i < 20; i++) sockets.push(keepAsking(port, () => answers++));
    while (answers < 200) await new Promise((r) => setTimeout(r, 5));
    const before = started.length;
    const burst = Array.from({ length: 20 }, () => {
      let first!: () => void;
      const answered = new Promise<void>((r) => {
        first = r;
      });
      sockets.push(keepAsking(port, () => first()));
      return answered;
    });
    await Promise.all(burst);
    const ports = new Set(sockets.slice(20).map((s) => s.localPort ?? 0));
    const lastFirst = Math.max(...[...ports].map((p) => started.indexOf(p, before)));
    return lastFirst - before;
  }

  it('lets a burst of connections in within about a round of requests, not a round per connection', async () => {
    // Measured: 319 requests without the queue (20 new connections beside 20 busy ones are let
    // in one per round of 20-40 requests), 58 with it (each after about one request).
    expect(await requestsBeforeBurstServed(oneRequestPerTurn)).toBeLessThan(100);
  }, 60_000);

  it('starts requests in the order they arrived', async () => {
    const order: string[] = [];
    const listener = oneRequestPerTurn((req) => {
      order.push(req.url ?? '');
    });
    for (const url of ['/a', '/b', '/c'])
      listener({ url, socket: { destroyed: false } } as unknown as IncomingMessage, {} as ServerResponse);
    expect(order).toEqual([]);
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual(['/a', '/b', '/c']);
  });

  it('drops a request whose client left while it waited', async () => {
    const started: string[] = [];
    const queued = oneRequestPerTurn((request) => {
      started.push(request.url ?? '');
    });
    const request = (url: string, destroyed: boolean) =>
      [{ url, socket: { destroyed } } as unknown as IncomingMessage, {} as ServerResponse] as const;
    queued(...request('/first', false));
    queued(...request('/gone', true));
    queued(...request('/last', false));
    for (let turn = 0; turn < 4; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['/first', '/last']);
  });
});

// Starts at most one request per turn of the event loop, in arrival order.
//
// libuv accepts a waiting connection once per poll phase. Node's HTTP server runs every
// request that phase read before it polls again, so on a saturated server one turn lasts a
// whole round of requests (50 connections x ~2 ms) and a burst of new connections is let in
// one per round: on the wire, the 50th of wrk's connections got its first answer 4.5 s after
// sending it, while steady-state requests took 61 ms at the median. Handing each request to
// the next turn (setImmediate runs after the next poll) keeps the poll phases coming between
// requests, so a new connection waits for about one request, not one round; the queue keeps
// the requests a turn reads in their arrival order.

import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

export function oneRequestPerTurn(listener: RequestListener): RequestListener {
  const waiting: Array<[IncomingMessage, ServerResponse]> = [];
  let scheduled = false;
  const startNext = (): void => {
    scheduled = false;
    const next = waiting.shift();
    if (waiting.length > 0) {
      scheduled = true;
      setImmediate(startNext);
    }
    // A client gone while its request waited is not answered: at shutdown, wrk's last
    // requests outlived their connections and ran on an archive the server had closed.
    if (next !== undefined && !next[0].socket.destroyed) void listener(...next);
  };
  return (request, response) => {
    waiting.push([request, response]);
    if (scheduled) return;
    scheduled = true;
    setImmediate(startNext);
  };
}

// A loopback TCP proxy in front of a test IMAP server that records what crosses it: the
// commands a client sends and how many FETCH responses the server answers with, so a test can
// tell a sync that listed a folder whole from one that fetched only its changes, or act on a
// command as it passes (cut the connection in the middle of a download).

import { createServer, type Server, Socket } from 'node:net';

export interface ImapProxy {
  readonly port: number;
  /** Command lines the clients sent, tags stripped, since the last reset. */
  commands(): string[];
  /** Untagged FETCH responses the server sent since the last reset. */
  fetchResponses(): number;
  reset(): void;
  close(): Promise<void>;
}

export async function startImapProxy(
  target: { host: string; port: number },
  onCommand: (command: string) => void = () => {},
): Promise<ImapProxy> {
  let commands: string[] = [];
  let fetches = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = new Socket();
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    upstream.connect(target.port, target.host);
    client.pipe(upstream);
    upstream.pipe(client);
    onLines(client, (line) => {
      const command = line.slice(line.indexOf(' ') + 1);
      commands.push(command);
      onCommand(command);
    });
    onLines(upstream, (line) => {
      if (/^\* \d+ FETCH /.test(line)) fetches++;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('the proxy has no port');
  return {
    port: address.port,
    commands: () => [...commands],
    fetchResponses: () => fetches,
    reset() {
      commands = [];
      fetches = 0;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Calls `onLine` for each CRLF-terminated line the socket reads (a literal's lines included). */
function onLines(socket: Socket, onLine: (line: string) => void): void {
  let pending = '';
  socket.on('data', (chunk: Buffer) => {
    pending += chunk.toString('latin1');
    const lines = pending.split('\r\n');
    pending = lines.pop() ?? '';
    for (const line of lines) onLine(line);
  });
}

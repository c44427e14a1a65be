// A server that does not offer IMAP4rev1 (or rev2) is refused with a typed error naming the
// source, and nothing is stored. The server is a loopback stand-in that greets without
// IMAP4rev1 in its capabilities and says OK to every command, as a half-IMAP proxy might.

import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingest } from '../../src/pipeline/ingest.js';
import { openArchive } from '../../src/store/index.js';
import { tempDir } from '../temp.js';

const CAPABILITIES = 'IMAP4 AUTH=PLAIN';
let server: Server;

beforeAll(async () => {
  server = createServer((socket) => {
    socket.write(`* OK [CAPABILITY ${CAPABILITIES}] not quite IMAP4rev1\r\n`);
    let pending = '';
    socket.on('data', (chunk: Buffer) => {
      pending += chunk.toString('latin1');
      for (let end = pending.indexOf('\r\n'); end >= 0; end = pending.indexOf('\r\n')) {
        const [tag, command] = pending.slice(0, end).split(' ');
        pending = pending.slice(end + 2);
        if (command?.toUpperCase() === 'CAPABILITY') socket.write(`* CAPABILITY ${CAPABILITIES}\r\n`);
        if (command?.toUpperCase() === 'LOGOUT') socket.write('* BYE\r\n');
        socket.write(`${tag} OK done\r\n`);
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('a server without IMAP4rev1', () => {
  it('is connection_failed naming the source, and stores nothing', async () => {
    const url = `imap://alice@127.0.0.1:${(server.address() as AddressInfo).port}`;
    const archive = openArchive(join(tempDir('mailsift-imap-rev0-'), 'archive.db'));
    try {
      const error = await ingest(archive, [url], {
        workers: 0,
        imap: { credential: { kind: 'command', command: 'echo pw' } },
      }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'connection_failed', param: `${url}/` });
      expect((error as Error).message).toContain('does not speak IMAP4rev1');
      expect(archive.db.prepare('SELECT count(*) FROM sources').pluck().get()).toBe(0);
    } finally {
      archive.close();
    }
  });
});

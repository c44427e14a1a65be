// TLS failures of an IMAP source are typed (tls_failed) and name the source: TLS spoken to a
// plaintext server, and a certificate nobody vouches for, which --tls-ca makes trusted. The
// certificate's server is a bare TLS listener on loopback that greets like an IMAP server and
// then hangs up: enough to tell a refused handshake from a completed one.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createServer, type Server } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingest } from '../../src/pipeline/ingest.js';
import { openArchive } from '../../src/store/index.js';
import { type DovecotServer, startDovecot } from '../support/dovecot.js';
import { tempDir } from '../temp.js';

let dovecot: DovecotServer;
let tlsServer: Server;
let dir: string;

beforeAll(async () => {
  dovecot = await startDovecot();
  dir = tempDir('mailsift-imap-tls-');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  tlsServer = createServer(
    { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
    (socket) => socket.end('* BYE not really a server\r\n'),
  );
  await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  await dovecot.close();
  await new Promise((resolve) => tlsServer.close(resolve));
});

async function sync(url: string, tlsCa?: string): Promise<unknown> {
  const archive = openArchive(join(tempDir('mailsift-imap-tls-db-'), 'archive.db'));
  try {
    return await ingest(archive, [url], {
      workers: 0,
      extractAttachments: false,
      imap: { credential: { kind: 'command', command: 'echo pw' }, ...(tlsCa ? { tlsCa } : {}) },
    }).catch((error: unknown) => error);
  } finally {
    archive.close();
  }
}

describe('IMAP over TLS', () => {
  it('TLS spoken to a plaintext server is tls_failed, naming the source', async () => {
    const url = `imaps://alice@127.0.0.1:${dovecot.port}`;
    expect(await sync(url)).toMatchObject({ code: 'tls_failed', param: `${url}/` });
  });

  it('an unknown certificate is tls_failed; with --tls-ca its CA is trusted and the handshake completes', async () => {
    const url = `imaps://alice@127.0.0.1:${(tlsServer.address() as AddressInfo).port}`;
    const untrusted = await sync(url);
    expect(untrusted).toMatchObject({ code: 'tls_failed', param: `${url}/` });
    expect((untrusted as Error).message).toMatch(/self.signed|certificate/i);
    const trusted = await sync(url, join(dir, 'cert.pem'));
    expect(trusted, String(trusted)).toMatchObject({ code: 'connection_failed' });
  });
});

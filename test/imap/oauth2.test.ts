// XOAUTH2 against a real Dovecot whose oauth2 passdb asks a loopback introspection endpoint
// (RFC 7662, a node:http server here) whether a token is good: the token comes from
// --oauth2-token-command, run again for each connection; a refused token is auth_failed.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingest } from '../../src/pipeline/ingest.js';
import { openArchive } from '../../src/store/index.js';
import { type DovecotServer, startDovecot } from '../support/dovecot.js';
import { MailboxDriver, testMessage } from '../support/imap-driver.js';
import { tempDir } from '../temp.js';

const GOOD_TOKEN = 'ya29.good-token';
let introspection: Server;
let server: DovecotServer;
const asked: string[] = [];

beforeAll(async () => {
  introspection = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk));
    request.on('end', () => {
      const token = new URLSearchParams(body).get('token') ?? '';
      asked.push(token);
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify(token === GOOD_TOKEN ? { active: true, username: 'alice' } : { active: false }),
      );
    });
  });
  await new Promise<void>((resolve) => introspection.listen(0, '127.0.0.1', resolve));
  const { port } = introspection.address() as AddressInfo;
  server = await startDovecot({ oauth2Introspection: `http://127.0.0.1:${port}/introspect` });
  const driver = await MailboxDriver.connect(server);
  await driver.append('INBOX', testMessage(1, 'oauthword'));
  await driver.close();
});

afterAll(async () => {
  await server.close();
  await new Promise((resolve) => introspection.close(resolve));
});

async function sync(token: string): Promise<unknown> {
  const archive = openArchive(join(tempDir('mailsift-imap-oauth-'), 'archive.db'));
  try {
    return await ingest(archive, [`imap://alice@127.0.0.1:${server.port}/INBOX`], {
      workers: 0,
      extractAttachments: false,
      imap: { credential: { kind: 'oauth2-command', command: `printf %s ${token}` } },
    }).catch((error: unknown) => error);
  } finally {
    archive.close();
  }
}

describe('IMAP with an OAuth2 token command', () => {
  it('logs in with XOAUTH2 and syncs; a refused token is auth_failed', async () => {
    expect(await sync(GOOD_TOKEN)).toMatchObject({ added: 1, failed: 0 });
    expect(asked).toContain(GOOD_TOKEN);
    expect(await sync('ya29.expired')).toMatchObject({ code: 'auth_failed' });
    expect(asked).toContain('ya29.expired');
  });
});

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/temp.js';
import { describeCredential, PASSWORD_ENV, parseCredential, readSecret } from './credentials.js';

const source = 'imaps://bob@host/';

describe('readPassword', () => {
  afterEach(() => {
    delete process.env[PASSWORD_ENV];
  });

  it('reads the environment, a file and a command, without their trailing newline', async () => {
    process.env[PASSWORD_ENV] = 'from-env';
    expect(await readSecret({ kind: 'env' }, source)).toEqual({ pass: 'from-env' });
    const file = join(tempDir('mailsift-pw-'), 'pw');
    writeFileSync(file, 'from-file\n');
    expect(await readSecret({ kind: 'file', path: file }, source)).toEqual({ pass: 'from-file' });
    expect(await readSecret({ kind: 'command', command: 'echo from-command' }, source)).toEqual({
      pass: 'from-command',
    });
    // An OAuth2 token command's output is an access token, for XOAUTH2.
    expect(await readSecret({ kind: 'oauth2-command', command: 'echo ya29.token' }, source)).toEqual({
      accessToken: 'ya29.token',
    });
  });

  it('fails with auth_failed naming the source, never quoting what a failed command printed', async () => {
    await expect(readSecret({ kind: 'env' }, source)).rejects.toMatchObject({
      code: 'auth_failed',
      param: source,
    });
    const failed = await readSecret({ kind: 'command', command: 'echo s3cret; exit 3' }, source).catch(
      (e: Error) => e,
    );
    expect(failed).toMatchObject({ code: 'auth_failed' });
    expect((failed as Error).message).not.toContain('s3cret');
    await expect(readSecret({ kind: 'file', path: '/nonexistent/pw' }, source)).rejects.toMatchObject({
      code: 'auth_failed',
    });
  });

  it('records the method, and reads it back', () => {
    for (const method of [
      { kind: 'env' as const },
      { kind: 'file' as const, path: '/home/bob/.imap-pw' },
      { kind: 'command' as const, command: 'pass show mail:imap' },
      { kind: 'oauth2-command' as const, command: 'oauth2 token --account me@gmail.com' },
    ])
      expect(parseCredential(describeCredential(method))).toEqual(method);
  });
});

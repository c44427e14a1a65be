import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/temp.js';
import { describeCredential, PASSWORD_ENV, parseCredential, readPassword } from './credentials.js';

const source = 'imaps://bob@host/';

describe('readPassword', () => {
  afterEach(() => {
    delete process.env[PASSWORD_ENV];
  });

  it('reads the environment, a file and a command, without their trailing newline', async () => {
    process.env[PASSWORD_ENV] = 'from-env';
    expect(await readPassword({ kind: 'env' }, source)).toBe('from-env');
    const file = join(tempDir('mailsift-pw-'), 'pw');
    writeFileSync(file, 'from-file\n');
    expect(await readPassword({ kind: 'file', path: file }, source)).toBe('from-file');
    expect(await readPassword({ kind: 'command', command: 'echo from-command' }, source)).toBe(
      'from-command',
    );
  });

  it('fails with auth_failed naming the source, never quoting what a failed command printed', async () => {
    await expect(readPassword({ kind: 'env' }, source)).rejects.toMatchObject({
      code: 'auth_failed',
      param: source,
    });
    const failed = await readPassword({ kind: 'command', command: 'echo s3cret; exit 3' }, source).catch(
      (e: Error) => e,
    );
    expect(failed).toMatchObject({ code: 'auth_failed' });
    expect((failed as Error).message).not.toContain('s3cret');
    await expect(readPassword({ kind: 'file', path: '/nonexistent/pw' }, source)).rejects.toMatchObject({
      code: 'auth_failed',
    });
  });

  it('records the method, and reads it back', () => {
    for (const method of [
      { kind: 'env' as const },
      { kind: 'file' as const, path: '/home/bob/.imap-pw' },
      { kind: 'command' as const, command: 'pass show mail:imap' },
    ])
      expect(parseCredential(describeCredential(method))).toEqual(method);
  });
});

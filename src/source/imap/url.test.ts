import { describe, expect, it } from 'vitest';
import { isImapUrl, isLoopback, parseImapUrl } from './url.js';

describe('parseImapUrl', () => {
  it('reads user, host, port and folder, and drops the default port from the canonical form', () => {
    expect(parseImapUrl('imaps://me%40corp.example@Mail.Example.com:993/Work/2024')).toEqual({
      secure: true,
      host: 'mail.example.com',
      port: 993,
      user: 'me@corp.example',
      folders: ['Work/2024'],
      exclude: [],
      canonical: 'imaps://me%40corp.example@mail.example.com/Work%2F2024',
    });
    expect(parseImapUrl('imap://bob@127.0.0.1:10143').port).toBe(10143);
    expect(parseImapUrl('imap://bob@localhost').port).toBe(143);
  });

  it('keeps the folder selection in the canonical form, and reads it back', () => {
    const first = parseImapUrl('imaps://bob@host', { folders: ['INBOX', 'Lists'], exclude: ['Spam'] });
    expect(first.canonical).toBe('imaps://bob@host/?folder=INBOX&folder=Lists&exclude=Spam');
    const again = parseImapUrl(first.canonical);
    expect(again).toEqual(first);
  });

  it('refuses a password in the URL without echoing it, and what is not an IMAP URL', () => {
    const error = (() => {
      try {
        parseImapUrl('imaps://bob:hunter2@host');
      } catch (e) {
        return e as Error & { code: string; param: string };
      }
    })();
    expect(error).toMatchObject({ code: 'invalid_argument' });
    expect(`${error?.message} ${error?.param}`).not.toContain('hunter2');
    for (const bad of ['imaps://host', 'http://bob@host', 'imaps://bob@host/#x', 'imaps://bob@host/?x=1'])
      expect(() => parseImapUrl(bad), bad).toThrow(/imaps:\/\/user@host/);
  });

  it('tells URLs from paths and loopback hosts from others', () => {
    expect(isImapUrl('IMAPS://a@b')).toBe(true);
    expect(isImapUrl('./imap/mail')).toBe(false);
    expect(['127.0.0.1', '127.1.2.3', 'localhost', '[::1]'].map(isLoopback)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['10.0.0.1', 'imap.example.com', '128.0.0.1'].map(isLoopback)).toEqual([false, false, false]);
  });
});

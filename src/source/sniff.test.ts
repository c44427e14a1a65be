import { describe, expect, it } from 'vitest';
import { sniff } from './sniff.js';

const of = (text: string, truncated = false) => sniff(Buffer.from(text, 'latin1'), truncated);

describe('sniff', () => {
  it('tells an mbox, a message, an empty file and anything else apart by their first bytes', () => {
    expect(of('\nFrom alice@example.com Mon Feb  5 10:00:00 2024\nFrom: a\n')).toBe('mbox');
    expect(of('Return-Path: <a@example.com>\nX-Spam: no\n\nbody\n')).toBe('message');
    expect(of(' \n\r\n')).toBe('empty');
    expect(of('3 V1707000000 N4 G5c3f2a1b\n1 :1707000001.M1P1.host\n')).toBe('other');
    expect(of('\x07\x02\x00\x00\x80')).toBe('other');
  });

  it('wants one field that mail always has, so "key: value" text is not a message', () => {
    expect(of('name: mailsift\nversion: 1\n\n')).toBe('other');
    expect(of('Note: these folders hold my mail.\nSubject to change.\n')).toBe('other');
  });

  it('takes a message of headers alone, and a field cut by the end of the probe by its name', () => {
    expect(of('From: a@example.com\nSubject: no body\n')).toBe('message');
    expect(of(`X-Long: ${'x'.repeat(100)}\nDKIM-Signature: v=1; a=rsa-sha256; b=AAAA`, true)).toBe('other');
    expect(of(`Received: from mx.example.com by ${'x'.repeat(100)}`, true)).toBe('message');
    expect(of('X-Mailer: mutt\nSubj', true)).toBe('other');
    expect(of('Subject: cut\nX-Mai', true)).toBe('message');
  });
});

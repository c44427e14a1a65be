// The MailSource contract, run against every implementation on its fixtures.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MailSource } from '../core/index.js';
import { MailTreeSource, MboxSource } from './index.js';
import { collect, FIXTURES } from './test-helpers.js';

const cases: [string, () => MailSource][] = [
  ['mbox (Thunderbird)', () => new MboxSource(join(FIXTURES, 'mbox/thunderbird/Inbox'))],
  [
    'mbox (Gmail Takeout)',
    () => new MboxSource(join(FIXTURES, 'mbox/gmail-takeout/All mail Including Spam and Trash.mbox')),
  ],
  ['mbox (duplicates)', () => new MboxSource(join(FIXTURES, 'mbox/duplicates/archive.mbox'))],
  ['Maildir++ (Dovecot)', () => new MailTreeSource(join(FIXTURES, 'maildir/dovecot'))],
  ['nested maildirs', () => new MailTreeSource(join(FIXTURES, 'maildir/nested'))],
  ['.eml tree', () => new MailTreeSource(join(FIXTURES, 'eml'))],
];

describe.each(cases)('MailSource contract: %s', (_, make) => {
  it('yields entries with unique keys, in the same order with the same fingerprints every scan', async () => {
    const first = await collect(make());
    const second = await collect(make());
    expect(first.length).toBeGreaterThan(0);
    expect(new Set(first.map((e) => e.key)).size).toBe(first.length);
    expect(second.map((e) => [e.key, e.fingerprint, e.folder])).toEqual(
      first.map((e) => [e.key, e.fingerprint, e.folder]),
    );
  });

  it('reads each entry as an RFC 5322 message with a file time', async () => {
    for (const entry of await collect(make())) {
      const text = (await entry.read()).toString('utf8');
      expect(text).toMatch(/^[\x21-\x39\x3b-\x7e]+:/);
      expect(text).toMatch(/\nSubject: /);
      expect(entry.fileTime).toBeInstanceOf(Date);
    }
  });

  it('stops cleanly when the consumer breaks early', async () => {
    const source = make();
    for await (const entry of source.scan()) {
      expect(entry.key).not.toBe('');
      break;
    }
    expect((await collect(source)).length).toBeGreaterThan(0);
  });
});

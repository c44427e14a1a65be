import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { MailsiftError } from '../core/errors.js';
import { type Charset, decodeText, encodeText } from './encode.js';
import { type GeneratedMessage, generateCorpus } from './generator.js';
import { header, ids, textParts } from './test-helpers.js';

const corpus: GeneratedMessage[] = [...generateCorpus({ seed: 1234, messages: 3000 })];

describe('generateCorpus', () => {
  it('produces exactly the requested number of messages', () => {
    for (const n of [0, 1, 7, 250]) expect([...generateCorpus({ seed: 5, messages: n })]).toHaveLength(n);
    expect(corpus).toHaveLength(3000);
  });

  it('is deterministic: the same seed gives the same bytes, another seed other bytes', () => {
    const a = [...generateCorpus({ seed: 99, messages: 300 })];
    const b = [...generateCorpus({ seed: 99, messages: 300 })];
    const c = [...generateCorpus({ seed: 100, messages: 300 })];
    expect(a.map((m) => m.bytes.toString('base64'))).toEqual(b.map((m) => m.bytes.toString('base64')));
    expect(a[10]?.bytes.equals(c[10]?.bytes as Buffer)).toBe(false);
  });

  it('writes From, Date and Subject on every message and keeps lines under 998 bytes', () => {
    for (const m of corpus) {
      expect(header(m.bytes, 'From')).toMatch(/@/);
      expect(Date.parse(header(m.bytes, 'Date') ?? '')).not.toBeNaN();
      expect(header(m.bytes, 'Subject')).not.toBeNull();
      expect(header(m.bytes, 'MIME-Version')).toBe('1.0');
      const longest = Math.max(
        ...m.bytes
          .toString('latin1')
          .split('\n')
          .map((l) => l.length),
      );
      expect(longest).toBeLessThanOrEqual(998);
    }
  });

  it('ends every References chain with the In-Reply-To id', () => {
    for (const m of corpus) {
      const parent = ids(header(m.bytes, 'In-Reply-To'));
      if (parent.length === 0) continue;
      const refs = ids(header(m.bytes, 'References'));
      expect(refs.at(-1)).toBe(parent[0]);
      expect(new Set(refs).size).toBe(refs.length);
    }
  });

  it('replies to messages that exist in the corpus, some delivered before their parent', () => {
    const position = new Map<string, number>();
    corpus.forEach((m, i) => {
      if (m.messageId && !position.has(m.messageId)) position.set(m.messageId, i);
    });
    let early = 0;
    let replies = 0;
    corpus.forEach((m, i) => {
      // GitHub comments reply to an issue-opening mail a real inbox often lacks too.
      if (m.kind !== 'reply') return;
      const parent = ids(header(m.bytes, 'In-Reply-To'))[0] as string;
      replies++;
      expect(position.has(parent), `parent of ${m.messageId}`).toBe(true);
      if ((position.get(parent) as number) > i) early++;
      expect(m.threadKey).toBe(corpus[position.get(parent) as number]?.threadKey);
    });
    expect(replies).toBeGreaterThan(800);
    expect(early).toBeGreaterThan(0);
    expect(early).toBeLessThan(replies * 0.05);
  });

  it('mixes kinds, folders, languages and the realistic defects', () => {
    const count = (f: (m: GeneratedMessage) => boolean): number => corpus.filter(f).length;
    for (const kind of ['conversation', 'reply', 'forward', 'newsletter', 'notification', 'receipt', 'spam'])
      expect(
        count((m) => m.kind === kind),
        kind,
      ).toBeGreaterThan(0);
    for (const lang of ['en', 'it', 'de', 'fr', 'es', 'pt', 'nl', 'ru'])
      expect(
        count((m) => m.language === lang),
        lang,
      ).toBeGreaterThan(10);
    for (const folder of ['INBOX', 'Sent', 'Archive', 'Spam'])
      expect(count((m) => m.folder === folder)).toBeGreaterThan(0);
    const noId = count((m) => m.messageId === null);
    expect(noId).toBeGreaterThan(20);
    expect(noId).toBeLessThan(120);
    const seen = new Map<string, number>();
    for (const m of corpus)
      seen.set(m.bytes.toString('base64'), (seen.get(m.bytes.toString('base64')) ?? 0) + 1);
    const dupes = [...seen.values()].filter((v) => v > 1).length;
    expect(dupes).toBeGreaterThan(5);
    expect(dupes).toBeLessThan(80);
    for (const m of corpus.filter((x) => x.kind === 'spam'))
      expect(header(m.bytes, 'Authentication-Results')).toMatch(/dmarc=fail/);
    expect(count((m) => header(m.bytes, 'X-GM-THRID') !== null)).toBeGreaterThan(100);
    expect(count((m) => /Content-Disposition: attachment/.test(m.bytes.toString('latin1')))).toBeGreaterThan(
      100,
    );
    expect(count((m) => header(m.bytes, 'List-Unsubscribe') !== null)).toBeGreaterThan(100);
  });

  it('declares charsets that decode the bytes and round-trip exactly', () => {
    const seen = new Set<string>();
    for (const m of corpus) {
      for (const part of textParts(m.bytes)) {
        const cs = part.charset as Charset;
        seen.add(cs);
        const text = decodeText(part.bytes, cs);
        expect(text).not.toContain('\uFFFD');
        expect(encodeText(text, cs).equals(part.bytes), `${cs} in ${m.messageId}`).toBe(true);
      }
    }
    expect([...seen].sort()).toEqual([
      'gb2312',
      'iso-2022-jp',
      'iso-8859-1',
      'koi8-r',
      'utf-8',
      'windows-1251',
      'windows-1252',
    ]);
  });

  it('averages real-mail sizes', () => {
    const avg = corpus.reduce((s, m) => s + m.bytes.length, 0) / corpus.length;
    expect(avg).toBeGreaterThan(8 * 1024);
    expect(avg).toBeLessThan(25 * 1024);
  });

  it('parses cleanly with mailparser, quoted history and all', async () => {
    for (const m of corpus.slice(0, 300)) {
      const parsed = await simpleParser(m.bytes);
      expect(parsed.from?.value[0]?.address).toMatch(/@/);
      expect(parsed.subject ?? '').not.toMatch(/=\?/);
      expect(parsed.text ?? parsed.html).toBeTruthy();
      expect(parsed.text ?? '').not.toContain('\uFFFD');
      if (m.messageId) expect(parsed.messageId).toBe(`<${m.messageId}>`);
    }
  });

  it('rejects bad options with the parameter named', () => {
    const bad = (o: object): unknown => {
      try {
        [...generateCorpus({ seed: 1, messages: 1, ...o })];
      } catch (e) {
        return e;
      }
      return null;
    };
    expect(bad({ messages: -1 })).toMatchObject({ code: 'invalid_argument', param: 'messages' });
    expect(bad({ endDate: new Date('2000-01-01') })).toMatchObject({
      code: 'invalid_argument',
      param: 'endDate',
    });
    expect(bad({ inboxDomain: 'not a domain' })).toBeInstanceOf(MailsiftError);
  });
});

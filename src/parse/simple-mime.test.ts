import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readHeaderBlock } from './header-block.js';
import { walkMime } from './mime-walk.js';
import { type MimeResult, runMailparser } from './run-mailparser.js';
import { decodeSimpleMime } from './simple-mime.js';

const root = new URL('../../test/fixtures/', import.meta.url);
const messages = readdirSync(root, { recursive: true, encoding: 'utf8' })
  .filter((path) => path.endsWith('.eml'))
  .sort();

/** What parseMessage reads from a MIME result. */
function visible(result: MimeResult): unknown {
  const headers = ['subject', 'from', 'to', 'cc', 'bcc', 'reply-to'].map((key) => result.headers.get(key));
  const { text, html, attachments, warnings } = result;
  return { headers, text, html, attachments, warnings };
}

function simple(path: string): { bytes: Buffer; result: MimeResult | null } {
  let header: ReturnType<typeof readHeaderBlock>;
  try {
    header = readHeaderBlock(readFileSync(new URL(path, root)));
  } catch {
    return { bytes: Buffer.alloc(0), result: null };
  }
  return {
    bytes: header.bytes,
    result: decodeSimpleMime(header.bytes, header.headerEnd, walkMime(header.bytes)),
  };
}

describe('decodeSimpleMime', () => {
  it('reads every fixture it takes exactly as mailparser does', async () => {
    let taken = 0;
    for (const path of messages) {
      const { bytes, result } = simple(path);
      if (result === null) continue;
      taken++;
      expect(visible(result), path).toEqual(visible(await runMailparser(bytes)));
    }
    expect(taken).toBeGreaterThan(messages.length / 2);
  });

  it('takes legacy charsets and decodes them as mailparser does', () => {
    const { result } = simple('charsets/windows-1252.eml');
    expect(result?.text).toContain('“Q2” invoice below – total €1,250.00');
    expect(result?.headers.get('subject')).toBe('Invoice “Q2” – €1,250 due');
  });

  it('takes attachments with their type, name and hash', () => {
    const taken = messages
      .map((path) => simple(path).result?.attachments ?? [])
      .filter((attachments) => attachments.length > 0);
    expect(taken.length).toBeGreaterThan(0);
    for (const attachment of taken.flat()) expect(attachment.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('leaves messages over 4 MB to mailparser, which streams their parts', () => {
    const bytes = Buffer.from(
      'From: a@big.test\r\nSubject: big\r\nContent-Type: text/plain\r\n\r\n' +
        'A long line of text in a large message body.\r\n'.repeat(100_000),
    );
    const header = readHeaderBlock(bytes);
    expect(decodeSimpleMime(header.bytes, header.headerEnd, walkMime(header.bytes))).toBeNull();
  });

  it('leaves format=flowed text, embedded messages and encoded parameters to mailparser', () => {
    const left = messages.filter((path) => {
      const text = readFileSync(new URL(path, root), 'latin1');
      return /format=flowed|message\/rfc822|^content-(?:type|disposition):.*(?:\*=|=\?)/im.test(text);
    });
    expect(left.length).toBeGreaterThan(0);
    for (const path of left) expect(simple(path).result, path).toBeNull();
  });
});

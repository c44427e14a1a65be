// A streamed message whose server-side size (RFC822.SIZE) is wrong or over the limit, against a
// stand-in for imapflow's download(); the streamed path against a real server is in
// test/imap/sync.test.ts.

import { Readable } from 'node:stream';
import type { ImapFlow } from 'imapflow';
import { describe, expect, it } from 'vitest';
import { BodyBatches } from './body-batches.js';

const MB = 1024 * 1024;
/** Above a fetch batch: streamed. */
const LISTED = 9 * MB;

/** Bodies of `sizes` bytes, each chunk a different byte, as a download streams them. */
function streamed(sizes: readonly number[]): { client: ImapFlow; bytes: Buffer } {
  const chunks = sizes.map((size, i) => Buffer.alloc(size, i + 1));
  const client = { download: async () => ({ content: Readable.from(chunks) }) };
  return { client: client as unknown as ImapFlow, bytes: Buffer.concat(chunks) };
}

const read = (client: ImapFlow, maxMessageBytes = 64 * MB) =>
  new BodyBatches(
    client,
    [{ uid: 7, flags: [], size: LISTED }],
    maxMessageBytes,
    'imap://a@h/',
    'INBOX',
  ).read(0);

describe('BodyBatches streaming a large message', () => {
  it('grows past a size the server under-counted, keeping every byte', async () => {
    const { client, bytes } = streamed([4 * MB, 4 * MB, 3 * MB]);
    expect((await read(client)).equals(bytes)).toBe(true);
  });

  it('returns only the bytes sent when the server over-counted', async () => {
    const { client, bytes } = streamed([MB, 5]);
    expect((await read(client)).equals(bytes)).toBe(true);
  });

  it('stops at the message limit with a typed error naming the source', async () => {
    const { client } = streamed([4 * MB, 4 * MB, 4 * MB]);
    await expect(read(client, 10 * MB)).rejects.toMatchObject({
      code: 'bad_format',
      param: 'imap://a@h/',
      message: expect.stringMatching(/^UID 7 in INBOX is at least \d+ bytes, which exceeds/),
    });
  });
});

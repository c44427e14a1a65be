// The bodies of a listed folder's messages, read by the ingest pipeline: small ones a batch per
// UID FETCH, a large one streamed in partial FETCHes into one buffer of its size.

import type { ImapFlow } from 'imapflow';
import { MailsiftError } from '../../core/errors.js';
import { connectionError } from './connect.js';
import type { Listed } from './folder-listing.js';

/**
 * Bodies fetched by one UID FETCH: few round trips (a command per message cost ~1 ms on
 * loopback), while a batch of large messages stays bounded in memory.
 */
const FETCH_BATCH_MESSAGES = 256;
const FETCH_BATCH_BYTES = 8 * 1024 * 1024;

/**
 * A message larger than a batch is streamed: imapflow holds a FETCH literal twice while it
 * joins the socket's chunks into one buffer, which a batch bounds but a 50 MB message would not.
 */
const streamed = (m: Listed): boolean => m.size > FETCH_BATCH_BYTES;

/**
 * Bytes per partial FETCH of a streamed message: what imapflow holds twice at a time, and a round
 * trip each (50 for 50 MB; at 20 ms and 100 Mbit/s a chunk's transfer is 4 times its wait).
 */
const STREAM_CHUNK_BYTES = 1024 * 1024;

/** Listed messages [from, end) whose bodies one UID FETCH, or one streamed download, brings. */
interface Batch {
  readonly from: number;
  readonly end: number;
  readonly bodies: Promise<Map<number, Buffer>>;
}

const covers = (batch: Batch | null, index: number): batch is Batch =>
  batch !== null && batch.from <= index && index < batch.end;

/**
 * Fetches bodies when the pipeline first reads one: that message and the ones listed after
 * it, up to a batch, on the assumption that a message read is followed by more new ones; once
 * they are in, the batch after it downloads while the pipeline parses them. A streamed message
 * is never read ahead, so it does not download while a batch waits in memory. What the pipeline
 * skips (stored, moved) is dropped unread when the batch moves on.
 */
export class BodyBatches {
  private current: Batch | null = null;
  private next: Batch | null = null;

  constructor(
    private readonly client: ImapFlow,
    private readonly listed: readonly Listed[],
    private readonly maxMessageBytes: number,
    private readonly source: string,
    private readonly folder: string,
  ) {}

  async read(index: number): Promise<Buffer> {
    const message = this.listed[index] as Listed;
    if (message.size > this.maxMessageBytes) throw this.tooLarge(message, `${message.size}`);
    if (!covers(this.current, index)) {
      this.current = covers(this.next, index) ? this.next : this.start(index);
      this.next = null;
    }
    const batch = this.current;
    const bodies = await batch.bodies;
    this.readAhead(batch);
    const body = bodies.get(message.uid);
    bodies.delete(message.uid);
    if (body === undefined)
      throw new MailsiftError('not_found', `UID ${message.uid} is no longer in ${this.folder}`, {
        param: this.source,
      });
    return body;
  }

  private readAhead(batch: Batch): void {
    const following = this.listed[batch.end];
    if (this.current === batch && this.next === null && following !== undefined && !streamed(following))
      this.next = this.start(batch.end);
  }

  private start(from: number): Batch {
    const first = this.listed[from] as Listed;
    if (streamed(first)) return this.batch(from, from + 1, this.download(first));
    const uids: number[] = [];
    let bytes = 0;
    let end = from;
    for (; end < this.listed.length && uids.length < FETCH_BATCH_MESSAGES; end++) {
      const m = this.listed[end] as Listed;
      if (m.size > this.maxMessageBytes) continue;
      if (streamed(m) || (uids.length > 0 && bytes + m.size > FETCH_BATCH_BYTES)) break;
      uids.push(m.uid);
      bytes += m.size;
    }
    const fetched = this.client
      .fetchAll(uids, { uid: true, source: true }, { uid: true })
      .then((all) => new Map(all.flatMap((m) => (m.source ? [[m.uid, m.source] as const] : []))));
    return this.batch(from, end, fetched);
  }

  private batch(from: number, end: number, fetched: Promise<Map<number, Buffer>>): Batch {
    const bodies = fetched.catch((error: unknown) => {
      throw connectionError(error, this.source);
    });
    // A batch read ahead and never read must not fail the process; its reader sees the error.
    bodies.catch(() => {});
    return { from, end, bodies };
  }

  /**
   * One message in partial FETCHes (BODY.PEEK[]<offset.length>), each chunk copied into a buffer
   * allocated at the listed size and dropped: the message is whole once. A server whose
   * RFC822.SIZE was short costs a copy each time the buffer doubles; one whose size was long
   * leaves the tail unused, and the slice is copied if the pipeline hands it to a worker.
   */
  private async download(message: Listed): Promise<Map<number, Buffer>> {
    const { content } = await this.client.download(String(message.uid), undefined, {
      uid: true,
      chunkSize: STREAM_CHUNK_BYTES,
      // A byte past the limit tells a message over it from one exactly at it.
      maxBytes: this.maxMessageBytes + 1,
    });
    if (!content) return new Map();
    let raw = Buffer.allocUnsafe(message.size);
    let length = 0;
    for await (const chunk of content as AsyncIterable<Buffer>) {
      const needed = length + chunk.length;
      if (needed > this.maxMessageBytes) throw this.tooLarge(message, `at least ${needed}`);
      if (needed > raw.length) {
        const grown = Buffer.allocUnsafe(Math.min(Math.max(needed, raw.length * 2), this.maxMessageBytes));
        raw.copy(grown, 0, 0, length);
        raw = grown;
      }
      chunk.copy(raw, length);
      length = needed;
    }
    return new Map([[message.uid, length === raw.length ? raw : raw.subarray(0, length)]]);
  }

  private tooLarge(message: Listed, bytes: string): MailsiftError {
    return new MailsiftError(
      'bad_format',
      `UID ${message.uid} in ${this.folder} is ${bytes} bytes, which exceeds the ${this.maxMessageBytes}-byte message limit`,
      { param: this.source },
    );
  }
}

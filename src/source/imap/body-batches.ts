// The bodies of a listed folder's messages, read by the ingest pipeline a batch per UID FETCH.

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

/** Listed messages [from, end) whose bodies one UID FETCH brings. */
interface Batch {
  readonly from: number;
  readonly end: number;
  readonly bodies: Promise<Map<number, Buffer>>;
}

const covers = (batch: Batch | null, index: number): batch is Batch =>
  batch !== null && batch.from <= index && index < batch.end;

/**
 * Fetches bodies when the pipeline first reads one: that message and the ones listed after
 * it, up to a batch, on the assumption that a message read is followed by more new ones; the
 * batch after it downloads while the pipeline parses this one. What the pipeline skips
 * (stored, moved) is dropped unread when the batch moves on.
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
    if (message.size > this.maxMessageBytes)
      throw new MailsiftError(
        'bad_format',
        `UID ${message.uid} in ${this.folder} is ${message.size} bytes, which exceeds the ${this.maxMessageBytes}-byte message limit`,
        { param: this.source },
      );
    if (!covers(this.current, index)) {
      this.current = covers(this.next, index) ? this.next : this.start(index);
      this.next = this.current.end < this.listed.length ? this.start(this.current.end) : null;
    }
    const bodies = await this.current.bodies;
    const body = bodies.get(message.uid);
    bodies.delete(message.uid);
    if (body === undefined)
      throw new MailsiftError('not_found', `UID ${message.uid} is no longer in ${this.folder}`, {
        param: this.source,
      });
    return body;
  }

  private start(from: number): Batch {
    const uids: number[] = [];
    let bytes = 0;
    let end = from;
    for (; end < this.listed.length && uids.length < FETCH_BATCH_MESSAGES; end++) {
      const m = this.listed[end] as Listed;
      if (m.size > this.maxMessageBytes) continue;
      if (uids.length > 0 && bytes + m.size > FETCH_BATCH_BYTES) break;
      uids.push(m.uid);
      bytes += m.size;
    }
    const bodies = this.client.fetchAll(uids, { uid: true, source: true }, { uid: true }).then(
      (fetched) => new Map(fetched.flatMap((m) => (m.source ? [[m.uid, m.source] as const] : []))),
      (error: unknown) => {
        throw connectionError(error, this.source);
      },
    );
    // A batch read ahead and never read must not fail the process; its reader sees the error.
    bodies.catch(() => {});
    return { from, end, bodies };
  }
}

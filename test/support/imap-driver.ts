// The "other mail client" of the IMAP tests and bench: a second imapflow connection that
// appends, flags, moves and expunges on the test server while mailsift syncs it.

import { ImapFlow } from 'imapflow';
import type { DovecotServer } from './dovecot.js';

export class MailboxDriver {
  private constructor(private readonly client: ImapFlow) {}

  static async connect(server: DovecotServer): Promise<MailboxDriver> {
    const client = new ImapFlow({
      host: server.host,
      port: server.port,
      secure: false,
      auth: { user: server.user, pass: server.password },
      logger: false,
    });
    client.on('error', () => {});
    await client.connect();
    return new MailboxDriver(client);
  }

  /** Appends a message; returns its UID in the folder. */
  async append(folder: string, raw: string | Buffer, flags: string[] = []): Promise<number> {
    const result = await this.client.append(folder, raw, flags);
    if (result === false || !result.uid) throw new Error(`APPEND to ${folder} returned no UID`);
    return result.uid;
  }

  async addFlags(folder: string, uids: number[], flags: string[]): Promise<void> {
    await this.inFolder(folder, () => this.client.messageFlagsAdd(uids.join(','), flags, { uid: true }));
  }

  /** The folder's UIDs in order. STATUS-free: selecting also makes Dovecot index new deliveries. */
  async uids(folder: string): Promise<number[]> {
    return this.inFolder(folder, async () =>
      (await this.client.fetchAll('1:*', { uid: true })).map((m) => m.uid).sort((a, b) => a - b),
    );
  }

  /** MOVE (RFC 6851): the message gets a new UID in `to`; returns it. */
  async move(from: string, uid: number, to: string): Promise<number> {
    return this.inFolder(from, async () => {
      const result = await this.client.messageMove(String(uid), to, { uid: true });
      const moved = result ? result.uidMap?.get(uid) : undefined;
      if (moved === undefined) throw new Error(`MOVE of UID ${uid} from ${from} returned no UID`);
      return moved;
    });
  }

  /** Marks \Deleted and expunges just these UIDs (UIDPLUS). */
  async expunge(folder: string, uids: number[]): Promise<void> {
    await this.inFolder(folder, () => this.client.messageDelete(uids.join(','), { uid: true }));
  }

  async createFolder(path: string): Promise<void> {
    await this.client.mailboxCreate(path);
  }

  async deleteFolder(path: string): Promise<void> {
    await this.client.mailboxDelete(path);
  }

  async close(): Promise<void> {
    await this.client.logout().catch(() => this.client.close());
  }

  private async inFolder<T>(folder: string, run: () => Promise<T>): Promise<T> {
    const lock = await this.client.getMailboxLock(folder);
    try {
      return await run();
    } finally {
      lock.release();
    }
  }
}

/** A small plain-text message with a findable word in its subject and body. */
export function testMessage(n: number, word = `word${n}`): string {
  return [
    `From: Sender ${n} <sender${n}@example.com>`,
    'To: alice@example.org',
    `Subject: message ${n} about ${word}`,
    `Message-ID: <msg-${n}@test.example>`,
    `Date: ${new Date(Date.UTC(2026, 0, 1, 0, n % 60, n % 60)).toUTCString()}`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    '',
    `Hello Alice, this is message number ${n}. It mentions ${word} once.`,
    '',
  ].join('\r\n');
}

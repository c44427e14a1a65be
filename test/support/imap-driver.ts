// The "other mail client" of the IMAP tests and bench: a second imapflow connection that
// appends, flags, moves and expunges on the test server while mailsift syncs it.

import { randomBytes } from 'node:crypto';
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
    ...headers(n, word, 'text/plain; charset=utf-8'),
    '',
    `Hello Alice, this is message number ${n}. It mentions ${word} once.`,
    '',
  ].join('\r\n');
}

/**
 * A message of about `bytes` bytes, as testMessage(n, word) but with `report-n.bin` attached:
 * random bytes in base64, so neither the server nor the archive can make it smaller.
 */
export function largeMessage(n: number, bytes: number, word = `word${n}`): Buffer {
  const boundary = `part-${n}`;
  const head = [
    ...headers(n, word, `multipart/mixed; boundary="${boundary}"`),
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    `Hello Alice, message number ${n} mentions ${word} and carries a large report.`,
    `--${boundary}`,
    `Content-Type: application/octet-stream; name="report-${n}.bin"`,
    `Content-Disposition: attachment; filename="report-${n}.bin"`,
    'Content-Transfer-Encoding: base64',
    '',
    '',
  ].join('\r\n');
  // 57 bytes are one 76-character base64 line plus its CRLF: 78 bytes of message.
  const data = randomBytes(Math.ceil(Math.max(0, bytes - head.length - 64) / 78) * 57);
  const lines: string[] = [];
  for (let at = 0; at < data.length; at += 57) lines.push(data.subarray(at, at + 57).toString('base64'));
  return Buffer.from(`${head}${lines.join('\r\n')}\r\n--${boundary}--\r\n`);
}

function headers(n: number, word: string, contentType: string): string[] {
  return [
    `From: Sender ${n} <sender${n}@example.com>`,
    'To: alice@example.org',
    `Subject: message ${n} about ${word}`,
    `Message-ID: <msg-${n}@test.example>`,
    `Date: ${new Date(Date.UTC(2026, 0, 1, 0, n % 60, n % 60)).toUTCString()}`,
    'MIME-Version: 1.0',
    `Content-Type: ${contentType}`,
  ];
}

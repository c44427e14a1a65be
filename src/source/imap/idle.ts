// Push for `mailsift watch`: one connection per IMAP source kept in IDLE on INBOX, which calls
// back when the server announces new, expunged or re-flagged mail there, so that the sync
// runs then instead of at the next poll (other folders wait for the poll). A dropped
// connection is re-opened with backoff and followed by a callback, since what changed while
// it was down was announced to nobody.

import type { ImapFlow } from 'imapflow';
import { describeError } from '../../core/errors.js';
import { type ConnectOptions, connectImap } from './connect.js';
import type { ImapAddress } from './url.js';

export interface ImapWatcher {
  close(): Promise<void>;
}

export interface WatchImapOptions extends ConnectOptions {
  /** Something changed in INBOX (or the connection came back): sync the source. */
  readonly onChange: () => void;
  readonly onError: (message: string) => void;
}

/** Reconnect delays: doubling from 1 s to 1 min, so a server restart is met within seconds. */
const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 60_000;

export function watchImap(address: ImapAddress, options: WatchImapOptions): ImapWatcher {
  let closed = false;
  let client: ImapFlow | null = null;
  let timer: NodeJS.Timeout | null = null;
  let delay = FIRST_RETRY_MS;
  let wake: (() => void) | null = null;
  let opened = 0;

  const open = async (): Promise<void> => {
    const connected = await connectImap(address, options);
    if (closed) {
      await connected.logout().catch(() => {});
      return;
    }
    client = connected;
    for (const event of ['exists', 'expunge', 'flags'] as const)
      connected.on(event, () => options.onChange());
    const gone = new Promise<void>((resolve) => {
      wake = resolve;
      connected.once('close', () => resolve());
    });
    // Read-only: watching must not reset \Recent or otherwise change the mailbox.
    await connected.mailboxOpen('INBOX', { readOnly: true });
    delay = FIRST_RETRY_MS;
    // Back after a drop: what changed meanwhile was announced to nobody.
    if (opened++ > 0) options.onChange();
    // Now: imapflow would enter IDLE by itself only after 15 s of quiet, and again after each
    // break of it. The promise ends with the IDLE; the connection's end is awaited below.
    connected.idle().catch(() => {});
    await gone;
  };

  const run = async (): Promise<void> => {
    while (!closed) {
      try {
        await open();
      } catch (error) {
        options.onError(`IDLE on ${address.canonical}: ${describeError(error)}`);
      }
      client = null;
      if (closed) return;
      await new Promise<void>((resolve) => {
        timer = setTimeout(resolve, delay);
        wake = resolve;
      });
      delay = Math.min(delay * 2, MAX_RETRY_MS);
    }
  };
  const running = run();

  return {
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      const current = client as ImapFlow | null;
      wake?.();
      await current?.logout().catch(() => current.close());
      await running;
    },
  };
}

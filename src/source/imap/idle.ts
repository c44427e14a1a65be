// Push for `mailsift watch`: IDLE connections on a source's folders (INBOX first, then the
// folders its syncs saw, at most MAX_IDLE_FOLDERS of them), each calling back when the server
// announces new, expunged or re-flagged mail there, so that the sync runs then instead of at
// the next poll (folders past the cap wait for the poll). A dropped connection is re-opened
// with backoff and followed by a callback, since what changed while it was down was announced
// to nobody.

import type { ImapFlow } from 'imapflow';
import { describeError } from '../../core/errors.js';
import { type ConnectOptions, connectImap } from './connect.js';
import type { ImapAddress } from './url.js';

export interface ImapWatcher {
  close(): Promise<void>;
}

export interface WatchImapOptions extends ConnectOptions {
  /** Something changed in a watched folder (or its connection came back): sync the source. */
  readonly onChange: () => void;
  readonly onError: (message: string) => void;
}

/**
 * IDLE connections a source may hold: each is a login, and servers cap a user's connections
 * (Dovecot's mail_max_userip_connections defaults to 10, Gmail allows 15), which the syncs,
 * the user's own mail clients and the other sources share.
 */
export const MAX_IDLE_FOLDERS = 4;

/**
 * The folders worth a connection, best first: those the source names, else INBOX (where new
 * mail arrives; unless excluded) and then the folders its syncs saw (`synced`).
 */
export function idleFolders(address: ImapAddress, synced: readonly string[]): string[] {
  const named = address.folders.length > 0 ? address.folders : ['INBOX', ...synced];
  const excluded = new Set(address.exclude);
  const folders = [...new Set(named)].filter((f) => !excluded.has(f));
  return folders.slice(0, MAX_IDLE_FOLDERS);
}

/** One IDLE connection per folder; closing it closes them all. */
export function watchImap(
  address: ImapAddress,
  folders: readonly string[],
  options: WatchImapOptions,
): ImapWatcher {
  const watchers = folders.map((folder) => watchFolder(address, folder, options));
  return {
    async close() {
      await Promise.all(watchers.map((w) => w.close()));
    },
  };
}

/** Reconnect delays: doubling from 1 s to 1 min, so a server restart is met within seconds. */
const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 60_000;

function watchFolder(address: ImapAddress, folder: string, options: WatchImapOptions): ImapWatcher {
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
    await connected.mailboxOpen(folder, { readOnly: true });
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
        options.onError(`IDLE on ${folder} of ${address.canonical}: ${describeError(error)}`);
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

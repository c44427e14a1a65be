// What one folder's sync has to look at: every message (UID, flags, size), or, when the server
// keeps mod-sequences (CONDSTORE, RFC 7162) and the last complete sync left one, only what
// changed since: `UID FETCH 1:* … (CHANGEDSINCE m VANISHED)` answers with the messages whose
// flags changed or that are new, and (QRESYNC) the UIDs expunged since. A 20,000-message
// folder with 300 changes is then 300 rows on the wire instead of 20,000. The changes are
// trusted only when they add up: what the archive holds of the folder, less what it holds of
// the expunged, must be the server's count less the new. Anything else (expunges the server
// cannot name, a location the archive lost) lists the folder whole, as every sync did before.

import type { FetchMessageObject, FetchQueryObject, ImapFlow } from 'imapflow';

export interface Listed {
  readonly uid: number;
  readonly flags: readonly string[];
  readonly size: number;
  /** X-GM-MSGID, X-GM-THRID and X-GM-LABELS, when the server is Gmail. */
  readonly gmail?: GmailAttributes;
}

export interface GmailAttributes {
  readonly messageId: string;
  readonly threadId: string | undefined;
  readonly labels: readonly string[];
}

/** A folder's messages as one sync sees them. */
export interface FolderListing {
  /** Every message, or only the changed and new ones; by UID. */
  readonly messages: readonly Listed[];
  /** Null when the folder was listed whole; else the UIDs expunged since the last sync. */
  readonly gone: readonly number[] | null;
}

/** The folder as SELECT (EXAMINE) found it. */
export interface SelectedFolder {
  readonly path: string;
  readonly exists: number;
  readonly uidNext: number;
}

/** The last complete sync of the folder under the same UIDVALIDITY, and what the archive holds of it. */
export interface ChangesSince {
  readonly modseq: bigint;
  readonly uidNext: number;
  readonly stored: number;
  /**
   * How many of these expunged UIDs the archive holds; null when UIDs do not name locations
   * (Gmail's keys). VANISHED (EARLIER) may name UIDs that were never stored: a server that keeps
   * no mod-sequence of old expunges reports them all (RFC 7162 allows it).
   */
  readonly storedOf: ((uids: readonly number[]) => number) | null;
}

export async function listFolder(
  client: ImapFlow,
  folder: SelectedFolder,
  since: ChangesSince | null,
  gmail: boolean,
): Promise<FolderListing> {
  const query: FetchQueryObject = {
    uid: true,
    flags: true,
    size: true,
    ...(gmail ? { labels: true, threadId: true } : {}),
  };
  if (since !== null) {
    const changes = await fetchChanges(client, folder, since, query, gmail);
    if (changes !== null) return changes;
  }
  const whole = folder.exists === 0 ? [] : await client.fetchAll('1:*', query);
  return { messages: listed(whole, gmail), gone: null };
}

/** The changes since the last sync, or null when they do not add up to the server's count. */
async function fetchChanges(
  client: ImapFlow,
  folder: SelectedFolder,
  since: ChangesSince,
  query: FetchQueryObject,
  gmail: boolean,
): Promise<FolderListing | null> {
  const vanished: number[] = [];
  const onExpunge = (event: { path: string; uid?: number; vanished: boolean }): void => {
    if (event.vanished && event.uid !== undefined && event.path === folder.path) vanished.push(event.uid);
  };
  client.on('expunge', onExpunge);
  let changed: FetchMessageObject[];
  try {
    changed = await client.fetchAll('1:*', query, { uid: true, changedSince: since.modseq });
  } finally {
    client.off('expunge', onExpunge);
  }
  // New since the last sync and counted in `exists` (later arrivals are listed, not counted).
  const arrived = changed.filter((m) => m.uid >= since.uidNext && m.uid < folder.uidNext).length;
  // Only UIDs the last sync could have stored; none when they cannot be named as keys.
  const gone = since.storedOf ? [...new Set(vanished.filter((uid) => uid < since.uidNext))] : [];
  const goneStored = gone.length > 0 && since.storedOf ? since.storedOf(gone) : 0;
  if (since.stored - goneStored !== folder.exists - arrived) return null;
  return { messages: listed(changed, gmail), gone };
}

function listed(fetched: readonly FetchMessageObject[], gmail: boolean): Listed[] {
  return fetched
    .map((m) => ({
      uid: m.uid,
      flags: [...(m.flags ?? [])].sort(),
      size: m.size ?? 0,
      ...(gmail && m.emailId !== undefined
        ? { gmail: { messageId: m.emailId, threadId: m.threadId, labels: [...(m.labels ?? [])].sort() } }
        : {}),
    }))
    .sort((a, b) => a.uid - b.uid);
}

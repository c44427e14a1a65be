// A mailbox on an IMAP server read as SourceEntry values, so the one ingest pipeline stores
// it like a Maildir: every message is a location keyed by its IMAP URL part
// (`Folder;UIDVALIDITY=v/;UID=n`, RFC 5092) whose fingerprint is its flags. A folder is listed
// whole (UID, flags, size), or from its changes since the last sync (folder-listing.ts), and
// what was there and is no longer listed is swept by the pipeline; a flag change relabels
// without reading (`fixedContent`); a message new since the last complete sync comes with its
// Message-ID and size (`identity`), so one moved between folders, or listed again under a new
// UIDVALIDITY, is found in the archive instead of downloaded; the rest is fetched in batches, a
// message larger than a batch streamed on its own (body-batches.ts).
// Gmail (gmail.ts) is synced from All Mail, each message keyed by its X-GM-MSGID.

import type { ImapFlow, ListResponse } from 'imapflow';
import { MailsiftError } from '../../core/errors.js';
import type {
  FolderState,
  KeptFolder,
  MailSource,
  RemoteSync,
  SkippedFiles,
  SourceEntry,
  StoredFolder,
  StoredLocations,
} from '../../core/types.js';
import { normalizeMessageId } from '../../parse/message-id.js';
import { flagLabels, IMAP_FLAGS } from '../flags.js';
import { resolveMaxMessageBytes } from '../fs-util.js';
import { BodyBatches } from './body-batches.js';
import { connectImap, connectionError } from './connect.js';
import { type CredentialMethod, describeCredential } from './credentials.js';
import { type ChangesSince, type Listed, listFolder } from './folder-listing.js';
import { GMAIL_CAPABILITY, gmailFolders, gmailKey, gmailLabels } from './gmail.js';
import type { ImapAddress } from './url.js';

export interface ImapSourceOptions {
  readonly credential: CredentialMethod;
  readonly tlsCa?: string;
  readonly maxMessageBytes?: number;
}

/** Special-use folders (RFC 6154) and the labels a Maildir folder of that name gets. */
const SPECIAL_USE_LABELS: Readonly<Record<string, string>> = {
  '\\Sent': 'sent',
  '\\Trash': 'trash',
  '\\Junk': 'spam',
  '\\Drafts': 'draft',
  '\\Archive': 'archive',
};

export class ImapSource implements MailSource {
  readonly kind = 'imap' as const;
  readonly path: string;
  readonly remote: RemoteSync;
  private client: ImapFlow | null = null;
  private folders: ListResponse[] = [];
  /** The server speaks Gmail's extension and no folder was named: All Mail by X-GM-MSGID. */
  private gmail = false;
  private previous = new Map<string, StoredFolder>();
  private stored: StoredLocations = { count: () => 0 };
  private seen: FolderState[] = [];
  private kept: KeptFolder[] = [];
  private readonly maxMessageBytes: number;

  constructor(
    private readonly address: ImapAddress,
    private readonly options: ImapSourceOptions,
  ) {
    this.path = address.canonical;
    this.maxMessageBytes = resolveMaxMessageBytes(options);
    this.remote = {
      credential: describeCredential(options.credential),
      connect: () => this.connect(),
      resume: (states, stored) => {
        this.previous = new Map(states.map((s) => [s.folder, s]));
        this.stored = stored;
      },
      states: () => this.seen,
      keptFolders: () => this.kept,
      close: () => this.close(),
    };
  }

  skipped(): readonly SkippedFiles[] {
    return [];
  }

  /** Logs in and picks the folders; every error is typed and names the source. */
  private async connect(): Promise<void> {
    this.client = await connectImap(this.address, this.options);
    try {
      const all = await this.client.list();
      this.gmail = this.client.capabilities.has(GMAIL_CAPABILITY) && this.address.folders.length === 0;
      this.folders = this.gmail ? gmailFolders(all, this.path) : selectFolders(all, this.address);
    } catch (error) {
      await this.close();
      throw connectionError(error, this.path);
    }
  }

  private async close(): Promise<void> {
    const client = this.client;
    this.client = null;
    await client?.logout().catch(() => client.close());
  }

  async *scan(): AsyncIterable<SourceEntry> {
    const client = this.client;
    if (!client) throw new MailsiftError('internal', `${this.path} was not connected`, { param: this.path });
    this.seen = [];
    this.kept = [];
    for (const folder of this.folders) {
      try {
        yield* this.folderEntries(client, folder);
      } catch (error) {
        throw connectionError(error, this.path);
      }
    }
  }

  private async *folderEntries(client: ImapFlow, folder: ListResponse): AsyncGenerator<SourceEntry> {
    const box = await client.mailboxOpen(folder.path, { readOnly: true });
    const uidValidity = String(box.uidValidity);
    const before = this.previous.get(folder.path);
    const state: FolderState = {
      folder: folder.path,
      uidValidity,
      uidNext: Number(box.uidNext),
      highestModseq: box.highestModseq === undefined ? null : String(box.highestModseq),
      messages: box.exists,
    };
    // Any flag change or expunge raises HIGHESTMODSEQ, new mail UIDNEXT: with all four as the
    // last complete sync left them, the folder is as stored and not even its changes are
    // fetched; a watch poll of an unchanged mailbox costs a SELECT per folder.
    if (state.highestModseq !== null && before !== undefined && sameState(before, state)) {
      this.kept.push({ folder: folder.path, gone: [] });
      this.seen.push(state);
      return;
    }
    const uidKey = (uid: number): string => `${folder.path};UIDVALIDITY=${uidValidity}/;UID=${uid}`;
    const listing = await listFolder(
      client,
      { path: folder.path, exists: state.messages, uidNext: state.uidNext },
      this.changesSince(client, before, state, uidKey),
      this.gmail,
    );
    const listed = listing.messages;
    if (listing.gone !== null) this.kept.push({ folder: folder.path, gone: listing.gone.map(uidKey) });
    // Below the UIDNEXT of the last complete sync under the same UIDVALIDITY, every message
    // was stored then: only the newer ones may be moves worth an ENVELOPE fetch. Before any
    // complete sync there is nothing they could have moved from (a resumed first sync finds its
    // copies by their bytes), and a cold sync of 20,000 saves an ENVELOPE of each. Gmail's keys
    // are the same in every folder: a move is a known key.
    const storedBelow = before?.uidValidity === uidValidity ? before.uidNext : 1;
    const ids =
      this.previous.size === 0 || this.gmail
        ? new Map<number, string>()
        : await this.messageIds(client, listed, storedBelow);
    const special = folder.specialUse ? SPECIAL_USE_LABELS[folder.specialUse] : undefined;
    const bodies = new BodyBatches(client, listed, this.maxMessageBytes, this.path, folder.path);
    for (const [index, message] of listed.entries()) {
      const labels = flagLabels(message.flags, IMAP_FLAGS);
      const messageId = ids.get(message.uid);
      const gmail = message.gmail;
      yield {
        key: gmail ? gmailKey(gmail.messageId) : uidKey(message.uid),
        folder: folder.path,
        labels: [...labels, ...(special ? [special] : []), ...(gmail ? gmailLabels(gmail.labels) : [])],
        // A Gmail key moves between folders: the folder is part of what it looks like.
        fingerprint: gmail
          ? JSON.stringify([folder.path, message.flags, gmail.labels])
          : message.flags.join(' '),
        fileTime: null,
        fixedContent: true,
        ...(messageId ? { identity: { messageId, size: message.size } } : {}),
        ...(gmail?.threadId ? { threadKey: `gm:${gmail.threadId}` } : {}),
        read: () => bodies.read(index),
      };
    }
    // A message that arrived between the SELECT and the listing was listed: it is no longer new.
    const lastUid = listed.at(-1)?.uid ?? 0;
    this.seen.push({
      ...state,
      uidNext: Math.max(state.uidNext, lastUid + 1),
      messages: listing.gone === null ? listed.length : state.messages,
    });
  }

  /** What the folder's changes are counted from, when the server and the last sync allow it. */
  private changesSince(
    client: ImapFlow,
    before: StoredFolder | undefined,
    state: FolderState,
    uidKey: (uid: number) => string,
  ): ChangesSince | null {
    if (
      before === undefined ||
      before.uidValidity !== state.uidValidity ||
      before.highestModseq === null ||
      state.highestModseq === null ||
      !client.enabled.has('CONDSTORE')
    )
      return null;
    return {
      modseq: BigInt(before.highestModseq),
      uidNext: before.uidNext,
      stored: before.stored,
      storedOf: this.gmail ? null : (uids) => this.stored.count(uids.map(uidKey)),
    };
  }

  /** Message-IDs of the listed messages at or above `fromUid`, from their envelopes. */
  private async messageIds(client: ImapFlow, listed: readonly Listed[], fromUid: number) {
    const ids = new Map<number, string>();
    const last = listed.at(-1);
    if (!last || last.uid < fromUid) return ids;
    for (const m of await client.fetchAll(`${fromUid}:*`, { uid: true, envelope: true }, { uid: true })) {
      const id = normalizeMessageId(m.envelope?.messageId ?? null);
      if (id !== null && m.uid >= fromUid) ids.set(m.uid, id);
    }
    return ids;
  }
}

function sameState(a: FolderState, b: FolderState): boolean {
  return (
    a.uidValidity === b.uidValidity &&
    a.uidNext === b.uidNext &&
    a.highestModseq === b.highestModseq &&
    a.messages === b.messages
  );
}

/** The folders to sync: every selectable one, or the named ones (each must exist), minus the excluded. */
function selectFolders(all: readonly ListResponse[], address: ImapAddress): ListResponse[] {
  const selectable = all.filter((f) => !f.flags.has('\\Noselect') && !f.flags.has('\\NonExistent'));
  const byPath = new Map(selectable.map((f) => [f.path, f]));
  const wanted =
    address.folders.length === 0
      ? selectable
      : address.folders.map((name) => {
          const folder =
            byPath.get(name) ?? (name.toUpperCase() === 'INBOX' ? byPath.get('INBOX') : undefined);
          if (!folder)
            throw new MailsiftError(
              'not_found',
              `${address.canonical} has no folder '${name}' (it has: ${[...byPath.keys()].join(', ')})`,
              { param: address.canonical },
            );
          return folder;
        });
  const excluded = new Set(address.exclude);
  return wanted.filter((f) => !excluded.has(f.path));
}

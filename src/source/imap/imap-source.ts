// A mailbox on an IMAP server read as SourceEntry values, so the one ingest pipeline stores
// it like a Maildir: each folder is listed whole (UID, flags, size: cheap, and the only way
// to see expunges without QRESYNC), every message is a location keyed by its IMAP URL part
// (`Folder;UIDVALIDITY=v/;UID=n`, RFC 5092) whose fingerprint is its flags. What was there
// and is no longer listed is swept by the pipeline; a flag change relabels without reading
// (`fixedContent`); a message new since the last complete sync comes with its Message-ID and
// size (`identity`), so one moved between folders, or listed again under a new UIDVALIDITY,
// is found in the archive instead of downloaded; the rest is fetched in batches.

import type { ImapFlow, ListResponse } from 'imapflow';
import { MailsiftError } from '../../core/errors.js';
import type { FolderState, MailSource, RemoteSync, SkippedFiles, SourceEntry } from '../../core/types.js';
import { normalizeMessageId } from '../../parse/message-id.js';
import { flagLabels, IMAP_FLAGS } from '../flags.js';
import { resolveMaxMessageBytes } from '../fs-util.js';
import { connectImap, connectionError } from './connect.js';
import { type CredentialMethod, describeCredential } from './credentials.js';
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

/**
 * Bodies fetched by one UID FETCH: few round trips (a command per message cost ~1 ms on
 * loopback), while a batch of large messages stays bounded in memory.
 */
const FETCH_BATCH_MESSAGES = 256;
const FETCH_BATCH_BYTES = 8 * 1024 * 1024;

interface Listed {
  readonly uid: number;
  readonly flags: readonly string[];
  readonly size: number;
}

export class ImapSource implements MailSource {
  readonly kind = 'imap' as const;
  readonly path: string;
  readonly remote: RemoteSync;
  private client: ImapFlow | null = null;
  private folders: ListResponse[] = [];
  private previous = new Map<string, FolderState>();
  private seen: FolderState[] = [];
  private unchanged: string[] = [];
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
      resume: (states) => {
        this.previous = new Map(states.map((s) => [s.folder, s]));
      },
      states: () => this.seen,
      unchangedFolders: () => this.unchanged,
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
      this.folders = selectFolders(await this.client.list(), this.address);
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
    this.unchanged = [];
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
    // last complete sync left them, the folder is as stored and its listing (one FETCH of
    // every message, and the pipeline's pass over them) is saved; a watch poll of an
    // unchanged mailbox costs a SELECT per folder.
    if (state.highestModseq !== null && before !== undefined && sameState(before, state)) {
      this.unchanged.push(folder.path);
      this.seen.push(state);
      return;
    }
    const listed: Listed[] =
      box.exists === 0
        ? []
        : (await client.fetchAll('1:*', { uid: true, flags: true, size: true })).map((m) => ({
            uid: m.uid,
            flags: [...(m.flags ?? [])].sort(),
            size: m.size ?? 0,
          }));
    listed.sort((a, b) => a.uid - b.uid);
    // Below the UIDNEXT of the last complete sync under the same UIDVALIDITY, every message
    // was stored then: only the newer ones may be moves worth an ENVELOPE fetch. Before any
    // complete sync there is nothing they could have moved from (a resumed first sync finds its
    // copies by their bytes), and a cold sync of 20,000 saves an ENVELOPE of each.
    const storedBelow = before?.uidValidity === uidValidity ? before.uidNext : 1;
    const ids =
      this.previous.size === 0
        ? new Map<number, string>()
        : await this.messageIds(client, listed, storedBelow);
    const special = folder.specialUse ? SPECIAL_USE_LABELS[folder.specialUse] : undefined;
    const bodies = new BodyBatches(client, listed, this.maxMessageBytes, this.path, folder.path);
    for (const [index, message] of listed.entries()) {
      const labels = flagLabels(message.flags, IMAP_FLAGS);
      const messageId = ids.get(message.uid);
      yield {
        key: `${folder.path};UIDVALIDITY=${uidValidity}/;UID=${message.uid}`,
        folder: folder.path,
        labels: special ? [...labels, special] : labels,
        fingerprint: message.flags.join(' '),
        fileTime: null,
        fixedContent: true,
        ...(messageId ? { identity: { messageId, size: message.size } } : {}),
        read: () => bodies.read(index),
      };
    }
    this.seen.push({ ...state, messages: listed.length });
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
class BodyBatches {
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

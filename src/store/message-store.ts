// Writes messages into the archive: dedupe on Message-ID (content hash without one),
// variants for a reused Message-ID, locations, labels, threading, and deletion of
// messages whose last location disappeared. Every method expects to run inside a
// transaction opened by the caller, so a batch commits or rolls back as a whole; the
// caller flushes (or discards) what the store and its index hooks deferred before it does.

import { CLEANER_VERSION } from '../clean/stored.js';
import { linkMessage } from '../thread/index.js';
import { type Archive, type Db, sql } from './archive.js';
import { forgetUnusedExtractions } from './attachment-texts.js';
import { labelForFolder, mergeLabels } from './labels.js';
import { PendingCounts } from './pending-counts.js';
import type { PreparedMessage } from './records.js';
import {
  addToThreadCount,
  countNewMessage,
  discardThreadCounts,
  flushThreadCounts,
  SqliteThreadGraph,
} from './thread-graph.js';

export interface Inbox {
  readonly id: number;
  readonly name: string;
}

export interface LocationInput {
  readonly key: string;
  readonly folder: string;
  readonly labels: readonly string[];
  readonly fingerprint: string;
}

export interface StoredLocation {
  readonly id: number;
  readonly fingerprint: string;
  readonly messageRowid: number;
}

/**
 * A location not stored yet. Most are new, so they are inserted first and updated only when
 * the key was there: an upsert makes SQLite journal every page it changes (16 KB each) in case
 * its update part fails, 14.8 us a location against 4.8 us for this insert (20k archive).
 */
const INSERT_LOCATION = `INSERT OR IGNORE INTO locations
  (source_id, key, folder, labels_json, fingerprint, message_rowid, seen_run)
  VALUES (@source, @key, @folder, @labels, @fingerprint, @message, @run)`;
const UPDATE_LOCATION = `UPDATE locations SET folder = @folder, labels_json = @labels, fingerprint = @fingerprint,
  message_rowid = @message, seen_run = @run WHERE source_id = @source AND key = @key`;

/** The rows of a kept folder not yet seen this run and not reported gone (keepFolder). */
const KEPT_IN_FOLDER = `WHERE source_id = :sourceId AND folder = :folder AND seen_run <> :run
  AND key NOT IN (SELECT value FROM json_each(:gone))`;

/** A message_labels row: message rowid, label. */
type LabelRow = readonly [number, string];

/** Between a reused Message-ID and its variant's content hash: '<id>#variant-<hash>'. */
const VARIANT_MARK = '#variant-';

export type StoreOutcome = 'added' | 'duplicate' | 'variant';

export class MessageStore {
  readonly db: Db;
  /**
   * The message last inserted, until a location is attached to it: its labels then need
   * no reading back (it has no other location, and no labels yet).
   */
  private inserted: { readonly rowid: number; readonly headerLabels: readonly string[] } | null = null;
  /**
   * Labels of the messages inserted since the last flush, written together by flushIndexes.
   * message_labels has triggers (the keyword index's exclusion flag and hit counter), and a
   * statement that fires triggers makes SQLite copy every existing page it changes (16 KB
   * each) into a statement journal first: row by row that was 27 us a label, the costliest
   * statement of an ingest (bench:statements); one statement for the batch appends to new
   * pages, which need no copy (10k messages of two labels: 33-37 -> 6-7 us a message).
   */
  private readonly pendingLabels = new Map<number, readonly string[]>();
  /**
   * Senders of the messages inserted since the last flush, with how many each, counted
   * together by flushIndexes: the upsert cost ~24 us a message at 1M messages (a random-keyed
   * b-tree and a statement journal), and a batch's messages share senders.
   */
  private readonly pendingSenders = new PendingCounts<[inboxId: number, address: string, name: string]>();
  /**
   * Sources that may have failure rows, by id, learnt once per run (see source()): most
   * have none, and their ingest then skips two failure statements a message.
   */
  private readonly failuresBySource = new Map<number, boolean>();

  constructor(private readonly archive: Archive) {
    this.db = archive.db;
  }

  inbox(name: string): Inbox {
    // A new inbox holds only messages this build cleans; an existing one keeps the oldest rules it holds.
    sql(this.db, 'INSERT OR IGNORE INTO inboxes (name, created_at, cleaner) VALUES (?, ?, ?)').run(
      name,
      Date.now(),
      Number(CLEANER_VERSION),
    );
    const row = sql(this.db, 'SELECT id FROM inboxes WHERE name = ?').get(name) as { id: number };
    return { id: row.id, name };
  }

  /** The source's id, creating it if new; call at the start of each run over it. */
  source(inbox: Inbox, kind: string, path: string): number {
    sql(this.db, 'INSERT OR IGNORE INTO sources (inbox_id, kind, path) VALUES (?, ?, ?)').run(
      inbox.id,
      kind,
      path,
    );
    const id = (
      sql(this.db, 'SELECT id FROM sources WHERE inbox_id = ? AND path = ?').get(inbox.id, path) as {
        id: number;
      }
    ).id;
    this.failuresBySource.delete(id);
    return id;
  }

  private mayHaveFailures(sourceId: number): boolean {
    let may = this.failuresBySource.get(sourceId);
    if (may === undefined) {
      may = sql(this.db, 'SELECT 1 FROM failures WHERE source_id = ? LIMIT 1').get(sourceId) !== undefined;
      this.failuresBySource.set(sourceId, may);
    }
    return may;
  }

  findLocation(sourceId: number, key: string): StoredLocation | undefined {
    const row = sql(
      this.db,
      'SELECT id, fingerprint, message_rowid FROM locations WHERE source_id = ? AND key = ?',
    ).get(sourceId, key) as { id: number; fingerprint: string; message_rowid: number } | undefined;
    return row && { id: row.id, fingerprint: row.fingerprint, messageRowid: row.message_rowid };
  }

  markSeen(locationId: number, run: number): void {
    sql(this.db, 'UPDATE locations SET seen_run = ? WHERE id = ?').run(run, locationId);
  }

  /** A message of this inbox stored from exactly these bytes, if any: lets a copy skip parsing. */
  findByRaw(inbox: Inbox, rawSha256: string): number | undefined {
    const row = sql(
      this.db,
      `SELECT m.id FROM messages m JOIN raw_messages r ON r.id = m.raw_id
       WHERE r.sha256 = ? AND m.inbox_id = ? ORDER BY m.id LIMIT 1`,
    ).get(rawSha256, inbox.id) as { id: number } | undefined;
    return row?.id;
  }

  /**
   * A message of this inbox with this Message-ID and raw size that the source already holds
   * at another location: a server message moved between folders, or listed again under a new
   * UIDVALIDITY. Only the source's own messages qualify, so a stranger's mail reusing a
   * Message-ID cannot stand in for one the source never delivered.
   */
  findSourceCopy(inbox: Inbox, sourceId: number, messageId: string, rawSize: number): number | undefined {
    const row = sql(
      this.db,
      `SELECT m.id FROM messages m JOIN raw_messages r ON r.id = m.raw_id
       WHERE m.inbox_id = ? AND m.message_id = ? AND r.size = ?
         AND EXISTS (SELECT 1 FROM locations l WHERE l.message_rowid = m.id AND l.source_id = ?)`,
    ).get(inbox.id, messageId, rawSize, sourceId) as { id: number } | undefined;
    return row?.id;
  }

  /** Stores a message unless it is already there; returns the row it lives in. */
  storeMessage(inbox: Inbox, message: PreparedMessage): { rowid: number; outcome: StoreOutcome } {
    const messageId = message.headerMessageId ?? syntheticMessageId(message.contentHash);
    const existing = this.findByMessageId(inbox, messageId);
    if (!existing) return { rowid: this.insert(inbox, message, messageId, null), outcome: 'added' };
    if (existing.contentHash === message.contentHash) return { rowid: existing.rowid, outcome: 'duplicate' };

    // Same Message-ID, different content: keep both, the second as a flagged variant.
    const variantId = `${messageId}${VARIANT_MARK}${message.contentHash.slice(0, 12)}`;
    const variant = this.findByMessageId(inbox, variantId);
    if (variant) return { rowid: variant.rowid, outcome: 'duplicate' };
    return { rowid: this.insert(inbox, message, variantId, existing.rowid), outcome: 'variant' };
  }

  /** Writes what the store and its index hooks deferred in this transaction: call before committing it. */
  flushIndexes(): void {
    this.writePendingLabels();
    this.writePendingSenders();
    flushThreadCounts(this.db);
    for (const hook of this.archive.hooks) hook.flush?.(this.db);
  }

  /** Drops what the store and its index hooks deferred: call before rolling the transaction back. */
  discardIndexes(): void {
    this.pendingLabels.clear();
    this.pendingSenders.clear();
    discardThreadCounts(this.db);
    for (const hook of this.archive.hooks) hook.discard?.(this.db);
  }

  /** Points a location at a message (new location, or one whose content changed) and refreshes labels. */
  attachLocation(sourceId: number, location: LocationInput, messageRowid: number, run: number): void {
    const values = {
      source: sourceId,
      key: location.key,
      folder: location.folder,
      labels: JSON.stringify(location.labels),
      fingerprint: location.fingerprint,
      message: messageRowid,
      run,
    };
    const added = sql(this.db, INSERT_LOCATION).run(values).changes > 0;
    const previous = added ? undefined : this.findLocation(sourceId, location.key);
    if (!added) sql(this.db, UPDATE_LOCATION).run(values);
    if (this.mayHaveFailures(sourceId))
      sql(this.db, 'DELETE FROM failures WHERE source_id = ? AND key = ?').run(sourceId, location.key);
    const inserted = this.inserted;
    this.inserted = null;
    if (!previous && inserted?.rowid === messageRowid) {
      const folder = labelForFolder(location.folder);
      this.pendingLabels.set(
        messageRowid,
        mergeLabels(inserted.headerLabels, location.labels, folder ? [folder] : []),
      );
    } else this.refreshLabels(messageRowid);
    if (previous && previous.messageRowid !== messageRowid) this.deleteIfOrphaned(previous.messageRowid);
  }

  recordFailure(sourceId: number, location: LocationInput, reason: string, run: number): void {
    this.failuresBySource.set(sourceId, true);
    sql(
      this.db,
      `INSERT INTO failures (source_id, key, folder, fingerprint, reason, at, seen_run) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (source_id, key) DO UPDATE SET folder = excluded.folder, fingerprint = excluded.fingerprint,
         reason = excluded.reason, at = excluded.at, seen_run = excluded.seen_run`,
    ).run(
      sourceId,
      location.key,
      location.folder,
      location.fingerprint,
      reason.slice(0, 2000),
      Date.now(),
      run,
    );
  }

  /** True when this location already failed with these exact bytes: no need to retry each run. */
  knownFailure(sourceId: number, key: string, fingerprint: string, run: number): boolean {
    if (!this.mayHaveFailures(sourceId)) return false;
    const result = sql(
      this.db,
      'UPDATE failures SET seen_run = ? WHERE source_id = ? AND key = ? AND fingerprint = ?',
    ).run(run, sourceId, key, fingerprint);
    return result.changes > 0;
  }

  /**
   * Marks seen, as a scan would, the locations (and failures) of the source in `folder` that
   * this run has not met, but for the keys of `gone`: a folder its server said did not change,
   * or reported the changes of. Returns how many locations it kept so.
   */
  keepFolder(sourceId: number, folder: string, run: number, gone: readonly string[] = []): number {
    const params = { run, sourceId, folder, gone: JSON.stringify(gone) };
    sql(this.db, `UPDATE failures SET seen_run = :run ${KEPT_IN_FOLDER}`).run(params);
    return sql(this.db, `UPDATE locations SET seen_run = :run ${KEPT_IN_FOLDER}`).run(params).changes;
  }

  /** How many of these keys the source holds a location or a failure of. */
  countStored(sourceId: number, keys: readonly string[]): number {
    const row = sql(
      this.db,
      `SELECT (SELECT count(*) FROM locations WHERE source_id = :sourceId AND key IN (SELECT value FROM json_each(:keys)))
        + (SELECT count(*) FROM failures WHERE source_id = :sourceId AND key IN (SELECT value FROM json_each(:keys))) AS n`,
    ).get({ sourceId, keys: JSON.stringify(keys) }) as { n: number };
    return row.n;
  }

  /**
   * After a complete scan: forgets locations (and failures) the scan did not see, and
   * deletes messages left with no location. Returns how many messages were deleted.
   */
  sweep(sourceId: number, run: number): number {
    const gone = sql(
      this.db,
      'SELECT id, message_rowid FROM locations WHERE source_id = ? AND seen_run <> ?',
    ).all(sourceId, run) as Array<{ id: number; message_rowid: number }>;
    let deleted = 0;
    for (const location of gone) {
      sql(this.db, 'DELETE FROM locations WHERE id = ?').run(location.id);
      if (this.deleteIfOrphaned(location.message_rowid)) deleted++;
      else this.refreshLabels(location.message_rowid);
    }
    sql(this.db, 'DELETE FROM failures WHERE source_id = ? AND seen_run <> ?').run(sourceId, run);
    return deleted;
  }

  /** Deletes a message from the store and from every registered index. */
  deleteMessage(rowid: number): void {
    this.pendingLabels.delete(rowid);
    // The delete trigger decrements the stored count, which must include this message.
    this.writePendingSenders();
    const row = sql(
      this.db,
      'SELECT inbox_id, message_id, header_message_id, thread_id, raw_id FROM messages WHERE id = ?',
    ).get(rowid) as
      | {
          inbox_id: number;
          message_id: string;
          header_message_id: string | null;
          thread_id: string;
          raw_id: number;
        }
      | undefined;
    if (!row) return;
    for (const hook of this.archive.hooks) hook.onDelete?.(this.db, rowid);
    const attachmentHashes = sql(this.db, 'SELECT sha256 FROM attachments WHERE message_rowid = ?')
      .pluck()
      .all(rowid) as string[];
    sql(this.db, 'DELETE FROM locations WHERE message_rowid = ?').run(rowid);
    sql(this.db, 'DELETE FROM messages WHERE id = ?').run(rowid);
    forgetUnusedExtractions(this.db, attachmentHashes);
    addToThreadCount(this.db, row.inbox_id, row.thread_id, -1);
    // The container stays as a placeholder so replies still thread through it.
    const nodeId = row.header_message_id ?? row.message_id;
    // The copies left: the message itself, or one of its variants ('<id>#variant-<hash>'),
    // looked up as ranges of the (inbox, message_id) index. A test on header_message_id
    // alone scanned the inbox: 1.8 s per deleted message at 1M messages.
    const variants = `${nodeId}${VARIANT_MARK}`;
    const remaining = sql(
      this.db,
      `SELECT count(*) AS n FROM messages WHERE inbox_id = @inbox AND (message_id = @id OR
         (message_id >= @variants AND message_id < @variants || char(1114111) AND header_message_id = @id))`,
    ).get({ inbox: row.inbox_id, id: nodeId, variants }) as { n: number };
    if (remaining.n === 0) {
      sql(this.db, 'UPDATE thread_nodes SET present = 0 WHERE inbox_id = ? AND message_id = ?').run(
        row.inbox_id,
        nodeId,
      );
    }
    const rawUsers = sql(this.db, 'SELECT count(*) AS n FROM messages WHERE raw_id = ?').get(row.raw_id) as {
      n: number;
    };
    if (rawUsers.n === 0) sql(this.db, 'DELETE FROM raw_messages WHERE id = ?').run(row.raw_id);
  }

  private deleteIfOrphaned(rowid: number): boolean {
    const used = sql(this.db, 'SELECT 1 FROM locations WHERE message_rowid = ? LIMIT 1').get(rowid);
    if (used) return false;
    this.deleteMessage(rowid);
    return true;
  }

  private findByMessageId(
    inbox: Inbox,
    messageId: string,
  ): { rowid: number; contentHash: string } | undefined {
    const row = sql(
      this.db,
      'SELECT id, content_hash FROM messages WHERE inbox_id = ? AND message_id = ?',
    ).get(inbox.id, messageId) as { id: number; content_hash: string } | undefined;
    return row && { rowid: row.id, contentHash: row.content_hash };
  }

  private insert(
    inbox: Inbox,
    message: PreparedMessage,
    messageId: string,
    variantOf: number | null,
  ): number {
    const db = this.db;
    const raw = sql(db, 'INSERT OR IGNORE INTO raw_messages (sha256, size, deflated) VALUES (?, ?, ?)').run(
      message.rawSha256,
      message.rawSize,
      message.rawDeflated,
    );
    const rawId =
      raw.changes > 0
        ? Number(raw.lastInsertRowid)
        : (sql(db, 'SELECT id FROM raw_messages WHERE sha256 = ?').get(message.rawSha256) as { id: number })
            .id;
    const threadId = linkMessage(new SqliteThreadGraph(db, inbox.id, inbox.name), {
      messageId: message.headerMessageId ?? messageId,
      references: message.references,
      threadKeys: message.threadKeys,
    });
    const rowid = Number(
      sql(
        db,
        `INSERT INTO messages (inbox_id, message_id, header_message_id, variant_of, content_hash, thread_id, date,
           date_source, from_name, from_address, to_json, cc_json, bcc_json, reply_to_json, subject, in_reply_to,
           references_json, auth_json, list_id, header_labels_json, warnings_json, attachment_count, body, raw_id,
           ingested_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        inbox.id,
        messageId,
        message.headerMessageId,
        variantOf,
        message.contentHash,
        threadId,
        message.date.getTime(),
        message.dateSource,
        message.from?.name ?? '',
        message.from?.address ?? '',
        JSON.stringify(message.to),
        JSON.stringify(message.cc),
        JSON.stringify(message.bcc),
        JSON.stringify(message.replyTo),
        message.subject,
        message.inReplyTo,
        JSON.stringify(message.references),
        JSON.stringify(message.auth),
        message.listId,
        JSON.stringify(message.headerLabels),
        JSON.stringify(message.warnings),
        message.attachments.length,
        message.bodyDeflated,
        rawId,
        Date.now(),
      ).lastInsertRowid,
    );
    // Counted here, not by a trigger (migration 6), at the flush.
    this.pendingSenders.add([inbox.id, message.from?.address ?? '', message.from?.name ?? '']);
    const insertAttachment = sql(
      db,
      `INSERT INTO attachments (message_rowid, ordinal, filename, content_type, size, sha256, content_id, inline)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    message.attachments.forEach((a, ordinal) => {
      insertAttachment.run(
        rowid,
        ordinal,
        a.filename,
        a.contentType,
        a.size,
        a.sha256,
        a.contentId,
        a.inline ? 1 : 0,
      );
    });
    countNewMessage(db, inbox.id, threadId);
    const inserted = { prepared: message, inboxId: inbox.id, threadId };
    for (const hook of this.archive.hooks) hook.onInsert?.(db, rowid, inserted);
    this.inserted = { rowid, headerLabels: message.headerLabels };
    return rowid;
  }

  private refreshLabels(rowid: number): void {
    // Recomputed from the header and every location: what was pending is part of it.
    this.pendingLabels.delete(rowid);
    const header = sql(this.db, 'SELECT header_labels_json FROM messages WHERE id = ?').get(rowid) as
      | { header_labels_json: string }
      | undefined;
    if (!header) return;
    const locations = sql(this.db, 'SELECT folder, labels_json FROM locations WHERE message_rowid = ?').all(
      rowid,
    ) as Array<{
      folder: string;
      labels_json: string;
    }>;
    const labels = mergeLabels(
      JSON.parse(header.header_labels_json) as string[],
      ...locations.map((l) => JSON.parse(l.labels_json) as string[]),
      locations.map((l) => labelForFolder(l.folder)).filter((l): l is string => l !== null),
    );
    sql(this.db, 'DELETE FROM message_labels WHERE message_rowid = ?').run(rowid);
    this.insertLabels(labels.map((label): LabelRow => [rowid, label]));
  }

  private writePendingLabels(): void {
    const rows = [...this.pendingLabels].flatMap(([rowid, labels]) =>
      labels.map((label): LabelRow => [rowid, label]),
    );
    this.pendingLabels.clear();
    this.insertLabels(rows);
  }

  private writePendingSenders(): void {
    const rows = this.pendingSenders.take();
    if (rows === null) return;
    // WHERE true: an upsert on INSERT ... SELECT needs it to parse (SQLite's documented rule).
    sql(
      this.db,
      `INSERT INTO senders (inbox_id, address, name, messages)
       SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3 FROM json_each(?) WHERE true
       ON CONFLICT (inbox_id, address, name) DO UPDATE SET messages = messages + excluded.messages`,
    ).run(rows);
  }

  /** One statement for all `rows`: see pendingLabels. */
  private insertLabels(rows: readonly LabelRow[]): void {
    if (rows.length === 0) return;
    sql(
      this.db,
      'INSERT INTO message_labels (message_rowid, label) SELECT value ->> 0, value ->> 1 FROM json_each(?)',
    ).run(JSON.stringify(rows));
  }
}

/** Stable id for a message without a usable Message-ID, derived from its content hash. */
export function syntheticMessageId(contentHash: string): string {
  return `${contentHash.slice(0, 32)}@mailsift.invalid`;
}

// Cleaning stored messages again after the cleaner's rules changed (CLEANER_VERSION): each
// message's raw bytes are parsed and cleaned with the current rules, and a message whose
// cleaned parts come out different is stored with them and re-indexed by every index hook in
// the same transaction (its keyword postings replaced, its thread re-chunked by the RAG backlog).

import { inflateRawSync } from 'node:zlib';
import { CLEANER_VERSION, cleanMessage } from '../clean/index.js';
import { describeError } from '../core/errors.js';
import { parseMessage } from '../parse/index.js';
import { type Archive, inboxByName, loadRaw, sql } from '../store/index.js';
import { deflateText } from './compress.js';

export interface RecleanReport {
  /** Messages cleaned again. */
  readonly messages: number;
  /** Messages whose cleaned parts changed: stored and re-indexed. */
  readonly changed: number;
  /** Messages whose stored bytes could not be parsed again, each with the reason; left as they were. */
  readonly failures: ReadonlyArray<{ readonly messageId: string; readonly reason: string }>;
}

export interface RecleanOptions {
  /** Only this inbox's messages; default every inbox. */
  readonly inbox?: string;
  readonly onProgress?: (done: number, total: number) => void;
}

/**
 * Messages read and cleaned per transaction: the parsing (~0.5 ms a message) runs before it,
 * so a concurrent ingest waits only for a batch's writes, and progress moves in small steps.
 */
const BATCH = 500;

export async function reclean(archive: Archive, options: RecleanOptions = {}): Promise<RecleanReport> {
  const db = archive.db;
  const inboxId = options.inbox === undefined ? null : inboxByName(db, options.inbox).id;
  const scope = 'WHERE (@inbox IS NULL OR inbox_id = @inbox)';
  const total = sql(db, `SELECT count(*) FROM messages ${scope}`).pluck().get({ inbox: inboxId }) as number;
  const nextBatch = sql(db, `SELECT id FROM messages ${scope} AND id > @after ORDER BY id LIMIT @n`).pluck();
  // The stored body is the JSON the cleaner's parts were written as: compared as text.
  const storedBody = sql(db, 'SELECT message_id AS messageId, body FROM messages WHERE id = ?');
  const store = sql(db, 'UPDATE messages SET body = ? WHERE id = ?');
  const failures: Array<{ messageId: string; reason: string }> = [];
  let done = 0;
  let changed = 0;
  let after = 0;
  for (;;) {
    const ids = nextBatch.all({ inbox: inboxId, after, n: BATCH }) as number[];
    if (ids.length === 0) break;
    after = ids[ids.length - 1] as number;
    const updates: Array<{ rowid: number; body: Buffer }> = [];
    for (const rowid of ids) {
      const stored = storedBody.get(rowid) as { messageId: string; body: Buffer } | undefined;
      if (!stored) continue; // deleted while this batch was read
      try {
        const parsed = await parseMessage(loadRaw(db, rowid), { fileTime: null });
        const cleaned = JSON.stringify(cleanMessage({ text: parsed.text, html: parsed.html }));
        if (cleaned !== inflateRawSync(stored.body).toString('utf8'))
          updates.push({ rowid, body: deflateText(cleaned) });
      } catch (error) {
        failures.push({ messageId: stored.messageId, reason: describeError(error) });
      }
    }
    try {
      db.transaction(() => {
        for (const { rowid, body } of updates) {
          if (store.run(body, rowid).changes === 0) continue;
          for (const hook of archive.hooks) hook.onInsert?.(db, rowid);
          changed++;
        }
        for (const hook of archive.hooks) hook.flush?.(db);
      })();
    } catch (error) {
      // Writes the hooks deferred belong to the transaction that rolled back.
      for (const hook of archive.hooks) hook.discard?.(db);
      throw error;
    }
    done += ids.length;
    options.onProgress?.(done, total);
  }
  sql(db, 'UPDATE inboxes SET cleaner = @version WHERE @inbox IS NULL OR id = @inbox').run({
    version: Number(CLEANER_VERSION),
    inbox: inboxId,
  });
  return { messages: done, changed, failures };
}

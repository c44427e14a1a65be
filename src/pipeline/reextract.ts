// Re-extraction of attachment text for one format (after an extractor upgrade): each
// distinct attachment is extracted again from the stored raw bytes, and every message
// carrying it is re-indexed in the same transaction as its new text.

import { createExtractor } from '../attachments/index.js';
import { type Archive, extractionsOfFormat, loadMessage, saveExtraction, sql } from '../store/index.js';
import { loadAttachmentContent, toStoredExtraction } from './attachment-content.js';

export interface ReextractReport {
  readonly format: string;
  readonly attachments: number;
  readonly ok: number;
  readonly skipped: number;
  readonly failed: number;
  readonly messagesReindexed: number;
}

export async function reextract(
  archive: Archive,
  format: string,
  options: { workers?: number; onProgress?: (done: number, total: number) => void } = {},
): Promise<ReextractReport> {
  const db = archive.db;
  const hashes = extractionsOfFormat(db, format);
  const extractor = createExtractor({ workers: options.workers ?? 1 });
  const counts = { ok: 0, skipped: 0, failed: 0, messagesReindexed: 0 };
  try {
    for (const [done, hash] of hashes.entries()) {
      const carriers = sql(
        db,
        'SELECT DISTINCT message_rowid FROM attachments WHERE sha256 = ? ORDER BY message_rowid',
      )
        .pluck()
        .all(hash) as number[];
      const first = carriers[0] === undefined ? undefined : loadMessage(db, carriers[0]);
      const ordinal = first?.attachments.findIndex((a) => a.sha256 === hash) ?? -1;
      if (!first || ordinal < 0) continue;
      const { attachment, content } = await loadAttachmentContent(db, first, ordinal);
      const extraction = await extractor.extract({
        filename: attachment.filename,
        contentType: attachment.contentType,
        content,
      });
      counts[extraction.status]++;
      db.transaction(() => {
        saveExtraction(db, hash, toStoredExtraction(extraction));
        for (const rowid of carriers) {
          for (const hook of archive.hooks) hook.onInsert?.(db, rowid);
        }
      })();
      counts.messagesReindexed += carriers.length;
      options.onProgress?.(done + 1, hashes.length);
    }
  } finally {
    await extractor.close();
  }
  return { format, attachments: hashes.length, ...counts };
}

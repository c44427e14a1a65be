// Re-extraction of attachment text for one format (after an extractor upgrade): each
// distinct attachment is extracted again from the stored raw bytes, and every message
// carrying it is re-indexed in the same transaction as its new text.

import { createExtractor } from '../attachments/index.js';
import { type Archive, extractionsOfFormat } from '../store/index.js';
import { addOutcome, type ExtractionCounts, extractAndStore } from './extract-pending.js';

export interface ReextractReport extends ExtractionCounts {
  readonly format: string;
  readonly attachments: number;
}

export async function reextract(
  archive: Archive,
  format: string,
  options: { workers?: number; onProgress?: (done: number, total: number) => void } = {},
): Promise<ReextractReport> {
  const hashes = extractionsOfFormat(archive.db, format);
  const extractor = createExtractor({ workers: options.workers ?? 1 });
  const counts: ExtractionCounts = { ok: 0, skipped: 0, failed: 0, messagesReindexed: 0 };
  try {
    for (const [done, hash] of hashes.entries()) {
      const outcome = await extractAndStore(archive, extractor, hash);
      if (outcome) addOutcome(counts, outcome);
      options.onProgress?.(done + 1, hashes.length);
    }
  } finally {
    await extractor.close();
  }
  return { format, attachments: hashes.length, ...counts };
}

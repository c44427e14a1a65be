// Re-extraction of attachment text for one format (after an extractor upgrade): each
// distinct attachment is extracted again from the stored raw bytes, and every message
// carrying it is re-indexed in the same transaction as its new text.

import { type Archive, extractionsOfFormat } from '../store/index.js';
import {
  drainExtractor,
  type ExtractionCounts,
  emptyExtractionCounts,
  extractAndStore,
} from './extract-pending.js';

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
  const extractor = drainExtractor(options.workers);
  const counts = emptyExtractionCounts();
  try {
    await extractAndStore(archive, extractor, hashes, counts, options.onProgress);
  } finally {
    await extractor.close();
  }
  return { format, attachments: hashes.length, ...counts };
}

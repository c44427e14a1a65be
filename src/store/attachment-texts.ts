// Extracted attachment text, stored once per distinct content hash: fifty messages
// carrying the same PDF share one extraction.

import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Address } from '../core/types.js';
import { type Db, sql } from './archive.js';

export interface StoredExtraction {
  readonly status: 'ok' | 'skipped' | 'failed';
  readonly reason: string | null;
  readonly format: string;
  readonly detectedType: string;
  readonly language: string | null;
  readonly truncated: boolean;
  readonly text: string;
  /** Headers of a nested message/rfc822 attachment. */
  readonly message: { subject: string; from: Address | null; to: Address[]; date: string | null } | null;
}

interface Row {
  status: StoredExtraction['status'];
  reason: string | null;
  format: string;
  detected_type: string;
  language: string | null;
  truncated: number;
  text: Buffer;
  message_json: string | null;
}

export function hasExtraction(db: Db, sha256: string): boolean {
  return sql(db, 'SELECT 1 FROM attachment_texts WHERE sha256 = ?').get(sha256) !== undefined;
}

export function saveExtraction(db: Db, sha256: string, extraction: StoredExtraction): void {
  sql(
    db,
    `INSERT OR REPLACE INTO attachment_texts
       (sha256, status, reason, detected_type, format, language, truncated, text, message_json, extracted_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    sha256,
    extraction.status,
    extraction.reason,
    extraction.detectedType,
    extraction.format,
    extraction.language,
    extraction.truncated ? 1 : 0,
    deflateRawSync(Buffer.from(extraction.text, 'utf8'), { level: 1 }),
    extraction.message ? JSON.stringify(extraction.message) : null,
    Date.now(),
  );
}

export function loadExtraction(db: Db, sha256: string): StoredExtraction | null {
  const row = sql(db, 'SELECT * FROM attachment_texts WHERE sha256 = ?').get(sha256) as Row | undefined;
  if (!row) return null;
  return {
    status: row.status,
    reason: row.reason,
    format: row.format,
    detectedType: row.detected_type,
    language: row.language,
    truncated: row.truncated === 1,
    text: inflatedText(row.text),
    message: row.message_json === null ? null : (JSON.parse(row.message_json) as StoredExtraction['message']),
  };
}

/**
 * The text last inflated, by its stored bytes. The carriers of one attachment are read one
 * after another when its extraction re-indexes them, and inflating the same text for each was
 * a third of reading them back (5k generated messages: 540 carriers of 118 texts). Holds one
 * text, whatever its size, until the next is read.
 */
let lastInflated: { readonly deflated: Buffer; readonly text: string } | undefined;

function inflatedText(deflated: Buffer): string {
  if (lastInflated?.deflated.equals(deflated)) return lastInflated.text;
  const text = inflateRawSync(deflated).toString('utf8');
  lastInflated = { deflated, text };
  return text;
}

/** Drops extractions no stored attachment refers to any more. */
export function forgetUnusedExtractions(db: Db, sha256s: readonly string[]): void {
  for (const sha256 of sha256s) {
    const used = sql(db, 'SELECT 1 FROM attachments WHERE sha256 = ? LIMIT 1').get(sha256);
    if (!used) sql(db, 'DELETE FROM attachment_texts WHERE sha256 = ?').run(sha256);
  }
}

/** Content hashes of stored attachments whose extraction has this format (for re-extraction). */
export function extractionsOfFormat(db: Db, format: string): string[] {
  return sql(db, 'SELECT sha256 FROM attachment_texts WHERE format = ? ORDER BY sha256')
    .pluck()
    .all(format) as string[];
}

/**
 * Distinct stored attachments (by content hash) with no extraction yet: the extraction
 * backlog, derived from the store so it survives a crash and shrinks when mail is deleted.
 */
export function pendingExtractions(db: Db): number {
  return (
    sql(
      db,
      `SELECT count(DISTINCT a.sha256) AS n FROM attachments a
       WHERE NOT EXISTS (SELECT 1 FROM attachment_texts t WHERE t.sha256 = a.sha256)`,
    ).get() as { n: number }
  ).n;
}

/** Up to `limit` pending content hashes, in the order their first message was stored. */
export function pendingExtractionHashes(db: Db, limit: number): string[] {
  return sql(
    db,
    `SELECT a.sha256 FROM attachments a
     WHERE NOT EXISTS (SELECT 1 FROM attachment_texts t WHERE t.sha256 = a.sha256)
     GROUP BY a.sha256 ORDER BY min(a.message_rowid) LIMIT ?`,
  )
    .pluck()
    .all(limit) as string[];
}

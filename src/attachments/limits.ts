// Every limit attachment extraction puts on untrusted files, with the reason for each
// number, and the one function that merges a caller's overrides into them.
import { MailsiftError } from '../core/errors.js';

export interface ExtractionLimits {
  /** Attachments larger than this are skipped 'too large' without being read. */
  maxBytes: number;
  /** Wall-clock budget of one attachment (with its zip/message children); the worker is killed past it. */
  timeoutMs: number;
  /** Characters of text kept per attachment; the rest is cut and `truncated` set. */
  maxTextChars: number;
  /** Containers (zip, nested message, TNEF) opened inside one attachment. */
  zipMaxDepth: number;
  /** Entries of one zip that are listed and extracted; the rest are dropped and `truncated` set. */
  zipMaxEntries: number;
  /** Declared uncompressed bytes inflated from one zip (or office package) in total. */
  zipMaxTotalUncompressed: number;
  /** An entry whose uncompressed/compressed ratio exceeds this is a bomb and is not inflated. */
  zipMaxRatio: number;
}

export const DEFAULT_EXTRACTION_LIMITS: Readonly<ExtractionLimits> = {
  /**
   * 25 MB: Gmail's and Outlook's attachment limit, so every file a real mail client sent
   * fits; anything bigger was forwarded by a script and is rarely worth the memory.
   */
  maxBytes: 25 * 1024 * 1024,
  /**
   * 10 s: unpdf takes ~15 ms for a 3-page PDF (FACTS.md) and under 1 s for a 25 MB one;
   * ten seconds is two orders of magnitude of headroom, yet bounds a pathological file
   * to a blip in an ingest of thousands of messages.
   */
  timeoutMs: 10_000,
  /**
   * 1,000,000 characters: a 300-page contract is ~600k characters; beyond that the tail
   * adds little to search and would dominate the index and the embedding bill.
   */
  maxTextChars: 1_000_000,
  /**
   * 2: a zip inside a zip (or a forwarded message carrying a zip) is common; deeper
   * nesting is almost only found in bombs like 42.zip.
   */
  zipMaxDepth: 2,
  /**
   * 200 entries: an archive of invoices or a project folder has tens of files; 200 keeps
   * the file list useful while bounding work on archives of thousands of tiny files.
   */
  zipMaxEntries: 200,
  /**
   * 100 MB: four times the largest attachment, enough for an office package or an archive
   * of text files to inflate fully, while a bomb's gigabytes never reach memory.
   */
  zipMaxTotalUncompressed: 100 * 1024 * 1024,
  /**
   * 100: deflate gets 3–10× on text and XML and ~1× on images; ratios above 100 come from
   * long runs of one byte, which is what bombs are made of.
   */
  zipMaxRatio: 100,
};

/** Entries below this size are never judged by ratio: a tiny file's ratio says nothing. */
export const RATIO_MIN_BYTES = 1024 * 1024;

/** Merges overrides into the defaults; a non-positive or non-finite value is an error naming the limit. */
export function resolveLimits(overrides: Partial<ExtractionLimits> = {}): ExtractionLimits {
  const limits = { ...DEFAULT_EXTRACTION_LIMITS };
  for (const key of Object.keys(DEFAULT_EXTRACTION_LIMITS) as (keyof ExtractionLimits)[]) {
    const value = overrides[key];
    if (value === undefined) continue;
    const allowsZero = key === 'zipMaxDepth';
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (value === 0 && !allowsZero)) {
      throw new MailsiftError('invalid_argument', `${key} must be a positive number, got ${String(value)}`, {
        param: key,
      });
    }
    limits[key] = value;
  }
  return limits;
}

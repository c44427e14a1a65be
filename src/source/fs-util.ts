// File-system helpers shared by the source adapters: stat with errors mapped to
// MailsiftError codes, sorted directory listings, and lazily read file entries.
import type { Dirent, Stats } from 'node:fs';
import { closeSync, fstatSync, openSync, readFileSync, statSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import type { SourceEntry } from '../core/index.js';
import { LIMITS, MailsiftError } from '../core/index.js';
import type { ReadAhead } from './read-ahead.js';

/** Options every source accepts. */
export interface SourceOptions {
  /** Largest message read into memory; larger ones yield entries whose read() rejects. */
  readonly maxMessageBytes?: number;
}

export function resolveMaxMessageBytes(options: SourceOptions): number {
  const value = options.maxMessageBytes ?? LIMITS.maxMessageBytes;
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new MailsiftError('invalid_argument', `maxMessageBytes must be a positive integer, got ${value}`, {
      param: 'maxMessageBytes',
    });
  }
  return value;
}

/** Maps a Node fs error on `path` to the MailsiftError the caller should see. */
export function fsError(error: unknown, path: string): MailsiftError {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    return new MailsiftError('not_found', `${path} does not exist`, { param: path, cause: error });
  }
  const why = code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (code ?? String(error));
  return new MailsiftError('unreadable', `${path} cannot be read: ${why}`, { param: path, cause: error });
}

export async function statPath(path: string): Promise<Stats> {
  try {
    return await stat(path);
  } catch (error) {
    throw fsError(error, path);
  }
}

/** Stats `path` and insists it is what the caller can read: a file, a directory, or either. */
export async function statExpecting(
  path: string,
  expect: 'file' | 'directory' | 'file or directory',
): Promise<Stats> {
  const stats = await statPath(path);
  const ok = (stats.isFile() && expect !== 'directory') || (stats.isDirectory() && expect !== 'file');
  if (!ok) {
    const actual = stats.isDirectory()
      ? 'a directory'
      : stats.isFile()
        ? 'a file'
        : 'neither a file nor a directory';
    throw new MailsiftError('unreadable', `${path} is ${actual}; expected a ${expect}`, { param: path });
  }
  return stats;
}

/**
 * Directory entries sorted by name in code-unit order (not locale order), so every run on
 * every machine yields messages in the same order. Returns null when the directory is absent.
 */
export async function sortedEntries(dir: string): Promise<Dirent[] | null> {
  const entries = await listingOf(dir, () => readdir(dir, { withFileTypes: true }));
  return entries?.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) ?? null;
}

/**
 * The names in a directory, sorted as sortedEntries sorts them; null when it is absent. For
 * listings that may be huge (a Maildir folder of a million messages): names only, no Dirents.
 */
export async function sortedNames(dir: string): Promise<string[] | null> {
  // The default comparison is by UTF-16 code units, as sortedEntries compares.
  return (await listingOf(dir, () => readdir(dir)))?.sort() ?? null;
}

/** What `list` reads of `dir`; null when the directory is absent. */
async function listingOf<T>(dir: string, list: () => Promise<T[]>): Promise<T[] | null> {
  try {
    return await list();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw fsError(error, dir);
  }
}

/**
 * Stats a file found in a listing; null when it vanished or is not a regular file.
 * Synchronous for the same reason as readMessageFile: a stat from the dentry cache takes
 * microseconds, the thread-pool round trip ~0.2 ms of the ingest thread.
 */
export function statListed(path: string): Stats | null {
  const stats = statFound(path);
  return stats?.isFile() ? stats : null;
}

/** Stats what a listing named, following links; null when it vanished since. */
export function statFound(path: string): Stats | null {
  try {
    return statSync(path);
  } catch (error) {
    // A mail client moved or expunged the file between listing and stat: not an error.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw fsError(error, path);
  }
}

/**
 * A SourceEntry for a message stored alone in one file, read only when asked; `ahead` is the
 * listing it came from and its place there, warmed ahead of the reads.
 */
export function fileEntry(
  file: string,
  stats: Stats,
  fields: { key: string; folder: string; labels: readonly string[]; fingerprint: string },
  maxMessageBytes: number,
  ahead?: { readonly listing: ReadAhead; readonly index: number },
): SourceEntry {
  return {
    ...fields,
    fileTime: stats.mtime,
    read: () => {
      ahead?.listing.reading(ahead.index);
      return readMessageFile(file, maxMessageBytes);
    },
  };
}

/**
 * Reads one message file. Synchronous on purpose: on a 2-core machine the libuv round
 * trips of open/fstat/read/close cost ~0.2 ms per file on the ingest thread, ten times
 * the read itself from the page cache (measured on a 5,000-message Maildir).
 */
async function readMessageFile(file: string, maxMessageBytes: number): Promise<Buffer> {
  return withFile(file, (fd) => {
    const { size } = fstatSync(fd);
    if (size > maxMessageBytes) {
      throw new MailsiftError(
        'bad_format',
        `${file} is ${size} bytes, which exceeds the ${maxMessageBytes}-byte message limit`,
        { param: file },
      );
    }
    return readFileSync(fd);
  });
}

/** Runs `use` on `file` opened for reading; fs errors become MailsiftErrors naming the file. */
export function withFile<T>(file: string, use: (fd: number) => T): T {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    throw fsError(error, file);
  }
  try {
    return use(fd);
  } catch (error) {
    throw error instanceof MailsiftError ? error : fsError(error, file);
  } finally {
    closeSync(fd);
  }
}

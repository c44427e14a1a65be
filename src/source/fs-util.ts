// File-system helpers shared by the source adapters: stat with errors mapped to
// MailsiftError codes, sorted directory listings, and lazily read file entries.
import type { Dirent, Stats } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import type { SourceEntry } from '../core/index.js';
import { LIMITS, MailsiftError } from '../core/index.js';

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
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw fsError(error, dir);
  }
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Whether `dir` holds a `cur/` or `new/` subdirectory, the mark of a maildir. */
export async function hasMaildirParts(dir: string): Promise<boolean> {
  for (const part of ['cur', 'new']) {
    try {
      if ((await stat(`${dir}/${part}`)).isDirectory()) return true;
    } catch {
      // absent or unreadable: not a maildir part
    }
  }
  return false;
}

/**
 * Maps `fn` over `items` keeping up to `width` calls in flight, yielding results in input
 * order. Stats on 100k-file folders go through libuv's thread pool; one at a time leaves
 * it idle.
 */
export async function* mapOrdered<T, R>(
  items: readonly T[],
  width: number,
  fn: (item: T) => Promise<R>,
): AsyncGenerator<R> {
  const pending: Promise<R>[] = [];
  let next = 0;
  while (next < items.length || pending.length > 0) {
    while (next < items.length && pending.length < width) {
      const call = fn(items[next++] as T);
      // A consumer that stops early never awaits calls already started; their rejections
      // must not surface as unhandled. Awaited ones still throw below.
      call.catch(() => {});
      pending.push(call);
    }
    yield await (pending.shift() as Promise<R>);
  }
}

/** Stats a file found in a listing; null when it vanished or is not a regular file. */
export async function statListed(path: string): Promise<Stats | null> {
  try {
    const stats = await stat(path);
    return stats.isFile() ? stats : null;
  } catch (error) {
    // A mail client moved or expunged the file between listing and stat: not an error.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw fsError(error, path);
  }
}

/** A SourceEntry for a message stored alone in one file, read only when asked. */
export function fileEntry(
  file: string,
  stats: Stats,
  fields: { key: string; folder: string; labels: readonly string[]; fingerprint: string },
  maxMessageBytes: number,
): SourceEntry {
  return {
    ...fields,
    fileTime: stats.mtime,
    read: () => readMessageFile(file, maxMessageBytes),
  };
}

async function readMessageFile(file: string, maxMessageBytes: number): Promise<Buffer> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    throw fsError(error, file);
  }
  try {
    const { size } = await handle.stat();
    if (size > maxMessageBytes) {
      throw new MailsiftError(
        'bad_format',
        `${file} is ${size} bytes, which exceeds the ${maxMessageBytes}-byte message limit`,
        { param: file },
      );
    }
    return await handle.readFile();
  } catch (error) {
    throw error instanceof MailsiftError ? error : fsError(error, file);
  } finally {
    await handle.close();
  }
}

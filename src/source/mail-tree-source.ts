// A mail root as a MailSource: Maildir folders (the root's own, Maildir++ '.Sub.Folder' ones,
// plain nested maildirs) are read as Maildir; every other file under it is read as the message
// or mbox its first bytes say it is, whatever its name (MH folders, notmuch's corpus,
// Thunderbird's mbox files), a .eml file as a message by its name; what is not mail is counted
// per kind with its reason (skipped-files.ts). The walk is depth-first in sorted name order,
// so every run yields the same sequence.
import type { Dirent, Stats } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { MailSource, SkippedFiles, SourceEntry } from '../core/index.js';
import { MailsiftError } from '../core/index.js';
import { fileEntry, resolveMaxMessageBytes, sortedEntries, statExpecting, statFound } from './fs-util.js';
import { isMaildirListing, MAILDIR_PARTS, maildirEntries, maildirPlusPlusName } from './maildir-folder.js';
import { type MboxOptions, MboxSource, resolveMboxFormat } from './mbox-source.js';
import { ReadAhead } from './read-ahead.js';
import { notMailKind, SkipTally, skippedByName, skippedDirectory } from './skipped-files.js';
import { readHead, sniff } from './sniff.js';

export interface MailTreeOptions extends MboxOptions {
  /**
   * How the root was recognised ('maildir' when it holds Maildir folders): a label for
   * status, which changes nothing in how the tree is read.
   */
  readonly kind?: 'maildir' | 'eml';
}

/** A directory of the walk. */
interface Place {
  readonly dir: string;
  /** Path from the root, '/'-separated ('' at the root): loose files are keyed by theirs. */
  readonly relative: string;
  /** Folder of the loose messages and mbox files here: '' at the root, else the folder path. */
  readonly folder: string;
  /** Folder of this directory's own maildir messages: 'INBOX' at the root, else `folder`. */
  readonly maildir: string;
  readonly depth: number;
}

/** Nesting depth followed; deeper trees are almost surely link loops or mistakes. */
const MAX_DEPTH = 32;
/**
 * Bytes read to recognise a loose file: a message's first header fields or an mbox's
 * 'From ' line; a field cut at the end still counts by its name (sniff.ts).
 */
const PROBE_BYTES = 4096;
const EML = /\.eml$/i;

export class MailTreeSource implements MailSource {
  readonly kind: 'maildir' | 'eml';
  readonly path: string;
  private readonly options: MboxOptions;
  private readonly maxMessageBytes: number;
  private lastSkipped: readonly SkippedFiles[] = [];

  constructor(path: string, options: MailTreeOptions = {}) {
    this.path = resolve(path);
    this.kind = options.kind ?? 'eml';
    this.options = { ...options, mboxFormat: resolveMboxFormat(options) };
    this.maxMessageBytes = resolveMaxMessageBytes(options);
  }

  skipped(): readonly SkippedFiles[] {
    return this.lastSkipped;
  }

  /**
   * Keys: a maildir message's is its folder and unique name ('INBOX/1707.M1P1.host', stable
   * across flag changes and the move from new/ to cur/); a loose message's is its path from the
   * root; an mbox message's is the mbox file's path and its hash key ('Archive.mbox/3f…:0').
   * A root that is a single file yields one entry keyed by its file name.
   */
  async *scan(): AsyncGenerator<SourceEntry> {
    const stats = await statExpecting(this.path, 'file or directory');
    const tally = new SkipTally();
    if (stats.isFile()) {
      yield this.message(this.path, basename(this.path), '', stats);
    } else {
      const root = { dir: this.path, relative: '', folder: '', maildir: 'INBOX', depth: 0 };
      yield* this.walk(root, await listing(this.path), tally);
    }
    this.lastSkipped = tally.list();
  }

  private async *walk(
    place: Place,
    entries: readonly Dirent[],
    tally: SkipTally,
  ): AsyncGenerator<SourceEntry> {
    const maildir = isMaildirListing(entries);
    if (maildir) yield* maildirEntries({ name: place.maildir, dir: place.dir }, this.maxMessageBytes, tally);
    const files = entries.filter((entry) => !entry.isDirectory() && skippedByName(entry.name) === null);
    const ahead = new ReadAhead(
      place.dir,
      files.map((entry) => entry.name),
    );
    let index = 0;
    // Files and subdirectories interleave in name order.
    for (const entry of entries) {
      const path = join(place.dir, entry.name);
      if (entry.isDirectory()) {
        if (!(maildir && MAILDIR_PARTS.has(entry.name))) yield* this.directory(place, entry.name, tally);
        continue;
      }
      const byName = skippedByName(entry.name);
      if (byName !== null) tally.add(byName, path);
      else yield* this.file(place, entry.name, tally, { listing: ahead, index: index++ });
    }
  }

  /** A subdirectory: a tool's database or a hidden directory is counted, anything else walked. */
  private async *directory(place: Place, name: string, tally: SkipTally): AsyncGenerator<SourceEntry> {
    const dir = join(place.dir, name);
    const database = skippedDirectory(name);
    if (database !== null) {
      tally.add(database, dir);
      return;
    }
    if (place.depth + 1 >= MAX_DEPTH) {
      tally.add('too-deep', dir);
      return;
    }
    const entries = await listing(dir);
    let folderName = name;
    if (name.startsWith('.')) {
      // Maildir++: a hidden directory with cur/ or new/ is a folder of the maildir around it.
      if (!isMaildirListing(entries)) {
        tally.add('hidden', dir);
        return;
      }
      folderName = maildirPlusPlusName(name);
    }
    const folder = place.folder === '' ? folderName : `${place.folder}/${folderName}`;
    const relative = place.relative === '' ? name : `${place.relative}/${name}`;
    yield* this.walk({ dir, relative, folder, maildir: folder, depth: place.depth + 1 }, entries, tally);
  }

  /** A loose file, sniffed: a message, an mbox, or counted as what it is. */
  private async *file(
    place: Place,
    name: string,
    tally: SkipTally,
    ahead: { readonly listing: ReadAhead; readonly index: number },
  ): AsyncGenerator<SourceEntry> {
    const path = join(place.dir, name);
    const relative = place.relative === '' ? name : `${place.relative}/${name}`;
    const stats = statFound(path);
    if (stats === null) return;
    if (!stats.isFile()) {
      tally.add('special', path);
      return;
    }
    // A file named .eml says it is a message: when it is not a readable one, it is recorded as
    // a broken message (a failure, with the parser's reason), not passed over. It is read once.
    if (EML.test(name)) {
      yield this.message(path, relative, place.folder, stats, ahead);
      return;
    }
    let head: Buffer;
    try {
      head = readHead(path, PROBE_BYTES);
    } catch (error) {
      if (error instanceof MailsiftError && error.code === 'not_found') return;
      // Unreadable: yielded all the same, so that its read fails and is recorded as a
      // failure naming the file and why, rather than passed over.
      yield this.message(path, relative, place.folder, stats, ahead);
      return;
    }
    const sniffed = sniff(head, stats.size > head.length);
    if (sniffed === 'message') yield this.message(path, relative, place.folder, stats, ahead);
    else if (sniffed === 'mbox') yield* this.mbox(path, relative, place.folder);
    else tally.add(notMailKind(name, sniffed === 'empty'), path);
  }

  private message(
    file: string,
    key: string,
    folder: string,
    stats: Stats,
    ahead?: { readonly listing: ReadAhead; readonly index: number },
  ): SourceEntry {
    return fileEntry(
      file,
      stats,
      { key, folder, labels: [], fingerprint: `${stats.size}:${stats.mtimeMs}` },
      this.maxMessageBytes,
      ahead,
    );
  }

  /** An mbox file's messages, in the folder named after it ('Lists/rust-dev.mbox' → 'Lists/rust-dev'). */
  private async *mbox(file: string, relative: string, folder: string): AsyncGenerator<SourceEntry> {
    for await (const entry of new MboxSource(file, this.options).scan()) {
      yield {
        ...entry,
        key: `${relative}/${entry.key}`,
        folder: folder === '' ? entry.folder : `${folder}/${entry.folder}`,
      };
    }
  }
}

async function listing(dir: string): Promise<Dirent[]> {
  return (await sortedEntries(dir)) ?? [];
}

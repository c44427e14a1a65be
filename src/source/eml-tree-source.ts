// A directory tree of .eml files (or one message file) as a MailSource. The walk is
// depth-first in sorted name order, so every run yields the same sequence.
import type { Stats } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { MailSource, SourceEntry } from '../core/index.js';
import {
  fileEntry,
  resolveMaxMessageBytes,
  type SourceOptions,
  sortedEntries,
  statExpecting,
  statListed,
} from './fs-util.js';
import { ReadAhead } from './read-ahead.js';

const EML = /\.eml$/i;

export class EmlTreeSource implements MailSource {
  readonly kind = 'eml';
  readonly path: string;
  private readonly maxMessageBytes: number;

  constructor(path: string, options: SourceOptions = {}) {
    this.path = resolve(path);
    this.maxMessageBytes = resolveMaxMessageBytes(options);
  }

  /**
   * Keys are paths relative to the root with '/' separators; a root that is a single file
   * yields one entry keyed by its file name, whatever its extension.
   */
  async *scan(): AsyncGenerator<SourceEntry> {
    const stats = await statExpecting(this.path, 'file or directory');
    if (stats.isFile()) yield this.entry(this.path, basename(this.path), '', stats);
    else yield* this.walk(this.path, '');
  }

  private async *walk(dir: string, folder: string): AsyncGenerator<SourceEntry> {
    const entries = ((await sortedEntries(dir)) ?? []).filter((entry) => !entry.name.startsWith('.'));
    const files = entries.filter((entry) => !entry.isDirectory() && EML.test(entry.name));
    const listing = new ReadAhead(
      dir,
      files.map((entry) => entry.name),
    );
    let index = 0;
    // Files and subdirectories interleave in name order.
    for (const entry of entries) {
      const relative = folder === '' ? entry.name : `${folder}/${entry.name}`;
      if (entry.isDirectory()) {
        yield* this.walk(join(dir, entry.name), relative);
      } else if (EML.test(entry.name)) {
        const ahead = { listing, index: index++ };
        const stats = statListed(join(dir, entry.name));
        if (stats !== null) yield this.entry(join(dir, entry.name), relative, folder, stats, ahead);
      }
    }
  }

  private entry(
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
}

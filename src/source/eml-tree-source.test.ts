import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EmlTreeSource } from './index.js';
import { collect, FIXTURES, readText } from './test-helpers.js';

const root = join(FIXTURES, 'eml');

describe('EmlTreeSource', () => {
  it('walks .eml files (any case) in sorted order, skipping other files and dot-directories', async () => {
    const entries = await collect(new EmlTreeSource(root));
    expect(entries.map((e) => [e.key, e.folder])).toEqual([
      ['2023/Q4/invoice-2023-Q4-118.eml', '2023/Q4'],
      ['2024/Order Confirmation 77812.EML', '2024'],
      ['warehouse.eml', ''],
    ]);
  });

  it('fingerprints by size and mtime, and reads the bytes on demand', async () => {
    const [first] = await collect(new EmlTreeSource(root));
    const file = join(root, '2023/Q4/invoice-2023-Q4-118.eml');
    const stats = await stat(file);
    expect(first?.fingerprint).toBe(`${stats.size}:${stats.mtimeMs}`);
    expect(first?.fileTime).toEqual(stats.mtime);
    expect(first?.labels).toEqual([]);
    expect(await readText(first as NonNullable<typeof first>)).toContain('Subject: Invoice 2023-Q4-118\n');
  });

  it('reads a single message file as a one-entry source', async () => {
    const entries = await collect(new EmlTreeSource(join(root, 'warehouse.eml')));
    expect(entries.map((e) => [e.key, e.folder])).toEqual([['warehouse.eml', '']]);
  });

  it('rejects a message larger than maxMessageBytes when read', async () => {
    const [first] = await collect(new EmlTreeSource(root, { maxMessageBytes: 100 }));
    await expect(first?.read()).rejects.toMatchObject({ code: 'bad_format' });
  });
});

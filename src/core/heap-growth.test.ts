import { describe, expect, it, vi } from 'vitest';

const flags: string[] = [];
vi.mock('node:v8', () => ({ setFlagsFromString: (flag: string) => flags.push(flag) }));
const { boundHeapGrowth, withBoundedHeapGrowth } = await import('./heap-growth.js');

describe('boundHeapGrowth', () => {
  it('bounds growth while any hold lasts and restores V8’s heuristic after the last', async () => {
    flags.length = 0;
    const reindex = boundHeapGrowth();
    await withBoundedHeapGrowth(async () => {
      expect(flags).toEqual(['--heap-growing-percent=50']);
    });
    // The ingest ended first: the reindex still runs bounded.
    expect(flags).toEqual(['--heap-growing-percent=50']);
    reindex();
    reindex();
    expect(flags).toEqual(['--heap-growing-percent=50', '--heap-growing-percent=0']);
  });

  it('releases when the bounded run fails', async () => {
    flags.length = 0;
    await expect(withBoundedHeapGrowth(() => Promise.reject(new Error('disk full')))).rejects.toThrow(
      'disk full',
    );
    expect(flags).toEqual(['--heap-growing-percent=50', '--heap-growing-percent=0']);
  });
});

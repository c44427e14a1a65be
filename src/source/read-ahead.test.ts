import { describe, expect, it } from 'vitest';
import { ReadAhead } from './read-ahead.js';

const names = Array.from({ length: 1000 }, (_, i) => String(i).padStart(4, '0'));
const files = names.map((name) => `/mail/cur/${name}`);

function recorder(): { ahead: ReadAhead; warmed: string[]; batches: number } {
  const state = { warmed: [] as string[], batches: 0 };
  const ahead = new ReadAhead('/mail/cur', names, (batch) => {
    state.warmed.push(...batch);
    state.batches++;
  });
  return Object.assign(state, { ahead });
}

describe('ReadAhead', () => {
  it('warms further ahead the longer a run of reads goes on, each file once and in order', () => {
    const r = recorder();
    for (let i = 0; i < 600; i++) {
      r.ahead.reading(i);
      // Never behind the reads once they run: the next file is already handed over.
      expect(files.indexOf(r.warmed.at(-1) ?? '')).toBeGreaterThan(i);
    }
    expect(r.warmed).toEqual(files.slice(1, r.warmed.length + 1));
    expect(files.indexOf(r.warmed.at(-1) ?? '')).toBeGreaterThanOrEqual(600 + 200);
    // Handed over in batches, not file by file.
    expect(r.batches).toBeLessThan(60);
  });

  it('warms nothing when nothing is read, and little around isolated reads', () => {
    const idle = recorder();
    expect(idle.warmed).toEqual([]);
    const sparse = recorder();
    for (let i = 0; i < 1000; i += 100) sparse.ahead.reading(i);
    expect(sparse.warmed.length).toBeLessThanOrEqual(10 * 3);
  });

  it('stops at the end of the listing', () => {
    const r = recorder();
    for (let i = 0; i < files.length; i++) r.ahead.reading(i);
    expect(r.warmed).toEqual(files.slice(1));
  });
});

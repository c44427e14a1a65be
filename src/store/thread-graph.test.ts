import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openArchive } from './archive.js';
import { MERGE_REWRITES } from './thread-graph.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('a thread merge', () => {
  it("finds each absorbed thread's rows through an index on the thread, never by reading the inbox", () => {
    const dir = mkdtempSync(join(tmpdir(), 'mailsift-merge-'));
    dirs.push(dir);
    const archive = openArchive(join(dir, 'archive.db'));
    try {
      for (const statement of MERGE_REWRITES) {
        const plan = archive.db
          .prepare(`EXPLAIN QUERY PLAN ${statement}`)
          .all('t-survivor', 1, 't-absorbed') as Array<{ detail: string }>;
        expect(plan.map((step) => step.detail)).toEqual([
          expect.stringMatching(
            /^SEARCH \w+ USING (COVERING )?INDEX \w+ \(inbox_id=\? AND (thread_id|new_id)=\?\)$/,
          ),
        ]);
      }
    } finally {
      archive.close();
    }
  });
});

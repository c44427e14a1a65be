// Scratch directories for tests, removed when the test file ends, so runs of the suite
// leave nothing behind in the system temp directory.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const made: string[] = [];

// Registered on import, while vitest collects the importing test file: a hook added later
// (from beforeAll or a test) would not run, and each test file imports this module afresh.
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh directory under the system temp directory, named `<prefix>XXXXXX`. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

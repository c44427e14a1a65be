// Every cleaning fixture: the authored text must match its .expected.txt exactly.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCleanFixtures, normalizeAuthored } from './fixtures.js';
import { cleanMessage } from './index.js';

const root = fileURLToPath(new URL('../../test/fixtures/clean', import.meta.url));
const fixtures = await loadCleanFixtures(root);

describe('clean fixtures', () => {
  it('has a fixture set', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(60);
  });

  it.each(fixtures.map((f) => [f.name, f] as const))('%s', (_name, fixture) => {
    const cleaned = cleanMessage({ text: fixture.text, html: fixture.html });
    expect(normalizeAuthored(cleaned.authored)).toBe(fixture.expected);
  });
});

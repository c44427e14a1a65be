import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // The JSON report lets .ci/run print a one-line "N passed, N failed" summary.
    reporters: ['default', ['json', { outputFile: '.cache/vitest-report.json' }]],
  },
});

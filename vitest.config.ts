import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/temp-root.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration suites start real hub processes and real engines; two cores cannot run many.
    maxWorkers: 2,
    // The JSON report lets .ci/run print a plain "N passed, N failed" line.
    reporters: ['default', ['json', { outputFile: 'test/artifacts/vitest-report.json' }]],
  },
});

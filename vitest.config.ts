import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The app SDK and the setting rules it shares with the hub are CommonJS TypeScript (.cts);
  // Vite strips types from .ts/.mts/.tsx only unless told, and would parse them as JavaScript.
  oxc: { include: /\.([cm]?ts|[jt]sx)$/ },
  test: {
    include: ['test/**/*.test.ts'],
    // Built first when stale, so a test after an edit of src/ tests the new code (not dist/'s).
    globalSetup: ['test/setup/build-if-stale.ts', 'test/setup/temp-root.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration suites start real hub processes and real engines; two cores cannot run many.
    maxWorkers: 2,
    // The JSON report lets .ci/run print a plain "N passed, N failed" line.
    reporters: ['default', ['json', { outputFile: 'test/artifacts/vitest-report.json' }]],
  },
});

import { defineConfig } from 'vitest/config';

/**
 * The tests that start no process (no hub, app, engine, browser or system): `npx vitest --project
 * unit` runs them in seconds while editing. A test that starts one belongs to `hub`, `browser`
 * (test/web) or `install` (test/install, which boots Debian systems).
 */
const UNIT = [
  'test/apps/frames.test.ts',
  'test/apps/manager.test.ts',
  'test/apps/manifest.test.ts',
  'test/apps/protocol.test.ts',
  'test/apps/ring.test.ts',
  'test/apps/wire-checks.test.ts',
  'test/backup/archive.test.ts',
  'test/backup/compose-store.test.ts',
  'test/backup/offline.test.ts',
  'test/backup/pre-restore.test.ts',
  'test/core/cron.test.ts',
  'test/core/json-error.test.ts',
  'test/core/json-pieces.test.ts',
  'test/core/schema-shortcut.test.ts',
  'test/core/kept.test.ts',
  'test/core/lan-address.test.ts',
  'test/core/lazy-schemas.test.ts',
  'test/core/loop-lag.test.ts',
  'test/core/native-module.test.ts',
  'test/core/null-prototype.test.ts',
  'test/core/option-listeners.test.ts',
  'test/core/store-journal.test.ts',
  'test/core/store-short-write.test.ts',
  'test/core/store.test.ts',
  'test/core/typed-bus.test.ts',
  'test/homey/flow-filter.test.ts',
  'test/homey/sdk-surface.test.ts',
  'test/house/arrows.test.ts',
  'test/house/house.test.ts',
  'test/house/no-bare-sleeps.test.ts',
  'test/house/no-recursive-mkdir.test.ts',
  'test/house/web-imports.test.ts',
  'test/house/web-paths.test.ts',
  'test/http/realtime-order.test.ts',
  'test/hub/config.test.ts',
  'test/hub/daemon-flags.test.ts',
  'test/hub/prerequisites.test.ts',
  'test/managers/dashboards/columns.test.ts',
  'test/managers/devices/fractions.test.ts',
  'test/managers/energy/reports.test.ts',
  'test/managers/flow/app-filter.test.ts',
  'test/managers/flow/card-registry.test.ts',
  'test/managers/flow/time.test.ts',
  'test/managers/flow/title.test.ts',
  'test/managers/flow/trigger-flows.test.ts',
  'test/managers/flow/trigger-index.test.ts',
  'test/managers/insights/checkpointer.test.ts',
  'test/managers/insights/query.test.ts',
  'test/managers/insights/resolutions.test.ts',
  'test/managers/insights/service.test.ts',
  'test/managers/insights/storage.test.ts',
  'test/managers/insights/writer.test.ts',
  'test/managers/insights/zone.test.ts',
  'test/managers/speech-output/cache.test.ts',
  'test/web/device-look.test.ts',
  'test/web/flow-sentence.test.ts',
  'test/web/night.test.ts',
  'test/web/qr.test.ts',
  'test/web/readout.test.ts',
];

/**
 * The web app in Chromium: every browser test, or with HEARTH_BROWSER_TESTS=e2e the end-to-end
 * test alone (CI's second run, on Node 22: the others drive hub paths the hub's own tests take
 * there too, and the run must fit CI's time).
 */
const BROWSER = process.env.HEARTH_BROWSER_TESTS === 'e2e' ? ['test/web/e2e.test.ts'] : ['test/web/**/*.test.ts'];

/** What every project shares. */
const times = { testTimeout: 30_000, hookTimeout: 60_000 };

export default defineConfig({
  // The app SDK and the setting rules it shares with the hub are CommonJS TypeScript (.cts);
  // Vite strips types from .ts/.mts/.tsx only unless told, and would parse them as JavaScript.
  oxc: { include: /\.([cm]?ts|[jt]sx)$/ },
  test: {
    // Built first when stale, so a test after an edit of src/ tests the new code (not dist/'s).
    // Once for the whole run, whatever projects it runs.
    globalSetup: ['test/setup/build-if-stale.ts', 'test/setup/temp-root.ts'],
    // Integration suites start real hub processes and real engines; two cores cannot run many.
    maxWorkers: 2,
    // The JSON report lets .ci/run print a plain "N passed, N failed" line.
    // HEARTH_VITEST_REPORT names another file, for runs side by side (.ci/run).
    reporters: ['default', ['json', { outputFile: process.env.HEARTH_VITEST_REPORT ?? 'test/artifacts/vitest-report.json' }]],
    projects: [
      { extends: true, test: { name: 'unit', include: UNIT, ...times } },
      { extends: true, test: { name: 'browser', include: BROWSER, exclude: UNIT, ...times } },
      { extends: true, test: { name: 'install', include: ['test/install/**/*.test.ts'], ...times } },
      { extends: true, test: { name: 'hub', include: ['test/**/*.test.ts'], exclude: [...UNIT, 'test/web/**', 'test/install/**'], ...times } },
    ],
  },
});

import { defineConfig } from 'vitest/config';

/**
 * The tests that start no process (no hub, app, engine, browser or system): `npx vitest --project
 * unit` runs them in seconds while editing. A test that starts one belongs to `hub`, `browser`
 * (test/web) or `install` (test/device, which boots Debian systems).
 */
const UNIT = [
  'test/apps/frames.test.ts',
  'test/apps/manager.test.ts',
  'test/apps/manifest.test.ts',
  'test/apps/protocol.test.ts',
  'test/apps/ring.test.ts',
  'test/backup/archive.test.ts',
  'test/backup/offline.test.ts',
  'test/backup/pre-restore.test.ts',
  'test/dashboards/appwidgets.test.ts',
  'test/dashboards/autocomplete.test.ts',
  'test/dashboards/columns.test.ts',
  'test/dashboards/widgetstore.test.ts',
  'test/devices/fractions.test.ts',
  'test/flows/time.test.ts',
  'test/foundation/arrows.test.ts',
  'test/foundation/config.test.ts',
  'test/foundation/cron.test.ts',
  'test/foundation/daemon-flags.test.ts',
  'test/foundation/house.test.ts',
  'test/foundation/json-error.test.ts',
  'test/foundation/lan-address.test.ts',
  'test/foundation/lazy-schemas.test.ts',
  'test/foundation/loop-lag.test.ts',
  'test/foundation/native-module.test.ts',
  'test/foundation/no-bare-sleeps.test.ts',
  'test/foundation/option-listeners.test.ts',
  'test/foundation/prerequisites.test.ts',
  'test/foundation/readonly-writes.test.ts',
  'test/foundation/typed-bus.test.ts',
  'test/foundation/realtime-fuzz.test.ts',
  'test/foundation/store-journal.test.ts',
  'test/foundation/store.test.ts',
  'test/foundation/web-paths.test.ts',
  'test/homey/sdk-surface.test.ts',
  'test/insights/query.test.ts',
  'test/insights/resolutions.test.ts',
  'test/insights/service.test.ts',
  'test/insights/storage.test.ts',
  'test/insights/writer.test.ts',
  'test/insights/zone.test.ts',
  'test/speech/cache.test.ts',
  'test/web/qr.test.ts',
  'test/web/readout.test.ts',
];

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
    reporters: ['default', ['json', { outputFile: 'test/artifacts/vitest-report.json' }]],
    projects: [
      { extends: true, test: { name: 'unit', include: UNIT, ...times } },
      { extends: true, test: { name: 'browser', include: ['test/web/**/*.test.ts'], exclude: UNIT, ...times } },
      { extends: true, test: { name: 'install', include: ['test/device/**/*.test.ts'], ...times } },
      { extends: true, test: { name: 'hub', include: ['test/**/*.test.ts'], exclude: [...UNIT, 'test/web/**', 'test/device/**'], ...times } },
    ],
  },
});

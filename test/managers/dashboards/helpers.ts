/**
 * Helpers for the dashboards tests: copy the fixture app (test/managers/dashboards/fixtures/) into a
 * temp apps folder, optionally under another id or version, start a real hub on it, and wait
 * for things that happen in the app's child process.
 */
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { OWNER, type RunningHub, startHub, tempDir } from '../../helpers/hub.js';
import { poll } from '../../helpers/poll.js';

export { poll } from '../../helpers/poll.js';

export { OWNER };
export const FIXTURE = join(import.meta.dirname, 'fixtures/com.test.widgets');
export const APP = 'com.test.widgets';
export const CLOCK = `${APP}:clock`;
export const NOTE = `${APP}:note`;
export const BASE = '/api/manager/dashboards';

export interface WidgetView {
  id: string;
  appWidgetId: string;
  settings?: Record<string, unknown>;
  height?: number | string;
  missing?: true;
}
export interface DashboardView {
  id: string;
  name: string;
  columns: Array<{ id: string; widgets: WidgetView[] }>;
}
export interface ErrorBody {
  error: string;
  error_description: string;
  statusCode: number;
}

/**
 * Copies the fixture app into `<appsDir>/<id>`, rewriting its manifest with `patch` (id,
 * version, widgets, ...). Returns the folder.
 */
export async function copyFixture(appsDir: string, id = APP, patch: Record<string, unknown> = {}): Promise<string> {
  const dir = join(appsDir, id);
  await cp(FIXTURE, dir, { recursive: true });
  const manifest = JSON.parse(await readFile(join(dir, 'app.json'), 'utf8')) as Record<string, unknown>;
  await writeFile(join(dir, 'app.json'), JSON.stringify({ ...manifest, id, ...patch }, null, 2));
  return dir;
}

export interface TestHub {
  hub: RunningHub;
  appsDir: string;
  close(): Promise<void>;
}

/** A hub whose apps folder holds the fixture app (and `extra` copies under other ids). */
export async function startWithApp(extra: string[] = []): Promise<TestHub> {
  const appsDir = await tempDir('hearth-dash-apps-');
  await copyFixture(appsDir);
  for (const id of extra) await copyFixture(appsDir, id);
  const hub = await startHub({ appsDir });
  await waitAppRunning(hub, APP);
  for (const id of extra) await waitAppRunning(hub, id);
  return {
    hub,
    appsDir,
    async close() {
      await hub.cleanup();
      await rm(appsDir, { recursive: true, force: true });
    },
  };
}

export function waitAppRunning(hub: RunningHub, id: string): Promise<unknown> {
  return poll(
    () => hub.call<{ state: string; ready: boolean }>('GET', `/api/manager/apps/app/${id}`),
    (r) => r.status === 200 && r.body.state === 'running' && r.body.ready,
    `${id} running`,
  );
}

/** A dashboard body with one column per entry, each a list of app widget ids. */
export function body(name: string, ...columns: string[][]): { name: string; columns: Array<{ widgets: Array<{ appWidgetId: string }> }> } {
  return { name, columns: columns.map((ws) => ({ widgets: ws.map((appWidgetId) => ({ appWidgetId })) })) };
}

export const widgetIds = (d: DashboardView): string[] => d.columns.flatMap((c) => c.widgets.map((w) => w.id));

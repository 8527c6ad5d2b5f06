/**
 * Dashboards: list, create, rename, delete; a dashboard's columns of widgets, each rendered as
 * its app widget's page (widget-host.tsx). "Arrange" (arrange.tsx) edits a draft of the columns
 * (add/remove columns and widgets, drag and drop or keyboard moves, widget settings) that one PUT
 * saves. Live over the dashboards namespace: another client's change shows up here.
 */
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { seg } from '../api.js';
import { call } from '../client.js';
import { DEVICE_TILE_WIDGET } from '../device-widget.js';
import { type DeviceView, useLiveDevices } from '../live-devices.js';
import type { Dashboard } from '../types.js';
import { ActionButton, Card, Err, useAction, useLiveCollection, useLoad } from '../ui.js';
import { type AppWidget, WidgetFrame } from '../widget-host.js';
import { Arrange } from './arrange.js';

type Dict<T> = Record<string, T>;

function useLive(): {
  dashboards: Dict<Dashboard> | undefined;
  widgets: Dict<AppWidget> | undefined;
  devices: Dict<DeviceView>;
  error: string | null;
} {
  const d = useLoad(() => call('dashboards', 'getDashboards'));
  const w = useLoad(() => call('dashboards', 'getAppWidgets'));
  // For the device tiles and the widgets' device pickers; a sign-in that cannot read devices sees none.
  const devices = useLiveDevices(true);
  useLiveCollection('dashboards', 'dashboard', d);
  useLiveCollection('dashboards', 'appwidget', w);
  // The hub's own device tile is offered first, beside the apps' widgets.
  const widgets = w.data ? { [DEVICE_TILE_WIDGET.id]: DEVICE_TILE_WIDGET, ...w.data } : undefined;
  return { dashboards: d.data, widgets, devices: devices.data ?? {}, error: d.error ?? w.error };
}

function selectedId(dashboards: Dict<Dashboard>): string | undefined {
  const want = location.hash.split('/')[2];
  if (want && dashboards[decodeURIComponent(want)]) return decodeURIComponent(want);
  return Object.keys(dashboards)[0];
}

/**
 * "New dashboard", folded until asked for: on a phone the dashboard, not a form, is what the page
 * opens with.
 */
function CreateForm(): JSX.Element {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const a = useAction();
  if (!open) {
    return (
      <button type="button" data-testid="new-dashboard" onClick={() => setOpen(true)}>
        New dashboard
      </button>
    );
  }
  return (
    <form
      class="inline"
      onSubmit={a.submit(async () => {
        const created = await call('dashboards', 'createDashboard', { body: { name, columns: [{ widgets: [] }, { widgets: [] }] } });
        setName('');
        location.hash = `#/dashboards/${seg(created.id)}`;
      })}
    >
      <input placeholder="New dashboard name" value={name} data-testid="new-dashboard-name" onInput={(e) => setName((e.target as HTMLInputElement).value)} />
      <button type="submit" class="primary" disabled={a.busy}>
        {a.busy ? 'Creating…' : 'Create'}
      </button>
      <Err msg={a.error} />
    </form>
  );
}

export function DashboardsPage(): JSX.Element {
  const { dashboards, widgets, devices, error } = useLive();
  const [, rerender] = useState(0);
  const [arranging, setArranging] = useState(false);
  useEffect(() => {
    const f = (): void => {
      rerender((n) => n + 1);
      setArranging(false);
    };
    window.addEventListener('hashchange', f);
    return () => window.removeEventListener('hashchange', f);
  }, []);
  const shown = dashboards !== undefined && widgets !== undefined;
  useEffect(() => {
    // When the page first shows its dashboards, for the speed bench (scripts/bench/web.bench.mjs),
    // its test and anyone profiling: the time since navigation start is this mark's startTime.
    if (shown && performance.getEntriesByName('hearth:dashboards-rendered').length === 0) performance.mark('hearth:dashboards-rendered');
  }, [shown]);
  if (!dashboards || !widgets) return <Card title="Dashboards">{error ? <Err msg={error} /> : <p class="muted">Loading…</p>}</Card>;
  const id = selectedId(dashboards);
  const current = id ? dashboards[id] : undefined;
  return (
    <>
      <Card title="Dashboards" actions={<CreateForm />}>
        <div class="tabs">
          {Object.values(dashboards).map((d) => (
            <a key={d.id} href={`#/dashboards/${seg(d.id)}`} class={d.id === id ? 'active' : ''}>
              {d.name}
            </a>
          ))}
          {Object.keys(dashboards).length === 0 ? <span class="muted">No dashboards yet: create one.</span> : null}
        </div>
      </Card>
      {current ? (
        <section class="dashboard" data-testid="dashboard">
          <header class="toolbar">
            <h2>{current.name}</h2>
            {arranging ? null : (
              <>
                <button type="button" data-testid="arrange" onClick={() => setArranging(true)}>
                  Arrange
                </button>
                {/* Deleting is rare and cannot be undone: folded away, not a red button above the home. */}
                <details class="more" data-testid="dashboard-more">
                  <summary>More</summary>
                  <ActionButton
                    label="Delete this dashboard"
                    kind="danger"
                    confirm={`Delete the dashboard '${current.name}'?`}
                    onRun={() => call('dashboards', 'deleteDashboard', { params: { id: current.id } })}
                  />
                </details>
              </>
            )}
          </header>
          {arranging ? (
            <Arrange key={current.id} dashboard={current} widgets={widgets} devices={devices} onDone={() => setArranging(false)} />
          ) : (
            <div class="columns">
              {current.columns.length === 0 ? <p class="muted empty">No columns yet: use Arrange to add columns and widgets.</p> : null}
              {current.columns.map((col, ci) => (
                <div class="column" key={col.id ?? ci}>
                  {col.widgets.map((w) => (
                    <WidgetFrame key={w.id} widget={w} appWidget={widgets[w.appWidgetId]} devices={devices} />
                  ))}
                  {col.widgets.length === 0 ? <p class="muted empty">Empty column: use Arrange to add widgets.</p> : null}
                </div>
              ))}
            </div>
          )}
        </section>
      ) : null}
    </>
  );
}

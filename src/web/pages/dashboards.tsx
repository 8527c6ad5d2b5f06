/**
 * Dashboards: list, create, rename, delete; a dashboard's columns of widgets, each rendered as
 * its app widget's page (widget-host.tsx). "Arrange" edits a draft of the columns (add/remove
 * columns and widgets, move widgets, widget settings) that one PUT saves. Live over the
 * dashboards namespace: another client's change shows up here.
 */
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, seg } from '../api.js';
import { ActionButton, Card, Err, useAction, useLiveCollection, useLoad } from '../ui.js';
import type { Dashboard } from '../types.js';
import { WidgetFrame, type AppWidget, type PlacedWidget } from '../widget-host.js';
import { settingsProblems, WidgetSettings } from './widget-settings.js';

/** A column as the arranger edits it (what one PUT sends back): a new column has no id yet. */
interface Column {
  id?: string;
  widgets: PlacedWidget[];
}
type Dict<T> = Record<string, T>;

const BASE = '/api/manager/dashboards';

function useLive(): { dashboards: Dict<Dashboard> | undefined; widgets: Dict<AppWidget> | undefined; error: string | null } {
  const d = useLoad(() => api<Dict<Dashboard>>('GET', `${BASE}/dashboard`));
  const w = useLoad(() => api<Dict<AppWidget>>('GET', `${BASE}/appwidget`));
  useLiveCollection('dashboards', 'dashboard', d);
  useLiveCollection('dashboards', 'appwidget', w);
  return { dashboards: d.data, widgets: w.data, error: d.error ?? w.error };
}

function selectedId(dashboards: Dict<Dashboard>): string | undefined {
  const want = location.hash.split('/')[2];
  if (want && dashboards[decodeURIComponent(want)]) return decodeURIComponent(want);
  return Object.keys(dashboards)[0];
}

function CreateForm(): JSX.Element {
  const [name, setName] = useState('');
  const a = useAction();
  return (
    <form
      class="inline"
      onSubmit={a.submit(async () => {
        const created = await api<Dashboard>('POST', `${BASE}/dashboard`, { name, columns: [{ widgets: [] }, { widgets: [] }] });
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

/** The draft editor for a dashboard's columns. */
function Arrange({ dashboard, widgets, onDone }: { dashboard: Dashboard; widgets: Dict<AppWidget>; onDone: () => void }): JSX.Element {
  const [name, setName] = useState(dashboard.name);
  const [columns, setColumns] = useState<Column[]>(() => structuredClone(dashboard.columns));
  // The app widget chosen in each column's "Add widget" list.
  const [adding, setAdding] = useState<Record<number, string>>({});
  const first = Object.keys(widgets)[0] ?? '';
  const save = useAction();
  // Settings the browser can tell are wrong (a number out of range, a text off its pattern).
  const problems = columns.flatMap((c) => c.widgets.flatMap((w) => (widgets[w.appWidgetId] ? settingsProblems(widgets[w.appWidgetId]!, w.settings ?? {}) : [])));
  const update = (f: (c: Column[]) => void): void =>
    setColumns((prev) => {
      const next = structuredClone(prev);
      f(next);
      return next;
    });
  const move = (ci: number, wi: number, dc: number, dw: number): void =>
    update((c) => {
      const [w] = c[ci]!.widgets.splice(wi, 1);
      const target = c[ci + dc];
      if (!w || !target) return;
      target.widgets.splice(dc === 0 ? Math.max(0, wi + dw) : target.widgets.length, 0, w);
    });
  return (
    <div class="arrange">
      <div class="toolbar">
        <label class="inline">
          Name <input value={name} data-testid="dashboard-name" onInput={(e) => setName((e.target as HTMLInputElement).value)} />
        </label>
        <button type="button" onClick={() => update((c) => void c.push({ widgets: [] }))} disabled={columns.length >= 20}>
          Add column
        </button>
        <button
          type="button"
          class="primary"
          data-testid="save-dashboard"
          disabled={save.busy || problems.length > 0}
          onClick={() => void save.run(() => api('PUT', `${BASE}/dashboard/${seg(dashboard.id)}`, { name, columns }).then(onDone))}
        >
          {save.busy ? 'Saving…' : 'Save'}
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
        <Err msg={save.error ?? problems[0]} />
      </div>
      <div class="columns">
        {columns.map((col, ci) => (
          <div class="column editing" key={col.id ?? `new-${ci}`}>
            <div class="toolbar">
              <select value={adding[ci] ?? first} onChange={(e) => setAdding({ ...adding, [ci]: (e.target as HTMLSelectElement).value })} data-testid={`add-widget-select-${ci}`}>
                {Object.values(widgets).map((w) => (
                  <option key={w.id} value={w.id}>
                    {w.ownerName}: {w.name}
                  </option>
                ))}
              </select>
              <button type="button" data-testid={`add-widget-${ci}`} disabled={!(adding[ci] ?? first)} onClick={() => update((c) => void c[ci]!.widgets.push({ id: crypto.randomUUID(), appWidgetId: adding[ci] ?? first, settings: {} }))}>
                Add widget
              </button>
              <button type="button" class="danger" onClick={() => update((c) => void c.splice(ci, 1))}>
                Remove column
              </button>
            </div>
            {col.widgets.map((w, wi) => {
              const aw = widgets[w.appWidgetId];
              return (
                <div class="placed" key={w.id}>
                  <div class="toolbar">
                    <b>{aw ? `${aw.ownerName}: ${aw.name}` : `${w.appWidgetId} (not installed)`}</b>
                    <span class="moves">
                      <button type="button" title="up" onClick={() => move(ci, wi, 0, -1)} disabled={wi === 0}>↑</button>
                      <button type="button" title="down" onClick={() => move(ci, wi, 0, 1)} disabled={wi === col.widgets.length - 1}>↓</button>
                      <button type="button" title="to the left column" onClick={() => move(ci, wi, -1, 0)} disabled={ci === 0}>←</button>
                      <button type="button" title="to the right column" onClick={() => move(ci, wi, 1, 0)} disabled={ci === columns.length - 1}>→</button>
                      <button type="button" class="danger" title="remove" onClick={() => update((c) => void c[ci]!.widgets.splice(wi, 1))}>✕</button>
                    </span>
                  </div>
                  <label class="inline small">
                    Height
                    <input
                      size={6}
                      placeholder={aw?.height !== null && aw?.height !== undefined ? String(aw.height) : '150'}
                      value={w.height === null || w.height === undefined ? '' : String(w.height)}
                      title="pixels, or a percentage of the width such as 75%; empty: the app's height"
                      onChange={(e) => {
                        const v = (e.target as HTMLInputElement).value.trim();
                        // The hub validates it; a bad value comes back as the sentence beside Save.
                        update((c) => void (c[ci]!.widgets[wi]!.height = v === '' ? null : /^\d+$/.test(v) ? Number(v) : v));
                      }}
                    />
                  </label>
                  {aw ? <WidgetSettings appWidget={aw} value={w.settings ?? {}} onChange={(s) => update((c) => void (c[ci]!.widgets[wi]!.settings = s))} /> : null}
                </div>
              );
            })}
          </div>
        ))}
      </div>
    </div>
  );
}

export function DashboardsPage(): JSX.Element {
  const { dashboards, widgets, error } = useLive();
  const [, rerender] = useState(0);
  const [arranging, setArranging] = useState(false);
  useEffect(() => {
    const f = (): void => (rerender((n) => n + 1), setArranging(false));
    window.addEventListener('hashchange', f);
    return () => window.removeEventListener('hashchange', f);
  }, []);
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
                <ActionButton label="Delete" kind="danger" confirm={`Delete the dashboard '${current.name}'?`} onRun={() => api('DELETE', `${BASE}/dashboard/${seg(current.id)}`)} />
              </>
            )}
          </header>
          {arranging ? (
            <Arrange key={current.id} dashboard={current} widgets={widgets} onDone={() => setArranging(false)} />
          ) : (
            <div class="columns">
              {current.columns.length === 0 ? <p class="muted empty">No columns yet: use Arrange to add columns and widgets.</p> : null}
              {current.columns.map((col, ci) => (
                <div class="column" key={col.id ?? ci}>
                  {col.widgets.map((w) => (
                    <WidgetFrame key={w.id} widget={w} appWidget={widgets[w.appWidgetId]} />
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

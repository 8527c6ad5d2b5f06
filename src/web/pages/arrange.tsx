/**
 * Arrange: the draft editor of a dashboard's columns that one PUT saves. Widgets move by drag and
 * drop (grab one by its handle, drop it on another widget to go before it, or on a column's free
 * space to go last), and by keyboard with the same handle: Space or Enter picks it up, the arrow
 * keys move it (up/down within a column, left/right between columns), Space or Enter puts it
 * down, Escape puts it back where it was. A live region says where it is after each move.
 */
import type { JSX } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { DEVICE_TILE } from '../../home/device-choice.js';
import { call } from '../client.js';
import { Icon } from '../icons.js';
import type { DeviceView } from '../live-devices.js';
import type { Dashboard } from '../types.js';
import { Err, useAction } from '../ui.js';
import type { AppWidget, PlacedWidget } from '../widget-host.js';
import { DevicePicker } from './device-picker.js';
import { settingsProblems, WidgetSettings } from './widget-settings.js';

/** A column as the arranger edits it (what one PUT sends back): a new column has no id yet. */
interface Column {
  id?: string;
  widgets: PlacedWidget[];
}
type Dict<T> = Record<string, T>;
interface Place {
  col: number;
  index: number;
}

const DRAG_TYPE = 'application/x-hearth-widget';

/** Where widget `id` is in `columns`, or null. */
function find(columns: readonly Column[], id: string): Place | null {
  for (const [col, c] of columns.entries()) {
    const index = c.widgets.findIndex((w) => w.id === id);
    if (index >= 0) return { col, index };
  }
  return null;
}

/**
 * `columns` with widget `id` moved to `to`: an index in the target column as it is without the
 * widget, or (`before`) just before another widget, wherever that one is once `id` is out.
 */
export function moved(columns: readonly Column[], id: string, to: Place, before?: string): Column[] {
  const next = structuredClone(columns) as Column[];
  const from = find(next, id);
  const target = next[to.col];
  if (!from || !target || id === before) return next;
  const [w] = next[from.col]!.widgets.splice(from.index, 1);
  const index = before !== undefined ? target.widgets.findIndex((x) => x.id === before) : to.index;
  target.widgets.splice(index < 0 ? target.widgets.length : Math.min(index, target.widgets.length), 0, w!);
  return next;
}

export function Arrange({
  dashboard,
  widgets,
  devices,
  onDone,
}: {
  dashboard: Dashboard;
  widgets: Dict<AppWidget>;
  devices: Dict<DeviceView>;
  onDone: () => void;
}): JSX.Element {
  const [name, setName] = useState(dashboard.name);
  const [columns, setColumns] = useState<Column[]>(() => structuredClone(dashboard.columns));
  // The app widget chosen in each column's "Add widget" list.
  const [adding, setAdding] = useState<Record<number, string>>({});
  // Keyboard: the widget picked up, and where it was (Escape puts it back).
  const [lifted, setLifted] = useState<{ id: string; from: Place } | null>(null);
  // Mouse: the widget whose handle is held (only then is it draggable, so its inputs stay usable).
  const [grabbed, setGrabbed] = useState<string | null>(null);
  const [dragOver, setDragOver] = useState<string | null>(null);
  const [said, setSaid] = useState('');
  // A widget moved to another column is a new element: its handle gets the focus back at once.
  const refocus = useRef<string | null>(null);
  useLayoutEffect(() => {
    if (refocus.current === null) return;
    document.querySelector<HTMLElement>(`[data-handle="${CSS.escape(refocus.current)}"]`)?.focus();
    refocus.current = null;
  }, [columns]);
  const first = Object.keys(widgets)[0] ?? '';
  const save = useAction();
  // Settings the browser can tell are wrong (a number out of range, a text off its pattern).
  const problems = columns.flatMap((c) =>
    c.widgets.flatMap((w) => (widgets[w.appWidgetId] ? settingsProblems(widgets[w.appWidgetId]!, w.settings ?? {}) : [])),
  );
  const update = (f: (c: Column[]) => void): void =>
    setColumns((prev) => {
      const next = structuredClone(prev);
      f(next);
      return next;
    });
  const nameOf = (w: PlacedWidget): string => {
    const aw = widgets[w.appWidgetId];
    return aw ? `${aw.ownerName}: ${aw.name}` : `${w.appWidgetId} (not installed)`;
  };
  const announce = (cols: Column[], id: string): void => {
    const at = find(cols, id);
    if (at) setSaid(`column ${at.col + 1} of ${cols.length}, position ${at.index + 1} of ${cols[at.col]!.widgets.length}`);
  };
  const moveTo = (id: string, to: Place, before?: string): void => {
    const next = moved(columns, id, to, before);
    setColumns(next);
    announce(next, id);
  };

  const onHandleKey = (e: KeyboardEvent, w: PlacedWidget): void => {
    const at = find(columns, w.id);
    if (!at) return;
    if (e.key === ' ' || e.key === 'Enter') {
      e.preventDefault();
      if (lifted?.id === w.id) {
        setLifted(null);
        setSaid(`${nameOf(w)} put down`);
      } else {
        setLifted({ id: w.id, from: at });
        setSaid(`${nameOf(w)} picked up; arrow keys move it, Space puts it down, Escape cancels`);
      }
      return;
    }
    if (lifted?.id !== w.id) return;
    const to: Place | null =
      e.key === 'ArrowUp'
        ? { col: at.col, index: at.index - 1 }
        : e.key === 'ArrowDown'
          ? { col: at.col, index: at.index + 1 }
          : e.key === 'ArrowLeft'
            ? { col: at.col - 1, index: at.index }
            : e.key === 'ArrowRight'
              ? { col: at.col + 1, index: at.index }
              : null;
    if (e.key === 'Escape') {
      e.preventDefault();
      refocus.current = w.id;
      moveTo(w.id, lifted.from);
      setLifted(null);
      setSaid(`${nameOf(w)} put back`);
      return;
    }
    if (!to) return;
    e.preventDefault();
    if (to.col < 0 || to.col >= columns.length || to.index < 0) return;
    refocus.current = w.id;
    moveTo(w.id, to);
  };

  const dropOn = (e: DragEvent, to: Place, before?: string): void => {
    const id = e.dataTransfer?.getData(DRAG_TYPE);
    if (!id) return;
    e.preventDefault();
    e.stopPropagation();
    setDragOver(null);
    moveTo(id, to, before);
  };
  const allowDrop = (e: DragEvent, key: string): void => {
    if (!e.dataTransfer?.types.includes(DRAG_TYPE)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'move';
    if (dragOver !== key) setDragOver(key);
  };

  return (
    <div class="arrange">
      <div class="toolbar">
        <label class="inline">
          Name <input value={name} data-testid="dashboard-name" onInput={(e) => setName((e.target as HTMLInputElement).value)} />
        </label>
        <button type="button" onClick={() => update((c) => void c.push({ widgets: [] }))} disabled={columns.length >= 20}>
          <Icon name="plus" /> Add column
        </button>
        <button
          type="button"
          class="primary"
          data-testid="save-dashboard"
          disabled={save.busy || problems.length > 0}
          onClick={() => void save.run(() => call('dashboards', 'updateDashboard', { params: { id: dashboard.id }, body: { name, columns } }).then(onDone))}
        >
          {save.busy ? 'Saving…' : 'Save'}
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
        <Err msg={save.error ?? problems[0]} />
      </div>
      <p class="muted small">Drag a widget by its handle, or focus the handle and press Space, then the arrow keys.</p>
      <p class="visually-hidden" role="status" aria-live="assertive" data-testid="arrange-status">
        {said}
      </p>
      <div class="columns">
        {columns.map((col, ci) => (
          // biome-ignore lint/a11y/noStaticElementInteractions: a drop target for the mouse; the keyboard moves widgets with the handle (Space, arrows)
          <div
            class={`column editing${dragOver === `col-${ci}` ? ' drop' : ''}`}
            key={col.id ?? `new-${ci}`}
            data-column={ci}
            onDragOver={(e) => allowDrop(e, `col-${ci}`)}
            onDragLeave={() => setDragOver(null)}
            onDrop={(e) => dropOn(e, { col: ci, index: col.widgets.length })}
          >
            <div class="toolbar">
              <select
                value={adding[ci] ?? first}
                aria-label={`Widget to add to column ${ci + 1}`}
                onChange={(e) => setAdding({ ...adding, [ci]: (e.target as HTMLSelectElement).value })}
                data-testid={`add-widget-select-${ci}`}
              >
                {Object.values(widgets).map((w) => (
                  <option key={w.id} value={w.id}>
                    {w.ownerName}: {w.name}
                  </option>
                ))}
              </select>
              <WidgetPreview widget={widgets[adding[ci] ?? first]} />
              <button
                type="button"
                data-testid={`add-widget-${ci}`}
                disabled={!(adding[ci] ?? first)}
                onClick={() => update((c) => void c[ci]!.widgets.push({ id: crypto.randomUUID(), appWidgetId: adding[ci] ?? first, settings: {} }))}
              >
                <Icon name="plus" /> Add widget
              </button>
              <button type="button" class="danger" onClick={() => update((c) => void c.splice(ci, 1))}>
                <Icon name="trash" /> Remove column
              </button>
            </div>
            {col.widgets.map((w, wi) => {
              const aw = widgets[w.appWidgetId];
              return (
                // biome-ignore lint/a11y/noStaticElementInteractions: dragged and dropped on by the mouse; the keyboard moves it with the handle
                <div
                  class={`placed${lifted?.id === w.id ? ' lifted' : ''}${dragOver === w.id ? ' drop' : ''}`}
                  key={w.id}
                  data-placed={w.id}
                  draggable={grabbed === w.id}
                  onDragStart={(e) => {
                    e.dataTransfer?.setData(DRAG_TYPE, w.id);
                    if (e.dataTransfer) e.dataTransfer.effectAllowed = 'move';
                  }}
                  onDragEnd={() => {
                    setGrabbed(null);
                    setDragOver(null);
                  }}
                  onDragOver={(e) => allowDrop(e, w.id)}
                  onDrop={(e) => dropOn(e, { col: ci, index: wi }, w.id)}
                >
                  <div class="toolbar">
                    <button
                      type="button"
                      class="handle"
                      data-handle={w.id}
                      aria-label={`Move ${nameOf(w)}`}
                      aria-pressed={lifted?.id === w.id}
                      aria-describedby="arrange-help"
                      onMouseDown={() => setGrabbed(w.id)}
                      onMouseUp={() => setGrabbed(null)}
                      onKeyDown={(e) => onHandleKey(e, w)}
                    >
                      <Icon name="grip" />
                    </button>
                    <b>{nameOf(w)}</b>
                    <button type="button" class="danger" aria-label={`Remove ${nameOf(w)}`} onClick={() => update((c) => void c[ci]!.widgets.splice(wi, 1))}>
                      <Icon name="close" />
                    </button>
                  </div>
                  {/* The device tile is as tall as its controls; an app's page is as tall as it is told. */}
                  {w.appWidgetId === DEVICE_TILE ? null : (
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
                      <span class="unit">px or %</span>
                    </label>
                  )}
                  {aw?.devices ? (
                    <DevicePicker
                      choice={aw.devices}
                      ownerAppId={aw.ownerId}
                      devices={devices}
                      value={w.devices ?? []}
                      onChange={(ids) => update((c) => void (c[ci]!.widgets[wi]!.devices = ids))}
                    />
                  ) : null}
                  {aw ? (
                    <WidgetSettings appWidget={aw} value={w.settings ?? {}} onChange={(s) => update((c) => void (c[ci]!.widgets[wi]!.settings = s))} />
                  ) : null}
                </div>
              );
            })}
          </div>
        ))}
      </div>
      <p id="arrange-help" class="visually-hidden">
        Space or Enter picks the widget up; then the arrow keys move it, Space or Enter puts it down, Escape puts it back.
      </p>
    </div>
  );
}

/** The chosen widget's preview picture, as Homey's picker shows it (its dark one in a dark theme). */
function WidgetPreview({ widget }: { widget: AppWidget | undefined }): JSX.Element | null {
  const { light, dark } = widget?.preview ?? { light: null, dark: null };
  if (!light && !dark) return null;
  return (
    <picture class="widget-preview" data-testid="widget-preview">
      {dark ? <source media="(prefers-color-scheme: dark)" srcset={dark} /> : null}
      <img src={light ?? dark ?? ''} alt="" width={120} />
    </picture>
  );
}

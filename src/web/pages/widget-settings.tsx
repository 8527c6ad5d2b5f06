/**
 * Editing one placed widget's settings from its app widget's setting definitions (text, number,
 * checkbox, dropdown, autocomplete). Autocomplete settings ask the widget's app through the
 * autocomplete operation and store the chosen result object ({id, name, ...}).
 */
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, describe, seg } from '../api.js';
import type { AppWidget } from '../widget-host.js';
import { Err, label } from '../ui.js';

interface Choice {
  id: string | number;
  name: string;
  description?: string;
}

function Autocomplete(p: { appWidgetId: string; settingId: string; value: unknown; settings: Record<string, unknown>; onChange: (v: unknown) => void }): JSX.Element {
  const current = p.value as Choice | undefined;
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<Choice[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (!open) return;
    // Wait for a pause in typing so every keystroke does not wake the app.
    const timer = window.setTimeout(() => {
      const q = new URLSearchParams({ settingId: p.settingId, query, settings: JSON.stringify(p.settings) });
      api<Choice[]>('GET', `/api/manager/dashboards/appwidget/${seg(p.appWidgetId)}/autocomplete?${q}`).then(
        (r) => (setResults(r), setError(null)),
        (e: unknown) => (setResults(null), setError(describe(e))),
      );
    }, 250);
    return () => window.clearTimeout(timer);
  }, [query, open]);
  return (
    <div class="autocomplete">
      <input
        type="search"
        placeholder={current?.name ? `${current.name} (type to change)` : 'type to search'}
        value={query}
        data-testid={`autocomplete-${p.settingId}`}
        onFocus={() => setOpen(true)}
        onInput={(e) => setQuery((e.target as HTMLInputElement).value)}
      />
      <Err msg={error} />
      {open && results ? (
        <ul class="choices">
          {results.length === 0 ? <li class="muted">no matches</li> : null}
          {results.map((r) => (
            <li key={String(r.id)}>
              <button
                type="button"
                class="link"
                onClick={() => {
                  p.onChange(r);
                  setOpen(false);
                  setQuery('');
                }}
              >
                {r.name}
                {r.description ? <span class="muted"> — {r.description}</span> : null}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

export function WidgetSettings(p: {
  appWidget: AppWidget;
  value: Record<string, unknown>;
  onChange: (next: Record<string, unknown>) => void;
}): JSX.Element | null {
  const defs = p.appWidget.settings;
  if (defs.length === 0) return null;
  const set = (id: string, v: unknown): void => p.onChange({ ...p.value, [id]: v });
  return (
    <div class="settings">
      {defs.map((d) => {
        const id = String(d.id);
        const type = String(d.type);
        const v = p.value[id] ?? d.default;
        let input: JSX.Element;
        if (type === 'checkbox') {
          input = <input type="checkbox" checked={v === true} onChange={(e) => set(id, (e.target as HTMLInputElement).checked)} />;
        } else if (type === 'dropdown') {
          const values = (d.values as Array<{ id: string; label: unknown }> | undefined) ?? [];
          input = (
            <select value={String(v ?? '')} onChange={(e) => set(id, (e.target as HTMLSelectElement).value)}>
              {values.map((o) => (
                <option key={o.id} value={o.id}>
                  {label(o.label)}
                </option>
              ))}
            </select>
          );
        } else if (type === 'number') {
          input = <input type="number" value={v === undefined ? '' : String(v)} onChange={(e) => set(id, Number((e.target as HTMLInputElement).value))} />;
        } else if (type === 'autocomplete') {
          input = <Autocomplete appWidgetId={p.appWidget.id} settingId={id} value={v} settings={p.value} onChange={(x) => set(id, x)} />;
        } else {
          input = <input type="text" value={v === undefined ? '' : String(v)} onChange={(e) => set(id, (e.target as HTMLInputElement).value)} />;
        }
        return (
          <label key={id} class={type === 'checkbox' ? 'check' : ''}>
            <span>
              {label(d.label) || id}
              {type === 'autocomplete' && v && typeof v === 'object' ? <b>: {String((v as Choice).name)}</b> : null}
            </span>
            {input}
          </label>
        );
      })}
    </div>
  );
}

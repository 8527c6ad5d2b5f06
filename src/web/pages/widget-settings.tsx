/**
 * Editing one placed widget's settings from its app widget's setting definitions, as the hub
 * normalises them: text, textarea, number (min/max/step), checkbox, dropdown (labelled values),
 * autocomplete. Autocomplete asks the widget's app and stores the chosen result object itself
 * (what the page's `Homey.getSettings()` gives back). A text's `pattern` is checked here, in the
 * browser: the hub never runs an app's regular expression.
 */
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { describe } from '../api.js';
import { call } from '../client.js';
import { Combobox } from '../combobox.js';
import { Err, label } from '../ui.js';
import type { AppWidget } from '../widget-host.js';

/** A setting definition as GET appwidget answers it. */
interface SettingDef {
  id: string;
  type: string;
  label: unknown;
  hint?: unknown;
  default?: unknown;
  values: Array<{ id: string; label: unknown }>;
  min?: number;
  max?: number;
  step?: number;
  placeholder?: unknown;
  pattern?: string;
  units?: unknown;
}

/** An autocomplete answer: Homey shows `name` (and `description`); the app may add fields (an id). */
interface Choice {
  name: string;
  description?: string;
  [field: string]: unknown;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function defOf(raw: Record<string, unknown>): SettingDef {
  const values = Array.isArray(raw.values) ? (raw.values as Array<{ id?: unknown; label?: unknown }>).filter((v) => typeof v?.id === 'string') : [];
  return {
    id: String(raw.id),
    type: String(raw.type),
    label: raw.label,
    hint: raw.hint,
    default: raw.default,
    values: values.map((v) => ({ id: String(v.id), label: v.label })),
    ...(num(raw.min) !== undefined ? { min: num(raw.min) } : {}),
    ...(num(raw.max) !== undefined ? { max: num(raw.max) } : {}),
    ...(num(raw.step) !== undefined ? { step: num(raw.step) } : {}),
    placeholder: raw.placeholder,
    units: raw.units,
    ...(typeof raw.pattern === 'string' ? { pattern: raw.pattern } : {}),
  };
}

/** The pattern as an HTML `pattern` attribute means it (the whole text must match), or null if unusable. */
function patternOf(pattern: string): RegExp | null {
  for (const flags of ['v', 'u']) {
    try {
      return new RegExp(`^(?:${pattern})$`, flags);
    } catch {
      /* not valid with these flags: try the next */
    }
  }
  return null;
}

/** Why `value` does not fit the setting, or null. */
function problemOf(def: SettingDef, value: unknown): string | null {
  const name = label(def.label) || def.id;
  if (value === undefined || value === null || value === '') return null;
  if (def.type === 'number') {
    if (typeof value !== 'number' || !Number.isFinite(value)) return `${name} must be a number`;
    if (def.min !== undefined && value < def.min) return `${name} must be at least ${def.min}`;
    if (def.max !== undefined && value > def.max) return `${name} must be at most ${def.max}`;
  }
  if ((def.type === 'text' || def.type === 'textarea') && def.pattern !== undefined) {
    const re = patternOf(def.pattern);
    if (re && !re.test(String(value))) return `${name} must match the pattern ${def.pattern}`;
  }
  return null;
}

/** Every problem of a widget's settings, one sentence each (the arranger will not save while any is left). */
export function settingsProblems(appWidget: AppWidget, settings: Record<string, unknown>): string[] {
  return appWidget.settings
    .map((raw) => {
      const def = defOf(raw);
      return problemOf(def, settings[def.id]);
    })
    .filter((p): p is string => p !== null);
}

function Autocomplete(p: {
  appWidgetId: string;
  settingId: string;
  label: string;
  value: unknown;
  settings: Record<string, unknown>;
  onChange: (v: unknown) => void;
}): JSX.Element {
  const current = typeof p.value === 'object' && p.value !== null ? (p.value as Partial<Choice>) : undefined;
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<Choice[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [asked, setAsked] = useState<{ q: string } | null>(null);
  useEffect(() => {
    if (!asked) return;
    // Wait for a pause in typing so every keystroke does not wake the app.
    const timer = window.setTimeout(() => {
      const q = { settingId: p.settingId, query: asked.q, settings: JSON.stringify(p.settings) };
      call('dashboards', 'getAppWidgetAutocomplete', { params: { id: p.appWidgetId }, query: q }).then(
        (r) => {
          setResults(r);
          setError(null);
        },
        (e: unknown) => {
          setResults(null);
          setError(describe(e));
        },
      );
    }, 250);
    return () => window.clearTimeout(timer);
  }, [asked]);
  return (
    <>
      <Combobox
        label={p.label}
        query={query}
        placeholder={typeof current?.name === 'string' ? `${current.name} (type to change)` : 'type to search'}
        options={results}
        testId={`autocomplete-${p.settingId}`}
        onQuery={(q) => {
          setQuery(q);
          setAsked({ q });
        }}
        onPick={(r) => {
          // The whole result is the value, extra fields and all, as in Homey.
          p.onChange(r);
          setQuery('');
        }}
      />
      <Err msg={error} />
    </>
  );
}

function Input({
  def,
  value,
  set,
  appWidget,
  settings,
}: {
  def: SettingDef;
  value: unknown;
  set: (v: unknown) => void;
  appWidget: AppWidget;
  settings: Record<string, unknown>;
}): JSX.Element {
  const text = value === undefined || value === null ? '' : String(value);
  const placeholder = label(def.placeholder) || undefined;
  switch (def.type) {
    case 'checkbox':
      return <input type="checkbox" checked={value === true} onChange={(e) => set((e.target as HTMLInputElement).checked)} />;
    case 'dropdown':
      return (
        <select value={text} onChange={(e) => set((e.target as HTMLSelectElement).value)}>
          {def.values.map((o) => (
            <option key={o.id} value={o.id}>
              {label(o.label) || o.id}
            </option>
          ))}
        </select>
      );
    case 'number':
      return (
        <span class="with-unit">
          <input
            type="number"
            value={text}
            min={def.min}
            max={def.max}
            step={def.step ?? 'any'}
            placeholder={placeholder}
            // Empty clears the value, so the app's default applies again.
            onInput={(e) => {
              const v = (e.target as HTMLInputElement).value;
              set(v === '' ? undefined : Number(v));
            }}
          />
          {label(def.units) ? <span class="unit">{label(def.units)}</span> : null}
        </span>
      );
    case 'textarea':
      return <textarea rows={3} value={text} placeholder={placeholder} onInput={(e) => set((e.target as HTMLTextAreaElement).value)} />;
    case 'autocomplete':
      return <Autocomplete appWidgetId={appWidget.id} settingId={def.id} label={label(def.label) || def.id} value={value} settings={settings} onChange={set} />;
    default:
      return <input type="text" value={text} placeholder={placeholder} onInput={(e) => set((e.target as HTMLInputElement).value)} />;
  }
}

export function WidgetSettings(p: {
  appWidget: AppWidget;
  value: Record<string, unknown>;
  onChange: (next: Record<string, unknown>) => void;
}): JSX.Element | null {
  const defs = p.appWidget.settings.map(defOf);
  if (defs.length === 0) return null;
  const set = (id: string, v: unknown): void => {
    const next = { ...p.value };
    if (v === undefined) delete next[id];
    else next[id] = v;
    p.onChange(next);
  };
  return (
    <div class="settings">
      {defs.map((d) => {
        const v = p.value[d.id] ?? d.default;
        const chosen = d.type === 'autocomplete' && typeof v === 'object' && v !== null ? (v as Partial<Choice>).name : undefined;
        return (
          // biome-ignore lint/a11y/noLabelWithoutControl: the control is the setting's input, chosen by its type below
          <label key={d.id} class={d.type === 'checkbox' ? 'check' : ''} data-setting={d.id}>
            <span>
              {label(d.label) || d.id}
              {typeof chosen === 'string' ? <b data-testid={`chosen-${d.id}`}>: {chosen}</b> : null}
            </span>
            <Input def={d} value={v} set={(x) => set(d.id, x)} appWidget={p.appWidget} settings={p.value} />
            {d.hint ? <small class="muted">{label(d.hint)}</small> : null}
            <Err msg={problemOf(d, p.value[d.id])} />
          </label>
        );
      })}
    </div>
  );
}

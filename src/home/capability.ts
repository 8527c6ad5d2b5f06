/**
 * What hearth knows of a capability: its value's type, range or choices, whether it can be read
 * and set, its units, and how the web app shows it. Homey's system capabilities are in
 * capability-table.ts (written from Homey's public capability reference); an app's own
 * capabilities come from its app.json in the same shape. Imports no Node module: the web app
 * uses it too.
 */
import { SYSTEM_CAPABILITIES } from './capability-table.js';

/** How the web app shows a capability (Homey's `uiComponent`); null: not shown as a control. */
export type CapabilityUi = 'toggle' | 'slider' | 'sensor' | 'thermostat' | 'media' | 'color' | 'battery' | 'picker' | 'ternary' | 'button' | null;

export interface CapabilityValue {
  id: string;
  title: string;
}

export interface Capability {
  type: 'boolean' | 'number' | 'string' | 'enum';
  /** English title. */
  title: string;
  getable: boolean;
  setable: boolean;
  /** Units shown after a number (e.g. `°C`, `W`, `%`), or null. */
  units: string | null;
  /** Numbers: the range and step a value must keep to (null: no bound). */
  min: number | null;
  max: number | null;
  step: number | null;
  decimals: number | null;
  /** Enums: the values it may take. */
  values: readonly CapabilityValue[] | null;
  ui: CapabilityUi;
  /** Whether Homey keeps an insights log of it by default. */
  insights: boolean;
}

/** The English (else the first) text of a title Homey writes as a string or per language (`{en, nl}`), or null. */
export function english(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (typeof v !== 'object' || v === null) return null;
  const texts = Object.values(v as Record<string, unknown>).filter((t): t is string => typeof t === 'string');
  const en = (v as Record<string, unknown>).en;
  return typeof en === 'string' ? en : (texts[0] ?? null);
}
const num = (v: unknown, fallback: number | null): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);

/**
 * The facts of capability `id` on a device: the app's own capability or Homey's system one (a
 * sub-capability `measure_temperature.inside` is `measure_temperature`'s), with the device's
 * `capabilitiesOptions` for it on top (title, units, range, step, decimals, choices, getable and
 * setable, preventInsights). Null for a capability hearth does not know.
 */
export function capabilityOf(id: string, custom: Readonly<Record<string, Capability>>, options: Readonly<Record<string, unknown>> = {}): Capability | null {
  const base = id.split('.')[0] ?? id;
  const known =
    (Object.hasOwn(custom, id) ? custom[id] : undefined) ??
    (Object.hasOwn(custom, base) ? custom[base] : undefined) ??
    (Object.hasOwn(SYSTEM_CAPABILITIES, base) ? SYSTEM_CAPABILITIES[base] : undefined);
  if (!known) return null;
  const values = Array.isArray(options.values)
    ? options.values.flatMap((v: unknown) => {
        const id = (v as { id?: unknown })?.id;
        return typeof id === 'string' ? [{ id, title: english((v as { title?: unknown }).title) ?? id }] : [];
      })
    : known.values;
  return {
    ...known,
    title: english(options.title) ?? known.title,
    units: english(options.units) ?? known.units,
    min: num(options.min, known.min),
    max: num(options.max, known.max),
    step: num(options.step, known.step),
    decimals: num(options.decimals, known.decimals),
    values,
    getable: typeof options.getable === 'boolean' ? options.getable : known.getable,
    setable: typeof options.setable === 'boolean' ? options.setable : known.setable,
    insights: options.preventInsights === true ? false : known.insights,
  };
}

/** Why `value` cannot be the value of `cap`, in a sentence, or null. Null is always allowed: "not known". */
export function valueProblem(cap: Capability, value: unknown): string | null {
  if (value === null) return null;
  switch (cap.type) {
    case 'boolean':
      return typeof value === 'boolean' ? null : `${cap.title} takes true or false`;
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return `${cap.title} takes a number`;
      if (cap.min !== null && value < cap.min) return `${cap.title} takes ${cap.min} at least (got ${value})`;
      if (cap.max !== null && value > cap.max) return `${cap.title} takes ${cap.max} at most (got ${value})`;
      return null;
    }
    case 'enum': {
      if (typeof value !== 'string') return `${cap.title} takes one of: ${(cap.values ?? []).map((v) => v.id).join(', ')}`;
      if (cap.values && !cap.values.some((v) => v.id === value)) return `${cap.title} takes one of: ${cap.values.map((v) => v.id).join(', ')} (got '${value}')`;
      return null;
    }
    case 'string':
      return typeof value === 'string' ? null : `${cap.title} takes a text`;
  }
}

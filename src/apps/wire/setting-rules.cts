/**
 * The rules of app settings, shared by the hub (which enforces them) and the app's SDK (which
 * checks them before a synchronous `this.homey.settings.set` returns, so the app hears of a bad
 * value where it made it): the size caps, and a value against the app's declaration of that
 * setting. CommonJS and free of imports but its sibling rule (a key is never a dot segment), so
 * the SDK in the app's process can load it.
 */
import { isDotName } from './segments.cjs';

/** Largest settings value, as JSON text. */
export const MAX_SETTING_BYTES = 64 * 1024;
/** Settings one app may keep, and their size in all (keys and values as JSON). */
export const MAX_SETTING_KEYS = 256;
export const MAX_APP_SETTINGS_BYTES = 1024 * 1024;

/** Why `key` cannot be a settings key, or null: 1-256 characters, and never `.` or `..` (it becomes a path segment). */
export function keyProblem(key: unknown): string | null {
  if (typeof key !== 'string' || key.length === 0 || key.length > 256) return 'a settings key is a string of 1-256 characters';
  if (isDotName(key)) return `'${key}' cannot be a settings key: it is a path segment that names the app itself (use another name)`;
  return null;
}

/**
 * `value` as a setting keeps it (its JSON, read back), or why it cannot be one: it has no JSON
 * form (a function, undefined), or its JSON is over MAX_SETTING_BYTES. The key is checked apart
 * (keyProblem).
 */
export function storedValue(key: string, value: unknown): { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly problem: string } {
  const json = JSON.stringify(value);
  if (json === undefined) return { ok: false, problem: `setting '${key}' needs a JSON value (not a function or undefined)` };
  if (Buffer.byteLength(json) > MAX_SETTING_BYTES) return { ok: false, problem: `setting '${key}' is larger than 64 KiB as JSON` };
  return { ok: true, value: JSON.parse(json) as unknown };
}

/** What one setting adds to the app's settings as JSON: `"key":value,`. */
export function entryBytes(key: string, value: unknown): number {
  return Buffer.byteLength(JSON.stringify(key)) + Buffer.byteLength(JSON.stringify(value) ?? 'null') + 2;
}

export function settingsBytes(settings: Record<string, unknown>): number {
  let total = 2;
  for (const [k, v] of Object.entries(settings)) total += entryBytes(k, v);
  return total;
}

/**
 * Why `value` cannot become setting `key` of an app that keeps `settings` now, or null. `value`
 * is already JSON (parsed from its text); the caps count the settings as they would be after.
 */
export function capProblem(appId: string, settings: Record<string, unknown>, key: string, value: unknown): string | null {
  const isNew = !Object.hasOwn(settings, key);
  if (isNew && Object.keys(settings).length >= MAX_SETTING_KEYS) {
    return `app '${appId}' keeps ${MAX_SETTING_KEYS} settings, the most an app may; unset one before adding '${key}'`;
  }
  const current = settingsBytes(settings);
  const bytes = current - (isNew ? 0 : entryBytes(key, settings[key])) + entryBytes(key, value);
  // A change that does not grow them passes (settings kept from before these caps existed).
  if (bytes > MAX_APP_SETTINGS_BYTES && bytes > current) {
    return `app '${appId}' would keep ${bytes} bytes of settings with '${key}'; the most an app may keep is ${MAX_APP_SETTINGS_BYTES} (1 MiB)`;
  }
  return null;
}

/** A setting as app.json declares it (manifest.ts parses and normalises it into this shape). */
export interface DeclaredSetting {
  id: string;
  type: 'text' | 'textarea' | 'number' | 'checkbox' | 'dropdown' | 'autocomplete';
  min?: number | undefined;
  max?: number | undefined;
  values?: ReadonlyArray<{ id: string }> | undefined;
  /** Its label as app.json gives it (a string or per language): sentences name the setting by it. */
  label?: unknown;
}

/**
 * How a sentence names a setting: by the label a person sees (English, as the hub's errors are),
 * with the id for those who call the API: `setting 'Sample every (seconds)' (interval)`.
 */
function nameOf(def: DeclaredSetting): string {
  const l = def.label;
  const text =
    typeof l === 'string' ? l : l && typeof l === 'object' ? ((l as Record<string, unknown>).en ?? Object.values(l as Record<string, unknown>)[0]) : undefined;
  return typeof text === 'string' && text.trim() !== '' && text.trim().toLowerCase() !== def.id.toLowerCase()
    ? `setting '${text.trim().slice(0, 80)}' (${def.id})`
    : `setting '${def.id}'`;
}

/** A sentence saying what is wrong with `value`, or null when it fits the declaration. */
export function settingProblem(def: DeclaredSetting, value: unknown): string | null {
  if (value === null) return null; // null clears a declared setting to "no value"
  const name = nameOf(def);
  switch (def.type) {
    case 'text':
    case 'textarea':
      // A `pattern` is the app's regular expression: the web app checks it in the browser; the
      // hub never runs an app's pattern (a backtracking one would stall the hub for everyone).
      return typeof value === 'string' ? null : `${name} is text: send a string`;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return `${name} is a number`;
      if (def.min !== undefined && value < def.min) return `${name} must be at least ${def.min}`;
      if (def.max !== undefined && value > def.max) return `${name} must be at most ${def.max}`;
      return null;
    case 'checkbox':
      return typeof value === 'boolean' ? null : `${name} is a checkbox: send true or false`;
    case 'dropdown':
      return (def.values ?? []).some((v) => v.id === value) ? null : `${name} must be one of: ${(def.values ?? []).map((v) => v.id).join(', ')}`;
    case 'autocomplete':
      return null; // whatever the app's autocomplete offered (an object with id and name, usually)
  }
}
